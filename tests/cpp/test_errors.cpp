// What C++ code can read about a call that failed at once (hearth::LastErrorCode / LastErrorMessage),
// and the version as a number: the same scenarios as tests/c/test_errors.c.
#include "harness.h"

#include <thread>

using hearth::App;
using hearth::AppOptions;
using hearth::auth::AppleAuthProvider;
using hearth::auth::Credential;
using hearth::auth::EmailAuthProvider;
using hearth::auth::GitHubAuthProvider;
using hearth::auth::TwitterAuthProvider;
using namespace hearth_test;

namespace {

bool StartsWith(const std::string& text, const std::string& prefix) { return text.compare(0, prefix.size(), prefix) == 0; }
bool Contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

HEARTH_TEST(testAppCreateNamesTheWrongOptionInTheLastError) {
  AppOptions no_key;
  no_key.set_persistence(hearth::kPersistenceNone);
  int error = 0;
  CHECK(App::Create(no_key, "errors-no-key", &error) == nullptr);
  CHECK_EQ(error, static_cast<int>(hearth::auth::kAuthErrorInvalidArgument));
  CHECK_EQ(hearth::LastErrorCode(), static_cast<int>(hearth::auth::kAuthErrorInvalidArgument));
  CHECK(StartsWith(hearth::LastErrorMessage(), "hearth_app_create: options.api_key is empty"));

  AppOptions bad_timeout;
  bad_timeout.set_api_key("key");
  bad_timeout.set_persistence(hearth::kPersistenceNone);
  bad_timeout.set_request_timeout_ms(-5);
  CHECK(App::Create(bad_timeout, "errors-timeout", &error) == nullptr);
  CHECK(Contains(hearth::LastErrorMessage(), "request_timeout_ms is -5"));

  AppOptions bad_bundle;
  bad_bundle.set_api_key("key");
  bad_bundle.set_persistence(hearth::kPersistenceNone);
  bad_bundle.set_ca_bundle_path("/nonexistent/ca.pem");
  CHECK(App::Create(bad_bundle, "errors-bundle", &error) == nullptr);
  CHECK(StartsWith(hearth::LastErrorMessage(), "hearth_app_create: options.ca_bundle_path"));

  // The wrapper's own refusal reads the same way.
  AppOptions good;
  good.set_api_key("key");
  good.set_persistence(hearth::kPersistenceNone);
  App* first = App::Create(good, "errors-twice");
  REQUIRE(first != nullptr);
  CHECK(App::Create(good, "errors-twice", &error) == nullptr);
  CHECK_EQ(error, static_cast<int>(hearth::auth::kAuthErrorInvalidArgument));
  CHECK_EQ(hearth::LastErrorMessage(), std::string("App::Create: an app named \"errors-twice\" exists already."));
  delete first;
}

HEARTH_TEST(testInvalidCredentialsSayWhichArgumentWasRefused) {
  CHECK(!EmailAuthProvider::GetCredential(nullptr, "pw").is_valid());
  CHECK_EQ(hearth::LastErrorMessage(), std::string("hearth_credential_create_email: email must not be NULL."));
  CHECK(!TwitterAuthProvider::GetCredential("token", "\xff").is_valid());
  CHECK_EQ(hearth::LastErrorMessage(), std::string("hearth_credential_create_twitter: secret is not valid UTF-8."));
  CHECK(!AppleAuthProvider::GetCredential("id-token", nullptr).is_valid());
  CHECK_EQ(hearth::LastErrorMessage(), std::string("hearth_credential_create_apple: raw_nonce must not be NULL."));
  CHECK_EQ(hearth::LastErrorCode(), static_cast<int>(hearth::auth::kAuthErrorInvalidArgument));
  // A success leaves it; another thread has its own.
  CHECK(GitHubAuthProvider::GetCredential("token").is_valid());
  CHECK_EQ(hearth::LastErrorMessage(), std::string("hearth_credential_create_apple: raw_nonce must not be NULL."));
  std::string elsewhere = "unset";
  std::thread([&elsewhere] { elsewhere = hearth::LastErrorMessage(); }).join();
  CHECK_EQ(elsewhere, std::string());
}

HEARTH_EMULATOR_TEST(testAuthCallsReturningAnErrorRecordWhy) {
  TestApp fixture;
  hearth::auth::Auth* auth = fixture.auth();
  CHECK_EQ(auth->UseEmulator("127.0.0.1", 70000), hearth::auth::kAuthErrorInvalidArgument);
  CHECK_EQ(hearth::LastErrorMessage(), std::string("Auth::UseEmulator: port 70000 is above 65535."));
  CHECK_EQ(auth->UseEmulator("", 9099), hearth::auth::kAuthErrorInvalidArgument);
  CHECK_EQ(hearth::LastErrorMessage(), std::string("hearth_auth_use_emulator: host is empty."));
  hearth::auth::ProviderFlowOptions options;  // no open_url
  CHECK_EQ(auth->SetProviderFlowOptions(options), hearth::auth::kAuthErrorInvalidArgument);
  CHECK(Contains(hearth::LastErrorMessage(), "open_url is NULL"));
}

HEARTH_TEST(testTheVersionNumberMatchesTheHeader) {
  CHECK_EQ(hearth_version_number(), HEARTH_VERSION_NUMBER);
  CHECK_EQ(std::string(hearth_version()), std::to_string(HEARTH_VERSION_MAJOR) + "." + std::to_string(HEARTH_VERSION_MINOR) +
                                              "." + std::to_string(HEARTH_VERSION_PATCH));
}
