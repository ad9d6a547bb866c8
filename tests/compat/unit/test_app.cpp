// firebase::App and AppOptions (google-services.json, defaults, names), the log level, ModuleInitializer,
// CheckCompilerString.
#include <csignal>
#include <cstring>
#include <memory>

#include "compat_support.h"

using firebase::App;
using firebase::AppOptions;
using namespace compat_test;
using namespace hearth_test;

namespace {

// google-services.json with a non-Android client first, as multi-platform projects have them.
std::string TwoClientConfig() {
  return R"({
    "project_info": {"project_number": "42", "firebase_url": "https://p.firebaseio.com", "project_id": "p",
                     "storage_bucket": "p.appspot.com", "unknown_field": {"ignored": [1, 2]}},
    "client": [
      {"client_info": {"mobilesdk_app_id": "1:42:ios:aaa"}, "api_key": [{"current_key": "ios-key"}]},
      {"client_info": {"mobilesdk_app_id": "1:42:android:bbb", "android_client_info": {"package_name": "com.x"}},
       "oauth_client": [{"client_id": "c.apps.googleusercontent.com", "client_type": 3}],
       "api_key": [{}, {"current_key": "android-key"}],
       "services": {"analytics_service": {"status": 2, "analytics_property": {"tracking_id": "UA-42-1"}},
                    "appinvite_service": {"status": 1}}}
    ],
    "configuration_version": "1"
  })";
}

}  // namespace

HEARTH_TEST(testLoadFromJsonConfigReadsTheAndroidClient) {
  firebase::SetLogLevel(firebase::kLogLevelError);
  std::unique_ptr<AppOptions> options(AppOptions::LoadFromJsonConfig(TwoClientConfig().c_str()));
  REQUIRE(options != nullptr);
  CHECK_EQ(std::string(options->project_id()), std::string("p"));
  CHECK_EQ(std::string(options->messaging_sender_id()), std::string("42"));
  CHECK_EQ(std::string(options->database_url()), std::string("https://p.firebaseio.com"));
  CHECK_EQ(std::string(options->storage_bucket()), std::string("p.appspot.com"));
  CHECK_EQ(std::string(options->app_id()), std::string("1:42:android:bbb"));
  CHECK_EQ(std::string(options->api_key()), std::string("android-key"));  // the first entry with a current key
  CHECK_EQ(std::string(options->ga_tracking_id()), std::string("UA-42-1"));
  // Into options the caller owns: the same object comes back.
  AppOptions mine;
  mine.set_app_id("kept?");
  CHECK(AppOptions::LoadFromJsonConfig(TwoClientConfig().c_str(), &mine) == &mine);
  CHECK_EQ(std::string(mine.app_id()), std::string("1:42:android:bbb"));
}

HEARTH_TEST(testLoadFromJsonConfigRefusesWhatTheSdkRefuses) {
  firebase::SetLogLevel(firebase::kLogLevelError);
  const char* refused[] = {
      "",                                                  // not JSON
      "{\"project_info\": {}",                             // truncated
      "[1, 2]",                                            // not an object
      "{\"client\": []}",                                  // no project_info
      "{\"project_info\": {\"project_id\": \"p\"}}",       // no client
      "{\"project_info\": {\"project_id\": \"p\"}, \"client\": [{\"client_info\": {\"mobilesdk_app_id\": \"x\"}}]}",
      "{\"project_info\": {\"project_id\": 7}, \"client\": []}",                 // wrong type
      "{\"project_info\": [], \"client\": []}",                                   // wrong type
      "{\"project_info\": {}, \"client\": {}}",                                   // not an array
      "{\"project_info\": {}, \"client\": [{\"oauth_client\": [{\"client_type\": \"web\"}]}]}",
      "{\"project_info\": {\"project_id\": \"\xff\"}, \"client\": []}",           // invalid UTF-8
  };
  for (const char* text : refused) {
    std::string output;
    AppOptions* options = nullptr;
    output = CaptureStdout([&] { options = AppOptions::LoadFromJsonConfig(text); });
    if (options != nullptr) {
      RecordFailure(__FILE__, __LINE__, std::string("accepted: ") + text);
      delete options;
    }
    CHECK(output.find("ERROR: ") != std::string::npos);
  }
  CHECK(AppOptions::LoadFromJsonConfig(nullptr) == nullptr);
  // null reads as absent, and unknown fields are skipped.
  std::unique_ptr<AppOptions> lenient(AppOptions::LoadFromJsonConfig(
      "{\"project_info\": {\"project_id\": null, \"new\": 1}, \"client\": [{\"client_info\": {\"mobilesdk_app_id\": "
      "\"a\", \"android_client_info\": {\"package_name\": \"p\"}}, \"extra\": true}]}"));
  CHECK(lenient != nullptr);
}

