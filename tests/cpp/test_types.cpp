// Types that need no emulator: AuthError values, the profile reader, AppOptions.
#include "harness.h"

#include <cstring>

using namespace hearth_test;
using hearth::detail::ParseProfile;
namespace auth = hearth::auth;

// The values are the Firebase C++ SDK's (auth/types.h), so error codes port unchanged.
static_assert(auth::kAuthErrorNone == 0, "");
static_assert(auth::kAuthErrorUnimplemented == -1, "");
static_assert(auth::kAuthErrorFailure == 1, "");
static_assert(auth::kAuthErrorInvalidCustomToken == 2, "");
static_assert(auth::kAuthErrorInvalidCredential == 4, "");
static_assert(auth::kAuthErrorEmailAlreadyInUse == 8, "");
static_assert(auth::kAuthErrorRequiresRecentLogin == 9, "");
static_assert(auth::kAuthErrorCredentialAlreadyInUse == 10, "");
static_assert(auth::kAuthErrorInvalidEmail == 11, "");
static_assert(auth::kAuthErrorWrongPassword == 12, "");
static_assert(auth::kAuthErrorUserNotFound == 14, "");
static_assert(auth::kAuthErrorProviderAlreadyLinked == 15, "");
static_assert(auth::kAuthErrorNetworkRequestFailed == 19, "");
static_assert(auth::kAuthErrorWeakPassword == 23, "");
static_assert(auth::kAuthErrorNoSignedInUser == 24, "");
static_assert(auth::kAuthErrorMissingEmail == 37, "");
static_assert(auth::kAuthErrorCancelled == 58, "");
static_assert(auth::kAuthErrorWebStorateUnsupported == 61, "");
static_assert(auth::kAuthErrorEmailChangeNeedsVerification == 78, "");
static_assert(auth::kAuthErrorInvalidArgument == 1000, "");
static_assert(auth::kAuthErrorPersistenceFailure == 1007, "");
static_assert(hearth::kFutureStatusComplete == 0 && hearth::kFutureStatusPending == 1 &&
                  hearth::kFutureStatusInvalid == 2,
              "");

HEARTH_TEST(testAuthErrorsHaveNamesAndMessages) {
  CHECK_EQ(std::string(auth::AuthErrorName(auth::kAuthErrorWrongPassword)), std::string("HEARTH_ERROR_WRONG_PASSWORD"));
  CHECK_EQ(std::string(auth::AuthErrorName(auth::kAuthErrorCredentialAlreadyInUse)),
           std::string("HEARTH_ERROR_CREDENTIAL_ALREADY_IN_USE"));
  CHECK_EQ(std::string(auth::AuthErrorName(auth::kAuthErrorTimedOut)), std::string("HEARTH_ERROR_TIMED_OUT"));
  CHECK_EQ(std::string(auth::AuthErrorName(123456)), std::string("HEARTH_ERROR_UNKNOWN"));
  const char* message = auth::AuthErrorMessage(auth::kAuthErrorNetworkRequestFailed);
  REQUIRE(message != nullptr);
  CHECK(std::strlen(message) > 0);
  CHECK(auth::AuthErrorMessage(-5000) != nullptr);
}

HEARTH_TEST(testProfileReaderKeepsTopLevelFields) {
  const std::map<std::string, std::string> profile = ParseProfile(
      " { \"login\" : \"octocat\", \"id\": 1234, \"site_admin\": false, \"blog\": null, \"score\": -1.5e3,"
      " \"plan\": {\"name\": \"pro\", \"space\": [1, {\"x\": \"}\"}]}, \"tags\": [\"a\", \"b]\"],"
      " \"quote\": \"say \\\"hi\\\"\\n\\ttab\\\\\", \"slash\": \"a\\/b\", \"accent\": \"caf\\u00e9\","
      " \"emoji\": \"\\ud83d\\ude00\", \"raw\": \"\xc3\xa9t\xc3\xa9\" } ");
  auto field = [&profile](const char* key) {
    auto it = profile.find(key);
    return it == profile.end() ? std::string("<missing>") : it->second;
  };
  CHECK_EQ(profile.size(), size_t{12});
  CHECK_EQ(field("login"), std::string("octocat"));
  CHECK_EQ(field("id"), std::string("1234"));
  CHECK_EQ(field("site_admin"), std::string("false"));
  CHECK_EQ(field("blog"), std::string("null"));
  CHECK_EQ(field("score"), std::string("-1.5e3"));
  CHECK_EQ(field("plan"), std::string("{\"name\": \"pro\", \"space\": [1, {\"x\": \"}\"}]}"));
  CHECK_EQ(field("tags"), std::string("[\"a\", \"b]\"]"));
  CHECK_EQ(field("quote"), std::string("say \"hi\"\n\ttab\\"));
  CHECK_EQ(field("slash"), std::string("a/b"));
  CHECK_EQ(field("accent"), std::string("caf\xc3\xa9"));
  CHECK_EQ(field("emoji"), std::string("\xf0\x9f\x98\x80"));
  CHECK_EQ(field("raw"), std::string("\xc3\xa9t\xc3\xa9"));
  CHECK(ParseProfile("{}").empty());
  CHECK_EQ(ParseProfile("{\"a\":1,\"a\":2}").at("a"), std::string("2"));
}

