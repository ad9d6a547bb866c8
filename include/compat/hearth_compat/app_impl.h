/*
 * hearth_compat/app_impl.h — part of Hearth's Firebase C++ SDK compatibility layer; not for direct use.
 *
 * The definitions behind firebase/app.h: the registry of live apps, the configuration files
 * (google-services.json, read with the SDK's schema: unknown fields are skipped, a known field of the
 * wrong type fails the whole file), and each App's hearth::App.
 */
#ifndef HEARTH_COMPAT_APP_IMPL_H
#define HEARTH_COMPAT_APP_IMPL_H

#include <cstring>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "firebase/app.h"
#include "firebase/log.h"
#include "hearth.hpp"
#include "hearth_compat/assert.h"
#include "hearth_compat/json.h"

namespace firebase {
namespace internal {

/// What an App keeps besides its name and options.
class AppInternal {
 public:
  explicit AppInternal(std::shared_ptr<hearth::App> app) : hearth_app(std::move(app)) {}
  // Readers borrow the Hearth app for one call; the App's destructor drops this reference.
  std::shared_ptr<hearth::App> hearth_app;
  std::mutex mutex;
  // Run by ~App before the Hearth app goes (its Auth lets go of it).
  std::vector<std::function<void()>> on_delete;
};

struct AppAccess {
  static AppInternal* Internal(const App* app) { return app ? app->internal_ : nullptr; }
  static App* New(const char* name, const AppOptions& options, std::shared_ptr<hearth::App> hearth_app) {
    App* app = new App();
    app->name_ = name;
    app->options_ = options;
    app->internal_ = new AppInternal(std::move(hearth_app));
    return app;
  }
};

}  // namespace internal
}  // namespace firebase

