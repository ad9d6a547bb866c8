// Identity Platform tenants through hearth::auth::Auth (Firebase's Auth.tenantId, which the C++ SDK lacks):
// signing in to a tenant, one tenant per user, each tenant's settings, and a saved session's tenant.
#include "harness.h"

#include <cstdlib>

using hearth::Future;
using hearth::auth::AuthResult;
using hearth::auth::User;
using namespace hearth_test;

namespace {

const char* const kAllOn =
    "\"allowPasswordSignup\":true,\"enableEmailLinkSignin\":true,\"enableAnonymousUser\":true,"
    "\"mfaConfig\":{\"state\":\"ENABLED\",\"enabledProviders\":[\"PHONE_SMS\"]}";

// The value of a top-level string member of a JSON text ("" when absent); enough for the emulator's answers.
std::string JsonString(const std::string& json, const std::string& key) {
  const std::string needle = "\"" + key + "\":\"";
  const size_t start = json.find(needle);
  if (start == std::string::npos) return "";
  const size_t from = start + needle.size();
  const size_t end = json.find('"', from);
  return end == std::string::npos ? "" : json.substr(from, end - from);
}

// A new tenant of the project with these settings (JSON members); its id.
std::string NewTenant(const std::string& settings) {
  const HttpResponse response =
      EmulatorRequest("POST", "/identitytoolkit.googleapis.com/v2/projects/" + ProjectId() + "/tenants", "{" + settings + "}");
  REQUIRE_EQ(response.status, 200);
  const std::string tenant_id = JsonString(response.body, "tenantId");
  REQUIRE(!tenant_id.empty());
  return tenant_id;
}

// The emulator's record of `uid` in the tenant's scope ("" tenant: the project's); "" when it has none.
std::string AccountIn(const std::string& tenant_id, const std::string& uid) {
  const std::string scope = tenant_id.empty() ? "" : "/tenants/" + tenant_id;
  const HttpResponse response = EmulatorRequest(
      "POST", "/identitytoolkit.googleapis.com/v1/projects/" + ProjectId() + scope + "/accounts:lookup",
      "{\"localId\":[\"" + uid + "\"]}");
  REQUIRE_EQ(response.status, 200);
  return response.body.find("\"users\"") == std::string::npos ? "" : response.body;
}

std::string TokenTenant(const User& user) {
  Future<std::string> token = user.GetToken(false);
  REQUIRE(WaitForCompletion(token, "GetToken"));
  const std::string payload = JwtPayload(*token.result());
  const size_t firebase = payload.find("\"firebase\"");
  return firebase == std::string::npos ? "" : JsonString(payload.substr(firebase), "tenant");
}

}  // namespace

HEARTH_EMULATOR_TEST(testAUserSignedUpInATenantBelongsToItAndToNoOtherScope) {
  const std::string tenant_id = NewTenant(kAllOn);
  TestApp fixture;
  hearth::auth::Auth* auth = fixture.auth();
  CHECK_EQ(auth->tenant_id(), std::string());
  REQUIRE_EQ(auth->set_tenant_id(tenant_id.c_str()), hearth::auth::kAuthErrorNone);
  CHECK_EQ(auth->tenant_id(), tenant_id);

  const std::string email = NewEmail("cpp-tenant");
  const User user = CreateUser(auth, email);
  CHECK_EQ(user.tenant_id(), tenant_id);
  CHECK_EQ(auth->current_user().tenant_id(), tenant_id);
  CHECK_EQ(TokenTenant(user), tenant_id);
  const std::string record = AccountIn(tenant_id, user.uid());
  CHECK(record.find(email) != std::string::npos);
  CHECK_EQ(AccountIn("", user.uid()), std::string());

  // Signing in again finds it only in its tenant.
  auth->SignOut();
  CHECK_EQ(SignIn(auth, email).uid(), user.uid());
  auth->SignOut();
  CHECK_EQ(auth->set_tenant_id(nullptr), hearth::auth::kAuthErrorNone);
  CHECK(WaitForCompletion(auth->SignInWithEmailAndPassword(email.c_str(), kTestPassword), "SignIn",
                          hearth::auth::kAuthErrorUserNotFound));
}

