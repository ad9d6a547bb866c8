/*
 * firebase/app.h — Hearth's Firebase C++ SDK compatibility layer (opt-in).
 *
 * firebase::App and firebase::AppOptions as in the Firebase C++ SDK's desktop build, each App backed
 * by a hearth::App (its own loop thread, the session kept in a 0600 file; see hearth_compat.h to
 * choose otherwise).
 *
 * - App::Create() reads the configuration from "google-services-desktop.json", else
 *   "google-services.json", in the working directory (AppOptions::LoadFromJsonConfig), and returns
 *   nullptr when neither is there and valid.
 * - App::Create(options[, name]) fills an empty app id, API key or project id from those files, and
 *   returns nullptr (with an "ERROR:" log line) when any of the three is still missing. Creating an
 *   app whose name is taken returns the existing app, whose options stay.
 * - delete app: deletes the Hearth app, which cancels what is in flight and never waits on the
 *   network (the SDK waits for pending requests). An Auth of the app that is not deleted first stays
 *   a shell whose calls do nothing (as in the SDK) and may still be deleted.
 */
#ifndef FIREBASE_APP_SRC_INCLUDE_FIREBASE_APP_H_
#define FIREBASE_APP_SRC_INCLUDE_FIREBASE_APP_H_

#include "firebase/internal/platform.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace firebase {

#ifdef FIREBASE_LINUX_BUILD_CONFIG_STRING
/// Aborts (with an "ASSERT:" line) unless `input` names the compiler and standard library this layer
/// was built with (FIREBASE_LINUX_BUILD_CONFIG_STRING). Header-only, the layer is built with the
/// application's own, so every App passes.
void CheckCompilerString(const char* input);
#endif

namespace internal {
class AppInternal;
struct AppAccess;
}  // namespace internal

/// The outcome of initializing a module (Auth::GetAuth, ModuleInitializer).
enum InitResult {
  kInitResultSuccess = 0,
  /// A dependency is missing (Google Play services on Android; never on a desktop).
  kInitResultFailedMissingDependency
};

/// The name of the app created without a name.
inline constexpr const char* kDefaultAppName = "[DEFAULT]";

/// The project and app an App talks to. Setters copy their argument (NULL reads as "").
class AppOptions {
  friend class App;

 public:
  AppOptions() {}

  /// The app id ("1:1234567890:android:abc..."), sent to Firebase as X-Firebase-GMPID.
  void set_app_id(const char* id) { app_id_ = id ? id : ""; }
  const char* app_id() const { return app_id_.c_str(); }

  /// The Web API key every request carries.
  void set_api_key(const char* key) { api_key_ = key ? key : ""; }
  const char* api_key() const { return api_key_.c_str(); }

  /// Kept for other Firebase products; Auth does not use it.
  void set_messaging_sender_id(const char* sender_id) { fcm_sender_id_ = sender_id ? sender_id : ""; }
  const char* messaging_sender_id() const { return fcm_sender_id_.c_str(); }

  /// Kept for other Firebase products; Auth does not use it.
  void set_database_url(const char* url) { database_url_ = url ? url : ""; }
  const char* database_url() const { return database_url_.c_str(); }

  /// Kept for other Firebase products; Auth does not use it.
  void set_ga_tracking_id(const char* id) { ga_tracking_id_ = id ? id : ""; }
  const char* ga_tracking_id() const { return ga_tracking_id_.c_str(); }

  /// Kept for other Firebase products; Auth does not use it.
  void set_storage_bucket(const char* bucket) { storage_bucket_ = bucket ? bucket : ""; }
  const char* storage_bucket() const { return storage_bucket_.c_str(); }

  /// The Google Cloud project id.
  void set_project_id(const char* project) { project_id_ = project ? project : ""; }
  const char* project_id() const { return project_id_.c_str(); }

  /// Reads a google-services.json text into `options` (a new AppOptions, which the caller deletes,
  /// when options is nullptr) and returns it; nullptr when the text is not JSON, a field has the wrong
  /// type, or "project_info" or a "client" with "client_info.android_client_info.package_name" is
  /// missing. Read: project_info's project_id, project_number (messaging sender id), firebase_url,
  /// storage_bucket; that client's current API key, mobilesdk_app_id and analytics tracking id.
  /// A missing database URL, storage bucket, project id, API key or app id is logged as a warning.
  static AppOptions* LoadFromJsonConfig(const char* config, AppOptions* options = nullptr);

 private:
  std::string package_name_;
  std::string api_key_;
  std::string app_id_;
  std::string client_id_;
  std::string database_url_;
  std::string ga_tracking_id_;
  std::string fcm_sender_id_;
  std::string storage_bucket_;
  std::string project_id_;
};

/// A Firebase app: a project's configuration and the Hearth app that serves it. Create with
/// App::Create, destroy with delete (see the top of this file).
class App {
 public:
  ~App();

  /// The default app, configured from google-services-desktop.json or google-services.json in the
  /// working directory; nullptr when neither is there and valid.
  static App* Create();
  /// The default app ("[DEFAULT]").
  static App* Create(const AppOptions& options);
  /// An app named `name` (nullptr: the default app).
  static App* Create(const AppOptions& options, const char* name);

  /// The default app, or nullptr.
  static App* GetInstance();
  /// The app named `name`, or nullptr.
  static App* GetInstance(const char* name);
  /// Every live app, by name.
  static std::vector<App*> GetApps();

  const char* name() const { return name_.c_str(); }
  /// The options the app was created with, missing fields filled from the configuration file.
  const AppOptions& options() const { return options_; }

 private:
  App();
  App(const App&) = delete;
  App& operator=(const App&) = delete;
  friend struct ::firebase::internal::AppAccess;

  std::string name_;
  AppOptions options_;
  std::map<std::string, InitResult> init_results_;
  internal::AppInternal* internal_;
};

}  // namespace firebase

#include "hearth_compat/app_impl.h"

#endif  // FIREBASE_APP_SRC_INCLUDE_FIREBASE_APP_H_