namespace hearth {
namespace compat {
namespace detail {

struct AppRegistry {
  std::mutex mutex;
  std::map<std::string, firebase::App*> apps;  // by name, as GetApps lists them
  // Hearth's own settings for new apps (hearth::compat::SetDefaultHearthOptions).
  hearth::AppOptions hearth_defaults;
};

// Never destroyed: an App may be deleted during static destruction.
inline AppRegistry& Apps() {
  static AppRegistry* registry = new AppRegistry();
  return *registry;
}

// ---- google-services.json -----------------------------------------------------------------------------

// The SDK's schema for the file: each table's known fields and what they hold.
enum class FieldKind { kString, kInt, kTable, kTableVector };
struct FieldSpec {
  const char* name;
  FieldKind kind;
  const char* table;  // for kTable / kTableVector
};

inline const std::vector<FieldSpec>* SchemaTable(const std::string& table) {
  static const std::map<std::string, std::vector<FieldSpec>>* schema = new std::map<std::string, std::vector<FieldSpec>>{
      {"GoogleServices",
       {{"project_info", FieldKind::kTable, "ProjectInfo"},
        {"client", FieldKind::kTableVector, "Client"},
        {"configuration_version", FieldKind::kString, nullptr}}},
      {"ProjectInfo",
       {{"project_number", FieldKind::kString, nullptr},
        {"firebase_url", FieldKind::kString, nullptr},
        {"project_id", FieldKind::kString, nullptr},
        {"storage_bucket", FieldKind::kString, nullptr}}},
      {"Client",
       {{"client_info", FieldKind::kTable, "ClientInfo"},
        {"oauth_client", FieldKind::kTableVector, "OAuthClient"},
        {"api_key", FieldKind::kTableVector, "ApiKey"},
        {"services", FieldKind::kTable, "Services"}}},
      {"ClientInfo",
       {{"mobilesdk_app_id", FieldKind::kString, nullptr},
        {"android_client_info", FieldKind::kTable, "AndroidClientInfo"}}},
      {"AndroidClientInfo", {{"package_name", FieldKind::kString, nullptr}}},
      {"OAuthClient",
       {{"client_id", FieldKind::kString, nullptr},
        {"client_type", FieldKind::kInt, nullptr},
        {"android_info", FieldKind::kTable, "AndroidInfo"}}},
      {"AndroidInfo",
       {{"package_name", FieldKind::kString, nullptr}, {"certificate_hash", FieldKind::kString, nullptr}}},
      {"ApiKey", {{"current_key", FieldKind::kString, nullptr}}},
      {"Services",
       {{"analytics_service", FieldKind::kTable, "AnalyticsService"},
        {"appinvite_service", FieldKind::kTable, "AppInviteService"},
        {"ads_service", FieldKind::kTable, "AdsService"}}},
      {"AnalyticsService",
       {{"status", FieldKind::kInt, nullptr}, {"analytics_property", FieldKind::kTable, "AnalyticsProperty"}}},
      {"AnalyticsProperty", {{"tracking_id", FieldKind::kString, nullptr}}},
      {"AppInviteService", {{"status", FieldKind::kInt, nullptr}}},
      {"AdsService",
       {{"status", FieldKind::kInt, nullptr},
        {"test_banner_ad_unit_id", FieldKind::kString, nullptr},
        {"test_interstitial_ad_unit_id", FieldKind::kString, nullptr},
        {"analytics_service", FieldKind::kTable, "AnalyticsService"}}},
  };
  auto it = schema->find(table);
  return it == schema->end() ? nullptr : &it->second;
}

// Checks a JSON object against a table of the schema; false with the offending path in *problem.
inline bool CheckTable(const firebase::Variant& value, const std::string& table, const std::string& path,
                       std::string* problem) {
  if (!value.is_map()) {
    *problem = path + " is not an object";
    return false;
  }
  const std::vector<FieldSpec>* fields = SchemaTable(table);
  for (const auto& entry : value.map()) {
    if (!entry.first.is_string()) continue;
    const std::string name = entry.first.string_value();
    const firebase::Variant& field = entry.second;
    if (field.is_null()) continue;  // null reads as absent
    for (const FieldSpec& spec : *fields) {
      if (name != spec.name) continue;
      const std::string field_path = path + "." + name;
      switch (spec.kind) {
        case FieldKind::kString:
          if (!field.is_string()) {
            *problem = field_path + " is not a string";
            return false;
          }
          break;
        case FieldKind::kInt:
          if (!field.is_int64() && !field.is_bool()) {
            *problem = field_path + " is not an integer";
            return false;
          }
          break;
        case FieldKind::kTable:
          if (!CheckTable(field, spec.table, field_path, problem)) return false;
          break;
        case FieldKind::kTableVector:
          if (!field.is_vector()) {
            *problem = field_path + " is not an array";
            return false;
          }
          for (size_t i = 0; i < field.vector().size(); ++i) {
            if (!CheckTable(field.vector()[i], spec.table, field_path + "[" + std::to_string(i) + "]", problem)) {
              return false;
            }
          }
          break;
      }
    }
  }
  return true;
}

// A field of an object, or nullptr when absent or null.
inline const firebase::Variant* Field(const firebase::Variant& object, const char* name) {
  if (!object.is_map()) return nullptr;
  auto it = object.map().find(firebase::Variant::FromMutableString(name));
  return it == object.map().end() || it->second.is_null() ? nullptr : &it->second;
}

inline const char* StringField(const firebase::Variant& object, const char* name) {
  const firebase::Variant* field = Field(object, name);
  return field && field->is_string() ? field->string_value() : nullptr;
}

inline const firebase::Variant* Path(const firebase::Variant& object, std::initializer_list<const char*> names) {
  const firebase::Variant* at = &object;
  for (const char* name : names) {
    at = Field(*at, name);
    if (!at) return nullptr;
  }
  return at;
}

// Reads a configuration file into `options`; the SDK's size limit applies (500 KiB).
inline bool LoadConfigFile(const std::string& path, firebase::AppOptions* options) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::string text;
  constexpr size_t kMaxBytes = 1024 * 500;
  char chunk[4096];
  while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
    text.append(chunk, static_cast<size_t>(in.gcount()));
    if (text.size() > kMaxBytes) {
      Log(firebase::kLogLevelError, "%s is larger than %zu bytes.", path.c_str(), kMaxBytes);
      return false;
    }
  }
  return firebase::AppOptions::LoadFromJsonConfig(text.c_str(), options) != nullptr;
}

// The desktop SDK's default configuration: the first of its two file names that loads.
inline bool LoadDefaultConfig(firebase::AppOptions* options) {
  static const char* const kNames[] = {"google-services-desktop.json", "google-services.json"};
  for (const char* name : kNames) {
    if (LoadConfigFile(name, options)) return true;
  }
  Log(firebase::kLogLevelError, "Unable to load Firebase app options ([%s, %s] are missing or malformed)", kNames[0],
      kNames[1]);
  return false;
}

// The SDK fills an empty app id, API key or project id from the default configuration.
inline bool PopulateRequiredWithDefaults(firebase::AppOptions* options) {
  auto missing = [options] {
    return !*options->app_id() || !*options->api_key() || !*options->project_id();
  };
  if (missing()) {
    firebase::AppOptions defaults;
    if (LoadDefaultConfig(&defaults)) {
      if (!*options->app_id()) options->set_app_id(defaults.app_id());
      if (!*options->api_key()) options->set_api_key(defaults.api_key());
      if (!*options->project_id()) options->set_project_id(defaults.project_id());
    } else {
      Log(firebase::kLogLevelError, "Failed to load default options when attempting to populate missing fields");
    }
  }
  if (missing()) {
    Log(firebase::kLogLevelError, "App ID, API key, and Project ID must be specified in App options.");
    return false;
  }
  return true;
}

}  // namespace detail
}  // namespace compat
}  // namespace hearth