HEARTH_EMULATOR_TEST(testAnonymousAndCredentialSignInsLandInTheTenant) {
  const std::string tenant_id = NewTenant(kAllOn);
  TestApp fixture;
  hearth::auth::Auth* auth = fixture.auth();
  REQUIRE_EQ(auth->set_tenant_id(tenant_id.c_str()), hearth::auth::kAuthErrorNone);
  const User anonymous = SignInAnonymously(auth);
  CHECK_EQ(anonymous.tenant_id(), tenant_id);
  CHECK(!AccountIn(tenant_id, anonymous.uid()).empty());
  auth->SignOut();

  const std::string claims = "{\"sub\":\"cpp-google-tenant\",\"email\":\"" + NewEmail("cpp-google") + "\"}";
  Future<AuthResult> google = auth->SignInAndRetrieveDataWithCredential(
      hearth::auth::GoogleAuthProvider::GetCredential(claims.c_str(), nullptr));
  REQUIRE(WaitForCompletion(google, "SignInAndRetrieveDataWithCredential"));
  CHECK_EQ(google.result()->user.tenant_id(), tenant_id);
  CHECK(!AccountIn(tenant_id, google.result()->user.uid()).empty());
}

HEARTH_EMULATOR_TEST(testASignInLinkSignsInToItsTenantAndAnotherTenantsAuthRefusesIt) {
  const std::string tenant_id = NewTenant(kAllOn);
  TestApp fixture("cpp-tenant-link");
  hearth::auth::Auth* auth = fixture.auth();
  REQUIRE_EQ(auth->set_tenant_id(tenant_id.c_str()), hearth::auth::kAuthErrorNone);
  const std::string email = NewEmail("cpp-tenant-link");
  hearth::auth::ActionCodeSettings settings;
  settings.url = "com.example.hearth-tenants:/finishSignIn";
  settings.handle_code_in_app = true;
  REQUIRE(WaitForCompletion(auth->SendSignInLinkToEmail(email.c_str(), settings), "SendSignInLinkToEmail"));
  const HttpResponse codes =
      EmulatorRequest("GET", "/emulator/v1/projects/" + ProjectId() + "/tenants/" + tenant_id + "/oobCodes");
  REQUIRE_EQ(codes.status, 200);
  // The tenant's one code: the link just mailed.
  const std::string link = JsonString(codes.body, "oobLink");
  REQUIRE(link.find("tenantId=" + tenant_id) != std::string::npos);

  TestApp other("cpp-tenant-link-other");
  REQUIRE_EQ(other.auth()->set_tenant_id(NewTenant(kAllOn).c_str()), hearth::auth::kAuthErrorNone);
  CHECK(WaitForCompletion(other.auth()->SignInWithEmailLink(email.c_str(), link.c_str()), "SignInWithEmailLink",
                          hearth::auth::kAuthErrorTenantIdMismatch));
  Future<AuthResult> signed_in = auth->SignInWithEmailLink(email.c_str(), link.c_str());
  REQUIRE(WaitForCompletion(signed_in, "SignInWithEmailLink"));
  CHECK_EQ(signed_in.result()->user.tenant_id(), tenant_id);
  CHECK_EQ(signed_in.result()->user.email(), email);
}

HEARTH_EMULATOR_TEST(testAUsersRequestsNamingAnotherTenantFailWithTenantIdMismatch) {
  const std::string tenant_a = NewTenant(kAllOn);
  TestApp fixture;
  hearth::auth::Auth* auth = fixture.auth();
  REQUIRE_EQ(auth->set_tenant_id(tenant_a.c_str()), hearth::auth::kAuthErrorNone);
  const User user = CreateUser(auth, NewEmail("cpp-in-a"));
  REQUIRE_EQ(auth->set_tenant_id(NewTenant(kAllOn).c_str()), hearth::auth::kAuthErrorNone);
  CHECK_EQ(auth->current_user().uid(), user.uid());

  Future<AuthResult> link = user.LinkWithCredential(
      hearth::auth::GoogleAuthProvider::GetCredential("{\"sub\":\"cpp-link-b\"}", nullptr));
  CHECK(WaitForCompletion(link, "LinkWithCredential", hearth::auth::kAuthErrorTenantIdMismatch));
  CHECK(!std::string(link.error_message()).empty());
  CHECK(WaitForCompletion(user.SendEmailVerification(), "SendEmailVerification",
                          hearth::auth::kAuthErrorTenantIdMismatch));
  CHECK_EQ(auth->current_user().tenant_id(), tenant_a);
}