HEARTH_TEST(testMissingFieldsAreWarnedAbout) {
  firebase::SetLogLevel(firebase::kLogLevelWarning);
  AppOptions* options = nullptr;
  const std::string output = CaptureStdout([&] {
    options = AppOptions::LoadFromJsonConfig(
        "{\"project_info\": {\"project_id\": \"p\"}, \"client\": [{\"client_info\": {\"mobilesdk_app_id\": \"a\","
        " \"android_client_info\": {\"package_name\": \"p\"}}}]}");
  });
  delete options;
  CHECK(output.find("WARNING: Database URL not set in the Firebase config.") != std::string::npos);
  CHECK(output.find("WARNING: API key not set in the Firebase config.") != std::string::npos);
  CHECK(output.find("Project ID not set") == std::string::npos);
  firebase::SetLogLevel(firebase::kLogLevelError);
  const std::string quiet = CaptureStdout([&] {
    delete AppOptions::LoadFromJsonConfig("{\"project_info\": {}, \"client\": [{\"client_info\": "
                                          "{\"android_client_info\": {\"package_name\": \"p\"}}}]}");
  });
  CHECK(quiet.find("WARNING") == std::string::npos);
}

HEARTH_EMULATOR_TEST(testCreateWithoutOptionsReadsTheConfigurationInTheWorkingDirectory) {
  RequireEmulator();
  firebase::SetLogLevel(firebase::kLogLevelError);
  hearth::compat::SetDefaultHearthOptions(EmulatorOptions());
  ScopedWorkingDirectory directory;
  // Nothing there: no app.
  std::string output = CaptureStdout([] { CHECK(App::Create() == nullptr); });
  CHECK(output.find("google-services-desktop.json, google-services.json") != std::string::npos);
  CHECK(App::GetInstance() == nullptr);

  directory.Write("google-services.json", GoogleServicesJson("from-google-services"));
  directory.Write("google-services-desktop.json", GoogleServicesJson("from-desktop"));
  App* app = App::Create();
  REQUIRE(app != nullptr);
  CHECK_EQ(std::string(app->options().api_key()), std::string("from-desktop"));  // the desktop file first
  CHECK_EQ(std::string(app->name()), std::string("[DEFAULT]"));
  firebase::auth::Auth* auth = firebase::auth::Auth::GetAuth(app);
  CHECK(WaitFor(auth->SignInAnonymously(), "SignInAnonymously with the file's options"));
  delete auth;
  delete app;

  // A malformed desktop file: the next one is read.
  directory.Write("google-services-desktop.json", "{ not json");
  app = App::Create();
  REQUIRE(app != nullptr);
  CHECK_EQ(std::string(app->options().api_key()), std::string("from-google-services"));
  delete app;
}

HEARTH_EMULATOR_TEST(testCreateFillsMissingRequiredOptionsFromTheConfiguration) {
  RequireEmulator();
  firebase::SetLogLevel(firebase::kLogLevelError);
  hearth::compat::SetDefaultHearthOptions(EmulatorOptions());
  ScopedWorkingDirectory directory;
  AppOptions partial;
  partial.set_api_key("given-key");
  // No file to fill the app id and project id from: refused, as the SDK does.
  const std::string output = CaptureStdout([&] { CHECK(App::Create(partial, "partial") == nullptr); });
  CHECK(output.find("ERROR: App ID, API key, and Project ID must be specified in App options.") != std::string::npos);
  directory.Write("google-services.json", GoogleServicesJson("file-key"));
  App* app = App::Create(partial, "partial");
  REQUIRE(app != nullptr);
  CHECK_EQ(std::string(app->options().api_key()), std::string("given-key"));
  CHECK_EQ(std::string(app->options().project_id()), ProjectId());
  CHECK_EQ(std::string(app->options().app_id()), std::string("1:1234567890:android:abc"));
  delete app;
}

HEARTH_EMULATOR_TEST(testAppsByName) {
  CompatApp first;
  CompatApp second("second");
  CHECK(App::GetInstance() == first.app());
  CHECK(App::GetInstance("second") == second.app());
  CHECK(App::GetInstance("third") == nullptr);
  const std::vector<App*> apps = App::GetApps();
  CHECK_EQ(apps.size(), 2u);
  // A taken name gives the live app back, whose options stay.
  AppOptions other = Options();
  other.set_api_key("another-key");
  std::string output = CaptureStdout([&] { CHECK(App::Create(other, "second") == second.app()); });
  CHECK(output.find("ERROR: App second already created, options will not be applied.") != std::string::npos);
  CHECK_EQ(std::string(second.app()->options().api_key()), std::string("fake-api-key"));
  CHECK(App::Create(Options(), nullptr) == first.app());
  second.DeleteAuth();
  second.DeleteApp();
  CHECK(App::GetInstance("second") == nullptr);
  CHECK_EQ(App::GetApps().size(), 1u);
}