namespace firebase {

#ifdef FIREBASE_LINUX_BUILD_CONFIG_STRING
inline void CheckCompilerString(const char* input) {
  if (input == nullptr || std::strcmp(input, FIREBASE_LINUX_BUILD_CONFIG_STRING) != 0) {
    hearth::compat::detail::AssertionFailed(
        "The compiler or standard library the Firebase layer was built with does not match the application's. "
        "[Lib: '%s' != Bin: '%s']",
        FIREBASE_LINUX_BUILD_CONFIG_STRING, input ? input : "(null)");
  }
}
#endif

inline AppOptions* AppOptions::LoadFromJsonConfig(const char* config, AppOptions* options) {
  using hearth::compat::detail::Log;
  using hearth::compat::detail::Path;
  using hearth::compat::detail::StringField;
  if (config == nullptr) {
    Log(kLogLevelError, "Failed to parse Firebase config: no text.");
    return nullptr;
  }
  Variant root;
  std::string problem;
  if (!hearth::compat::detail::ParseJson(config, &root, &problem) ||
      !hearth::compat::detail::CheckTable(root, "GoogleServices", "config", &problem)) {
    Log(kLogLevelError, "Failed to parse Firebase config: %s.", problem.c_str());
    return nullptr;
  }
  AppOptions* allocated = nullptr;
  if (options == nullptr) options = allocated = new AppOptions();

  bool failed = false;
  const Variant* project = hearth::compat::detail::Field(root, "project_info");
  if (project) {
    if (const char* url = StringField(*project, "firebase_url")) options->set_database_url(url);
    if (const char* number = StringField(*project, "project_number")) options->set_messaging_sender_id(number);
    if (const char* bucket = StringField(*project, "storage_bucket")) options->set_storage_bucket(bucket);
    if (const char* id = StringField(*project, "project_id")) options->set_project_id(id);

    // The first client that names an Android package is the app's.
    const Variant* selected = nullptr;
    if (const Variant* clients = hearth::compat::detail::Field(root, "client")) {
      for (const Variant& client : clients->vector()) {
        if (Path(client, {"client_info", "android_client_info", "package_name"})) {
          selected = &client;
          break;
        }
      }
    }
    if (selected) {
      options->package_name_ =
          Path(*selected, {"client_info", "android_client_info", "package_name"})->string_value();
      if (const Variant* keys = hearth::compat::detail::Field(*selected, "api_key")) {
        for (const Variant& key : keys->vector()) {
          if (const char* current = StringField(key, "current_key")) {
            options->set_api_key(current);
            break;
          }
        }
      }
      if (const Variant* app_id = Path(*selected, {"client_info", "mobilesdk_app_id"})) {
        options->set_app_id(app_id->string_value());
      }
      if (const Variant* tracking =
              Path(*selected, {"services", "analytics_service", "analytics_property", "tracking_id"})) {
        options->set_ga_tracking_id(tracking->string_value());
      }
    } else {
      Log(kLogLevelError, "'client' data (oauth client ID, API key etc.) not found in Firebase config.");
      failed = true;
    }
  } else {
    Log(kLogLevelError, "'project_info' not found in Firebase config.");
    failed = true;
  }

  const struct {
    const char* value;
    const char* name;
  } required[] = {{options->database_url(), "Database URL"},
                  {options->storage_bucket(), "Storage bucket"},
                  {options->project_id(), "Project ID"},
                  {options->api_key(), "API key"},
                  {options->app_id(), "App ID"}};
  for (const auto& option : required) {
    if (!*option.value) Log(kLogLevelWarning, "%s not set in the Firebase config.", option.name);
  }
  if (failed) {
    delete allocated;
    return nullptr;
  }
  return options;
}

inline App::App() : internal_(nullptr) {
#ifdef FIREBASE_LINUX_BUILD_CONFIG_STRING
  CheckCompilerString(FIREBASE_LINUX_BUILD_CONFIG_STRING);
#endif
}

inline App::~App() {
  {
    hearth::compat::detail::AppRegistry& registry = hearth::compat::detail::Apps();
    std::lock_guard<std::mutex> lock(registry.mutex);
    auto it = registry.apps.find(name_);
    if (it != registry.apps.end() && it->second == this) registry.apps.erase(it);
  }
  if (internal_) {
    std::vector<std::function<void()>> hooks;
    {
      std::lock_guard<std::mutex> lock(internal_->mutex);
      hooks.swap(internal_->on_delete);
    }
    for (auto& hook : hooks) hook();
  }
  // The last reference to the Hearth app goes with this (or with a reader finishing its call).
  delete internal_;
}

inline App* App::Create() {
  AppOptions options;
  return hearth::compat::detail::LoadDefaultConfig(&options) ? Create(options) : nullptr;
}

inline App* App::Create(const AppOptions& options) { return Create(options, kDefaultAppName); }

inline App* App::Create(const AppOptions& options, const char* name) {
  using hearth::compat::detail::Log;
  if (name == nullptr) name = kDefaultAppName;
  hearth::compat::detail::AppRegistry& registry = hearth::compat::detail::Apps();
  std::lock_guard<std::mutex> lock(registry.mutex);
  auto existing = registry.apps.find(name);
  if (existing != registry.apps.end()) {
    Log(kLogLevelError, "App %s already created, options will not be applied.", name);
    return existing->second;
  }
  AppOptions with_defaults = options;
  if (!hearth::compat::detail::PopulateRequiredWithDefaults(&with_defaults)) return nullptr;

  hearth::compat::detail::ApplyLogLevel();
  hearth::AppOptions hearth_options = registry.hearth_defaults;
  hearth_options.set_api_key(with_defaults.api_key());
  hearth_options.set_app_id(with_defaults.app_id());
  hearth_options.set_project_id(with_defaults.project_id());
  int error = 0;
  hearth::App* hearth_app = hearth::App::Create(hearth_options, name, &error);
  if (hearth_app == nullptr) {
    Log(kLogLevelError, "Could not create app %s: %s (%s).", name, hearth::auth::AuthErrorMessage(error),
        hearth::auth::AuthErrorName(error));
    return nullptr;
  }
  App* app = internal::AppAccess::New(name, with_defaults, std::shared_ptr<hearth::App>(hearth_app));
  registry.apps[name] = app;
  return app;
}

inline App* App::GetInstance() { return GetInstance(kDefaultAppName); }

inline App* App::GetInstance(const char* name) {
  hearth::compat::detail::AppRegistry& registry = hearth::compat::detail::Apps();
  std::lock_guard<std::mutex> lock(registry.mutex);
  auto it = registry.apps.find(name ? name : kDefaultAppName);
  return it == registry.apps.end() ? nullptr : it->second;
}

inline std::vector<App*> App::GetApps() {
  hearth::compat::detail::AppRegistry& registry = hearth::compat::detail::Apps();
  std::lock_guard<std::mutex> lock(registry.mutex);
  std::vector<App*> apps;
  for (const auto& entry : registry.apps) apps.push_back(entry.second);
  return apps;
}

}  // namespace firebase

#endif  // HEARTH_COMPAT_APP_IMPL_H