HEARTH_EMULATOR_TEST(testUpdateCurrentUserTakesOverAUserOfItsTenantOnly) {
  const std::string tenant_a = NewTenant(kAllOn);
  TestApp source("cpp-tenant-source");
  REQUIRE_EQ(source.auth()->set_tenant_id(tenant_a.c_str()), hearth::auth::kAuthErrorNone);
  const User user = CreateUser(source.auth(), NewEmail("cpp-taken"));

  TestApp other("cpp-tenant-other");
  REQUIRE_EQ(other.auth()->set_tenant_id(NewTenant(kAllOn).c_str()), hearth::auth::kAuthErrorNone);
  Future<void> refused = other.auth()->UpdateCurrentUser(user);
  CHECK(WaitForCompletion(refused, "UpdateCurrentUser", hearth::auth::kAuthErrorTenantIdMismatch));
  CHECK(std::string(refused.error_message()).find(tenant_a) != std::string::npos);
  CHECK(!other.auth()->current_user().is_valid());

  TestApp same("cpp-tenant-same");
  REQUIRE_EQ(same.auth()->set_tenant_id(tenant_a.c_str()), hearth::auth::kAuthErrorNone);
  REQUIRE(WaitForCompletion(same.auth()->UpdateCurrentUser(user), "UpdateCurrentUser"));
  CHECK_EQ(same.auth()->UpdateCurrentUserLastResult().status(), hearth::kFutureStatusComplete);
  CHECK_EQ(same.auth()->current_user().uid(), user.uid());
  CHECK_EQ(same.auth()->current_user().tenant_id(), tenant_a);
  CHECK_EQ(TokenTenant(same.auth()->current_user()), tenant_a);

  // An invalid User fails the future instead of crashing.
  CHECK(WaitForCompletion(same.auth()->UpdateCurrentUser(User()), "UpdateCurrentUser",
                          hearth::auth::kAuthErrorInvalidArgument));
}

HEARTH_EMULATOR_TEST(testSignInMethodsATenantTurnedOffFailWithTheServersError) {
  TestApp fixture;
  hearth::auth::Auth* auth = fixture.auth();
  REQUIRE_EQ(auth->set_tenant_id(NewTenant("\"allowPasswordSignup\":true").c_str()), hearth::auth::kAuthErrorNone);
  CHECK(WaitForCompletion(auth->SignInAnonymously(), "SignInAnonymously",
                          hearth::auth::kAuthErrorAdminRestrictedOperation));
  REQUIRE_EQ(auth->set_tenant_id(NewTenant("\"enableAnonymousUser\":true").c_str()), hearth::auth::kAuthErrorNone);
  CHECK(WaitForCompletion(auth->CreateUserWithEmailAndPassword(NewEmail("cpp-off").c_str(), kTestPassword),
                          "CreateUserWithEmailAndPassword", hearth::auth::kAuthErrorOperationNotAllowed));
  CHECK(!auth->current_user().is_valid());
}

HEARTH_EMULATOR_TEST(testASavedSessionComesBackWithItsTenant) {
  char dir_template[] = "/tmp/hearth-cpp-tenant-XXXXXX";
  REQUIRE(mkdtemp(dir_template) != nullptr);
  const std::string dir = dir_template;
  const std::string tenant_id = NewTenant(kAllOn);
  const auto saved = [&dir](hearth::AppOptions& options) {
    options.set_persistence(hearth::kPersistenceFile);
    options.set_persistence_dir(dir.c_str());
  };
  std::string uid;
  {
    TestApp first("cpp-tenant-saved", saved);
    REQUIRE_EQ(first.auth()->set_tenant_id(tenant_id.c_str()), hearth::auth::kAuthErrorNone);
    uid = CreateUser(first.auth(), NewEmail("cpp-saved")).uid();
  }
  {
    TestApp second("cpp-tenant-saved", saved);
    const User restored = second.auth()->current_user();
    REQUIRE(restored.is_valid());
    CHECK_EQ(restored.uid(), uid);
    CHECK_EQ(restored.tenant_id(), tenant_id);
    CHECK_EQ(second.auth()->tenant_id(), tenant_id);
    second.auth()->SignOut();
  }
  std::system(("rm -rf '" + dir + "'").c_str());
}

HEARTH_EMULATOR_TEST(testEmptyAndInvalidTenantIdsAreRefusedAndLeaveTheTenant) {
  TestApp fixture;
  hearth::auth::Auth* auth = fixture.auth();
  REQUIRE_EQ(auth->set_tenant_id("cpp-kept"), hearth::auth::kAuthErrorNone);
  CHECK_EQ(auth->set_tenant_id(""), hearth::auth::kAuthErrorInvalidArgument);
  CHECK(hearth::LastErrorMessage().find("empty") != std::string::npos);
  CHECK_EQ(auth->set_tenant_id("bad-\xff\xfe"), hearth::auth::kAuthErrorInvalidArgument);
  CHECK(hearth::LastErrorMessage().find("UTF-8") != std::string::npos);
  CHECK_EQ(auth->tenant_id(), std::string("cpp-kept"));
}