HEARTH_TEST(testProfileReaderRejectsMalformedJsonWithoutCrashing) {
  const char* malformed[] = {
      "",
      "   ",
      "{",
      "}",
      "[]",
      "\"text\"",
      "{\"a\"}",
      "{\"a\":}",
      "{\"a\":1,}",
      "{,\"a\":1}",
      "{\"a\":1 \"b\":2}",
      "{\"a\":1} trailing",
      "{a:1}",
      "{\"a\":\"unterminated}",
      "{\"a\":\"bad escape \\q\"}",
      "{\"a\":\"short \\u12\"}",
      "{\"a\":\"lone high \\ud800\"}",
      "{\"a\":\"lone low \\udc00\"}",
      "{\"a\":\"high then text \\ud800x\"}",
      "{\"a\":\"control \x01 char\"}",
      "{\"a\":[1,2}",
      "{\"a\":{\"b\":1]}",
      "{\"a\":[[[[[",
      "{\"a\":@}",
      "{\"a\":\"x\\",
  };
  for (const char* text : malformed) {
    if (!ParseProfile(text).empty()) RecordFailure(__FILE__, __LINE__, std::string("accepted: ") + text);
  }
  // Deep nesting is walked without recursion.
  std::string deep = "{\"a\":";
  deep.append(200000, '[');
  deep.append(200000, ']');
  deep += "}";
  CHECK_EQ(ParseProfile(deep).size(), size_t{1});
  std::string unbalanced = "{\"a\":";
  unbalanced.append(200000, '[');
  CHECK(ParseProfile(unbalanced).empty());
}

HEARTH_TEST(testAppOptionsKeepTheirValues) {
  hearth::AppOptions options;
  CHECK_EQ(std::string(options.api_key()), std::string());
  CHECK_EQ(options.persistence(), hearth::kPersistenceFile);
  CHECK(options.loop() == nullptr);
  CHECK_EQ(options.request_timeout_ms(), int64_t{0});
  options.set_api_key("key");
  options.set_app_id("1:2:web:3");
  options.set_project_id("project");
  options.set_auth_domain("project.firebaseapp.com");
  options.set_app_name("name");
  options.set_persistence_dir("/tmp/x");
  options.set_request_timeout_ms(1234);
  options.set_ca_bundle_path("/etc/ssl/certs/ca-certificates.crt");
  CHECK_EQ(std::string(options.api_key()), std::string("key"));
  CHECK_EQ(std::string(options.app_id()), std::string("1:2:web:3"));
  CHECK_EQ(std::string(options.project_id()), std::string("project"));
  CHECK_EQ(std::string(options.auth_domain()), std::string("project.firebaseapp.com"));
  CHECK_EQ(std::string(options.app_name()), std::string("name"));
  CHECK_EQ(std::string(options.persistence_dir()), std::string("/tmp/x"));
  CHECK_EQ(options.request_timeout_ms(), int64_t{1234});
  CHECK_EQ(std::string(options.ca_bundle_path()), std::string("/etc/ssl/certs/ca-certificates.crt"));
  options.set_api_key(nullptr);
  CHECK_EQ(std::string(options.api_key()), std::string());
  struct NullStorage : hearth::SessionStorage {
    bool Load(const std::string&, std::string*) override { return true; }
    bool Save(const std::string&, const std::string&) override { return true; }
    bool Erase(const std::string&) override { return true; }
  } storage;
  options.set_session_storage(&storage);
  CHECK_EQ(options.persistence(), hearth::kPersistenceCallbacks);
  CHECK(options.session_storage() == &storage);
  options.set_session_storage(nullptr);
  CHECK_EQ(options.persistence(), hearth::kPersistenceNone);
}

HEARTH_TEST(testEmulatorIsConfigured) {
  // The suite is meant to run against an emulator; without one it must fail, not pass vacuously.
  const EmulatorAddress address = RequireEmulator();
  CHECK(!address.host.empty());
  const HttpResponse root = EmulatorRequest("GET", "/");
  CHECK_EQ(root.status, 200);
}