HEARTH_EMULATOR_TEST(testTheLogLevelFiltersHearthsMessagesPrintedToStdout) {
  CompatApp fixture;
  firebase::SetLogLevel(firebase::kLogLevelVerbose);
  CHECK_EQ(firebase::GetLogLevel(), firebase::kLogLevelVerbose);
  std::string output = CaptureStdout([&] { WaitFor(fixture.auth()->SignInAnonymously(), "sign in (verbose)"); });
  CHECK(output.find("DEBUG: ") != std::string::npos);  // Hearth's request lines
  CHECK(output.find("INFO: ") != std::string::npos);
  CHECK(output.find("fake-api-key") == std::string::npos);  // never the key
  firebase::SetLogLevel(firebase::kLogLevelWarning);
  output = CaptureStdout([&] {
    WaitFor(fixture.auth()->SignInAnonymously(), "sign in (warning)");
    WaitFor(fixture.auth()->SignInWithEmailAndPassword("nobody@example.com", "password-1"), "failing sign in",
            firebase::auth::kAuthErrorUserNotFound);
  });
  CHECK(output.find("DEBUG: ") == std::string::npos && output.find("INFO: ") == std::string::npos);
  CHECK(output.find("WARNING: ") != std::string::npos);
  firebase::SetLogLevel(firebase::kLogLevelAssert);
  output = CaptureStdout([&] {
    WaitFor(fixture.auth()->SignInWithEmailAndPassword("nobody@example.com", "password-1"), "failing sign in",
            firebase::auth::kAuthErrorUserNotFound);
  });
  CHECK(output.empty());
  firebase::SetLogLevel(firebase::kLogLevelError);
}

HEARTH_EMULATOR_TEST(testModuleInitializerRunsEachInitializerAndReportsWhatDidNotSucceed) {
  CompatApp fixture;
  static int calls;
  calls = 0;
  const firebase::ModuleInitializer::InitializerFn ok = [](App*, void* context) {
    ++calls;
    CHECK_EQ(context, reinterpret_cast<void*>(&calls));
    return firebase::kInitResultSuccess;
  };
  const firebase::ModuleInitializer::InitializerFn missing = [](App*, void*) {
    ++calls;
    return firebase::kInitResultFailedMissingDependency;
  };
  firebase::ModuleInitializer succeeding;
  const firebase::ModuleInitializer::InitializerFn both[] = {ok, ok};
  firebase::Future<void> done = succeeding.Initialize(fixture.app(), &calls, both, 2);
  CHECK(done.status() == firebase::kFutureStatusComplete && done.error() == 0 && calls == 2);
  CHECK(done == succeeding.InitializeLastResult());
  // Asked again while its Future is held: nothing runs again.
  CHECK(succeeding.Initialize(fixture.app(), &calls, ok) == done && calls == 2);

  firebase::ModuleInitializer failing;
  const firebase::ModuleInitializer::InitializerFn three[] = {ok, missing, ok};
  firebase::Future<void> failed = failing.Initialize(fixture.app(), &calls, three, 3);
  CHECK_EQ(failed.status(), firebase::kFutureStatusComplete);
  CHECK_EQ(failed.error(), 2);  // the failing initializer and the one after it
  CHECK(std::strlen(failed.error_message()) > 0);
  CHECK_EQ(calls, 4);
  // Complete from the start: a callback runs at once, on this thread.
  bool called = false;
  failed.OnCompletion([&called](const firebase::Future<void>& future) { called = future.error() == 2; });
  CHECK(called);
  firebase::ModuleInitializer without_app;
  CHECK(without_app.Initialize(nullptr, nullptr, ok).error() != 0);
}

HEARTH_TEST(testCheckCompilerString) {
  firebase::CheckCompilerString(FIREBASE_LINUX_BUILD_CONFIG_STRING);  // returns
  const ChildOutcome outcome = RunInChild([] { firebase::CheckCompilerString("some_other_toolchain"); });
  CHECK_EQ(outcome.signal, SIGABRT);
  CHECK(outcome.out.find("ASSERT: ") != std::string::npos && outcome.out.find("some_other_toolchain") != std::string::npos);
}
