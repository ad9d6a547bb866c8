// Email actions through the C++ wrapper: sign-in links (Auth::SendSignInLinkToEmail, IsSignInWithEmailLink,
// SignInWithEmailLink, EmailAuthProvider::GetCredentialWithLink for sign-in, link and reauthentication)
// and the other out-of-band codes (ApplyActionCode, CheckActionCode, VerifyPasswordResetCode,
// ConfirmPasswordReset), with ActionCodeSettings on every mailed link. The C++ SDK has none of these;
// they follow Firebase's other SDKs. Links are read from the emulator's oobCodes route and followed
// through its action page as a browser would.
#include "harness.h"

using hearth::Future;
using hearth::auth::ActionCodeInfo;
using hearth::auth::ActionCodeSettings;
using hearth::auth::Auth;
using hearth::auth::AuthResult;
using hearth::auth::Credential;
using hearth::auth::EmailAuthProvider;
using hearth::auth::User;
using namespace hearth_test;

namespace {

constexpr const char* kAppUrl = "com.example.hearth-links:/finishSignIn";

ActionCodeSettings InAppSettings(const char* url = kAppUrl) {
  ActionCodeSettings settings;
  settings.url = url;
  settings.handle_code_in_app = true;
  return settings;
}

// The newest mailed code of `type` for `email` (its fields); REQUIREs one.
std::map<std::string, std::string> Mailed(const std::string& email, const std::string& type) {
  std::map<std::string, std::string> newest;
  for (const auto& code : OobCodes()) {
    auto address = code.find("email");
    auto kind = code.find("requestType");
    if (address != code.end() && kind != code.end() && address->second == email && kind->second == type) newest = code;
  }
  if (newest.empty()) RecordFailure(__FILE__, __LINE__, "no " + type + " code was mailed to " + email);
  REQUIRE(!newest.empty());
  return newest;
}

// The first value of a query parameter, percent-decoded ("" when absent).
std::string QueryParameter(const std::string& url, const std::string& name) {
  const size_t query = url.find('?');
  if (query == std::string::npos) return std::string();
  std::string rest = url.substr(query + 1);
  const size_t hash = rest.find('#');
  if (hash != std::string::npos) rest.resize(hash);
  size_t at = 0;
  while (at <= rest.size()) {
    size_t end = rest.find('&', at);
    if (end == std::string::npos) end = rest.size();
    const std::string pair = rest.substr(at, end - at);
    const size_t equals = pair.find('=');
    if (pair.substr(0, equals) == name && equals != std::string::npos) {
      std::string decoded;
      const std::string value = pair.substr(equals + 1);
      for (size_t i = 0; i < value.size(); ++i) {
        if (value[i] == '%' && i + 2 < value.size()) {
          decoded += static_cast<char>(std::stoi(value.substr(i + 1, 2), nullptr, 16));
          i += 2;
        } else {
          decoded += value[i];
        }
      }
      return decoded;
    }
    at = end + 1;
  }
  return std::string();
}

std::string PercentEncode(const std::string& text) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

// Mails a sign-in link that continues to `url`; the link in the mail.
std::string SendSignInLink(Auth* auth, const std::string& email, const char* url = kAppUrl) {
  REQUIRE(WaitForCompletion(auth->SendSignInLinkToEmail(email.c_str(), InAppSettings(url)), "SendSignInLinkToEmail"));
  return Mailed(email, "EMAIL_SIGNIN")["oobLink"];
}

// What the app receives when the user follows `link`: the action page's redirect to the continue URL.
std::string HandedToApp(const std::string& link) {
  const EmulatorAddress emulator = RequireEmulator();
  const std::string origin = "http://" + emulator.host + ":" + std::to_string(emulator.port);
  REQUIRE(link.compare(0, origin.size(), origin) == 0);
  const HttpResponse page = HttpRequest(emulator.host, emulator.port, "GET", link.substr(origin.size()));
  CHECK_EQ(page.status, 303);
  auto location = page.headers.find("location");
  REQUIRE(location != page.headers.end());
  return location->second;
}

// A copy: the Future passed in is often a temporary.
AuthResult SignedIn(const Future<AuthResult>& future, const char* what) {
  REQUIRE(WaitForCompletion(future, what));
  REQUIRE(future.result() != nullptr);
  REQUIRE(future.result()->user.is_valid());
  return *future.result();
}

ActionCodeInfo Checked(Auth* auth, const std::string& code) {
  Future<ActionCodeInfo> check = auth->CheckActionCode(code.c_str());
  REQUIRE(WaitForCompletion(check, "CheckActionCode"));
  REQUIRE(check.result() != nullptr);
  return *check.result();
}

}  // namespace

HEARTH_EMULATOR_TEST(testSendSignInLinkToEmailMailsALinkToTheContinueUrl) {
  TestApp fixture;
  Auth* auth = fixture.auth();
  const std::string email = NewEmail("link-sent");
  ActionCodeSettings settings = InAppSettings("https://app.example.com/finish?from=mail");
  settings.ios_bundle_id = "com.example.ios";
  settings.android_package_name = "com.example.android";
  settings.android_install_app = true;
  settings.android_minimum_version = "12";
  settings.link_domain = "example.page.link";
  REQUIRE(WaitForCompletion(auth->SendSignInLinkToEmail(email.c_str(), settings), "SendSignInLinkToEmail"));
  CHECK(!auth->current_user().is_valid());
  const std::map<std::string, std::string> mail = Mailed(email, "EMAIL_SIGNIN");
  const std::string link = mail.at("oobLink");
  CHECK_EQ(QueryParameter(link, "mode"), std::string("signIn"));
  CHECK_EQ(QueryParameter(link, "continueUrl"), std::string("https://app.example.com/finish?from=mail"));
  CHECK_EQ(QueryParameter(link, "oobCode"), mail.at("oobCode"));
  Future<void> last = auth->SendSignInLinkToEmailLastResult();
  CHECK(WaitForCompletion(last, "SendSignInLinkToEmailLastResult"));
}

HEARTH_EMULATOR_TEST(testSignInLinksAreRefusedBeforeSendingAsFirebaseRefusesThem) {
  TestApp fixture;
  Auth* auth = fixture.auth();
  const std::string email = NewEmail("refused");
  ActionCodeSettings web_only = InAppSettings();
  web_only.handle_code_in_app = false;
  CHECK(WaitForCompletion(auth->SendSignInLinkToEmail(email.c_str(), web_only), "not in the app",
                          hearth::auth::kAuthErrorInvalidArgument));
  CHECK(WaitForCompletion(auth->SendSignInLinkToEmail(email.c_str(), InAppSettings("")), "no continue URL",
                          hearth::auth::kAuthErrorInvalidContinueUri));
  ActionCodeSettings no_package = InAppSettings();
  no_package.android_install_app = true;
  CHECK(WaitForCompletion(auth->SendSignInLinkToEmail(email.c_str(), no_package), "Android without a package",
                          hearth::auth::kAuthErrorInvalidArgument));
  CHECK(WaitForCompletion(auth->SendSignInLinkToEmail("", InAppSettings()), "no address",
                          hearth::auth::kAuthErrorMissingEmail));
  CHECK(WaitForCompletion(auth->SendSignInLinkToEmail(nullptr, InAppSettings()), "NULL address",
                          hearth::auth::kAuthErrorInvalidArgument));
  CHECK(WaitForCompletion(auth->SendSignInLinkToEmail(email.c_str(), InAppSettings("not a url")), "server's check",
                          hearth::auth::kAuthErrorInvalidContinueUri));
  CHECK(!HasOobCode(email, "EMAIL_SIGNIN"));
}

HEARTH_EMULATOR_TEST(testIsSignInWithEmailLinkRecognisesMailedHandedWrappedAndPastedLinks) {
  TestApp fixture;
  Auth* auth = fixture.auth();
  const std::string link = SendSignInLink(auth, NewEmail("recognised"));
  const std::string handed = HandedToApp(link);
  CHECK_EQ(handed.compare(0, std::string(kAppUrl).size() + 1, std::string(kAppUrl) + "?"), 0);
  CHECK(auth->IsSignInWithEmailLink(link));
  CHECK(auth->IsSignInWithEmailLink(handed.c_str()));
  CHECK(auth->IsSignInWithEmailLink("https://example.page.link/?link=" + PercentEncode(link)));
  CHECK(auth->IsSignInWithEmailLink("com.example.ios://google/link/?deep_link_id=" + PercentEncode(link)));
  CHECK(auth->IsSignInWithEmailLink(" \t" + handed + "\r\n"));

  const std::string code = QueryParameter(link, "oobCode");
  CHECK(!auth->IsSignInWithEmailLink(""));
  CHECK(!auth->IsSignInWithEmailLink(static_cast<const char*>(nullptr)));
  CHECK(!auth->IsSignInWithEmailLink("https://example.com/?mode=signIn&oobCode=" + code));  // no apiKey
  CHECK(!auth->IsSignInWithEmailLink("https://example.com/?mode=resetPassword&oobCode=" + code + "&apiKey=k"));
  CHECK(!auth->IsSignInWithEmailLink(link + "\xff"));
}

HEARTH_EMULATOR_TEST(testSignInWithEmailLinkCreatesTheAccountOfANewAddress) {
  TestApp fixture;
  Auth* auth = fixture.auth();
  const std::string email = NewEmail("new-by-link");
  const std::string url = HandedToApp(SendSignInLink(auth, email));
  const AuthResult result = SignedIn(auth->SignInWithEmailLink(email.c_str(), url.c_str()), "SignInWithEmailLink");
  CHECK_EQ(result.user.email(), email);
  CHECK(result.user.is_email_verified());
  CHECK(!result.user.is_anonymous());
  CHECK(result.additional_user_info.is_new_user);
  CHECK_EQ(result.additional_user_info.provider_id, std::string("password"));
  CHECK_EQ(auth->current_user().uid(), result.user.uid());
  Future<AuthResult> last = auth->SignInWithEmailLinkLastResult();
  REQUIRE(WaitForCompletion(last, "SignInWithEmailLinkLastResult"));
  CHECK_EQ(last.result()->user.uid(), result.user.uid());
}

HEARTH_EMULATOR_TEST(testSignInWithEmailLinkSignsInToAnExistingPasswordAccount) {
  TestApp fixture;
  Auth* auth = fixture.auth();
  const std::string email = NewEmail("existing");
  const std::string uid = CreateUser(auth, email).uid();
  auth->SignOut();
  const std::string link = SendSignInLink(auth, email, "https://app.example.com/finish");
  const AuthResult result = SignedIn(auth->SignInWithEmailLink(email.c_str(), (" " + link + "\n").c_str()), "pasted");
  CHECK_EQ(result.user.uid(), uid);
  CHECK(!result.additional_user_info.is_new_user);
  auth->SignOut();
  CHECK_EQ(SignIn(auth, email).uid(), uid);  // the password still works
}

HEARTH_EMULATOR_TEST(testGetCredentialWithLinkSignsInLinksAnAnonymousUserAndReauthenticates) {
  TestApp fixture;
  Auth* auth = fixture.auth();
  // Sign in with the credential.
  const std::string first = NewEmail("credential");
  Credential credential = EmailAuthProvider::GetCredentialWithLink(first.c_str(), HandedToApp(SendSignInLink(auth, first)).c_str());
  REQUIRE(credential.is_valid());
  CHECK_EQ(credential.provider(), std::string("password"));
  Future<User> signed_in = auth->SignInWithCredential(credential);
  REQUIRE(WaitForCompletion(signed_in, "SignInWithCredential"));
  CHECK_EQ(signed_in.result()->email(), first);
  auth->SignOut();

  // Link to an anonymous user: it keeps its uid and becomes an email account.
  const User anonymous = SignInAnonymously(auth);
  const std::string email = NewEmail("linked");
  Credential link_credential =
      EmailAuthProvider::GetCredentialWithLink(email.c_str(), HandedToApp(SendSignInLink(auth, email)).c_str());
  const AuthResult linked = SignedIn(anonymous.LinkWithCredential(link_credential), "LinkWithCredential");
  CHECK_EQ(linked.user.uid(), anonymous.uid());
  CHECK_EQ(linked.user.email(), email);
  CHECK(!linked.user.is_anonymous());
  CHECK(linked.user.is_email_verified());

  // Reauthenticate with a new link of the same address; another address is a mismatch.
  const User user = auth->current_user();
  Credential again = EmailAuthProvider::GetCredentialWithLink(email.c_str(), HandedToApp(SendSignInLink(auth, email)).c_str());
  CHECK(WaitForCompletion(user.Reauthenticate(again), "Reauthenticate"));
  const std::string other = NewEmail("other");
  Credential foreign = EmailAuthProvider::GetCredentialWithLink(other.c_str(), HandedToApp(SendSignInLink(auth, other)).c_str());
  CHECK(WaitForCompletion(user.ReauthenticateAndRetrieveData(foreign), "Reauthenticate (other)",
                          hearth::auth::kAuthErrorUserMismatch));
  CHECK_EQ(auth->current_user().uid(), anonymous.uid());
}

HEARTH_EMULATOR_TEST(testEmailLinkErrorsMapToFirebasesCodes) {
  TestApp fixture;
  Auth* auth = fixture.auth();
  const std::string email = NewEmail("errors");
  const std::string url = HandedToApp(SendSignInLink(auth, email));
  CHECK(WaitForCompletion(auth->SignInWithEmailLink(NewEmail("someone-else").c_str(), url.c_str()), "wrong address",
                          hearth::auth::kAuthErrorInvalidEmail));
  SignedIn(auth->SignInWithEmailLink(email.c_str(), url.c_str()), "right address");
  auth->SignOut();
  CHECK(WaitForCompletion(auth->SignInWithEmailLink(email.c_str(), url.c_str()), "used",
                          hearth::auth::kAuthErrorInvalidActionCode));
  const std::string made_up = std::string(kAppUrl) + "?mode=signIn&oobCode=made-up&apiKey=key";
  CHECK(WaitForCompletion(auth->SignInWithEmailLink(email.c_str(), made_up.c_str()), "made up",
                          hearth::auth::kAuthErrorInvalidActionCode));
  CHECK(WaitForCompletion(auth->SignInWithEmailLink(email.c_str(), "https://example.com/"), "not a link",
                          hearth::auth::kAuthErrorInvalidArgument));
  CHECK(WaitForCompletion(auth->SignInWithEmailLink(email.c_str(), nullptr), "NULL link",
                          hearth::auth::kAuthErrorInvalidArgument));

  // A rejected credential is invalid, and says why.
  Credential refused = EmailAuthProvider::GetCredentialWithLink(email.c_str(), "https://example.com/?oobCode=abc");
  CHECK(!refused.is_valid());
  CHECK(hearth::LastErrorMessage().find("not an email action link") != std::string::npos);
  CHECK(!EmailAuthProvider::GetCredentialWithLink(nullptr, url.c_str()).is_valid());
  CHECK(!EmailAuthProvider::GetCredentialWithLink(email.c_str(), "\xff").is_valid());
}

HEARTH_EMULATOR_TEST(testHandleUrlLeavesEmailLinksToTheApp) {
  TestApp fixture;
  Auth* auth = fixture.auth();
  const std::string email = NewEmail("handed-over");
  const std::string url = HandedToApp(SendSignInLink(auth, email));
  CHECK(!auth->HandleUrl(url));
  REQUIRE(auth->IsSignInWithEmailLink(url));
  SignedIn(auth->SignInWithEmailLink(email.c_str(), url.c_str()), "after HandleUrl");
}

HEARTH_EMULATOR_TEST(testAVerificationCodeIsCheckedThenApplied) {
  TestApp fixture;
  Auth* auth = fixture.auth();
  const std::string email = NewEmail("verify");
  const User user = CreateUser(auth, email);
  ActionCodeSettings settings;
  settings.url = "https://app.example.com/verified";
  REQUIRE(WaitForCompletion(user.SendEmailVerification(settings), "SendEmailVerification(settings)"));
  const std::map<std::string, std::string> mail = Mailed(email, "VERIFY_EMAIL");
  CHECK_EQ(QueryParameter(mail.at("oobLink"), "continueUrl"), std::string("https://app.example.com/verified"));
  const ActionCodeInfo info = Checked(auth, mail.at("oobCode"));
  CHECK_EQ(info.operation, hearth::auth::kActionCodeOperationVerifyEmail);
  CHECK_EQ(info.email, email);
  CHECK_EQ(info.previous_email, std::string());
  REQUIRE(WaitForCompletion(auth->ApplyActionCode(mail.at("oobCode").c_str()), "ApplyActionCode"));
  REQUIRE(WaitForCompletion(user.Reload(), "Reload"));
  CHECK(auth->current_user().is_email_verified());
  CHECK(WaitForCompletion(auth->ApplyActionCode(mail.at("oobCode").c_str()), "used",
                          hearth::auth::kAuthErrorInvalidActionCode));
  CHECK(WaitForCompletion(auth->ApplyActionCodeLastResult(), "ApplyActionCodeLastResult",
                          hearth::auth::kAuthErrorInvalidActionCode));
  Future<ActionCodeInfo> last = auth->CheckActionCodeLastResult();
  REQUIRE(WaitForCompletion(last, "CheckActionCodeLastResult"));
  CHECK_EQ(last.result()->email, email);
}

HEARTH_EMULATOR_TEST(testAPasswordIsResetByVerifyingThenConfirmingTheCode) {
  TestApp fixture;
  Auth* auth = fixture.auth();
  const std::string email = NewEmail("reset");
  const std::string uid = CreateUser(auth, email).uid();
  auth->SignOut();
  REQUIRE(WaitForCompletion(auth->SendPasswordResetEmail(email.c_str(), InAppSettings()), "SendPasswordResetEmail"));
  const std::map<std::string, std::string> mail = Mailed(email, "PASSWORD_RESET");
  CHECK_EQ(QueryParameter(mail.at("oobLink"), "continueUrl"), std::string(kAppUrl));
  const std::string code = mail.at("oobCode");

  Future<std::string> verified = auth->VerifyPasswordResetCode(code.c_str());
  REQUIRE(WaitForCompletion(verified, "VerifyPasswordResetCode"));
  CHECK_EQ(*verified.result(), email);
  CHECK_EQ(Checked(auth, code).operation, hearth::auth::kActionCodeOperationPasswordReset);
  CHECK(WaitForCompletion(auth->ConfirmPasswordReset(code.c_str(), ""), "empty password",
                          hearth::auth::kAuthErrorMissingPassword));
  CHECK(WaitForCompletion(auth->ConfirmPasswordReset(code.c_str(), "12"), "weak password",
                          hearth::auth::kAuthErrorWeakPassword));
  REQUIRE(WaitForCompletion(auth->ConfirmPasswordReset(code.c_str(), "chosen-after-reset"), "ConfirmPasswordReset"));
  CHECK(WaitForCompletion(auth->SignInWithEmailAndPassword(email.c_str(), kTestPassword), "old password",
                          hearth::auth::kAuthErrorWrongPassword));
  CHECK_EQ(SignIn(auth, email, "chosen-after-reset").uid(), uid);
  CHECK(WaitForCompletion(auth->ConfirmPasswordReset(code.c_str(), "again-password"), "used",
                          hearth::auth::kAuthErrorInvalidActionCode));
  CHECK(WaitForCompletion(auth->ConfirmPasswordResetLastResult(), "ConfirmPasswordResetLastResult",
                          hearth::auth::kAuthErrorInvalidActionCode));
  Future<std::string> last = auth->VerifyPasswordResetCodeLastResult();
  REQUIRE(WaitForCompletion(last, "VerifyPasswordResetCodeLastResult"));
  CHECK_EQ(*last.result(), email);
}

HEARTH_EMULATOR_TEST(testVerifyBeforeUpdateNamesBothAddressesAndApplyingItChangesTheAddress) {
  TestApp fixture;
  Auth* auth = fixture.auth();
  const std::string old_email = NewEmail("before");
  const std::string new_email = NewEmail("after");
  const User user = CreateUser(auth, old_email);
  ActionCodeSettings settings;
  settings.url = "https://app.example.com/changed";
  REQUIRE(WaitForCompletion(user.SendEmailVerificationBeforeUpdatingEmail(new_email.c_str(), settings),
                            "SendEmailVerificationBeforeUpdatingEmail(settings)"));
  const std::map<std::string, std::string> mail = Mailed(old_email, "VERIFY_AND_CHANGE_EMAIL");
  const ActionCodeInfo info = Checked(auth, mail.at("oobCode"));
  CHECK_EQ(info.operation, hearth::auth::kActionCodeOperationVerifyAndChangeEmail);
  CHECK_EQ(info.email, new_email);
  CHECK_EQ(info.previous_email, old_email);
  REQUIRE(WaitForCompletion(auth->ApplyActionCode(mail.at("oobCode").c_str()), "ApplyActionCode"));
  auth->SignOut();
  CHECK(WaitForCompletion(auth->SignInWithEmailAndPassword(old_email.c_str(), kTestPassword), "old address",
                          hearth::auth::kAuthErrorUserNotFound));
  CHECK_EQ(SignIn(auth, new_email).uid(), user.uid());
}

HEARTH_EMULATOR_TEST(testAChangedAddressIsTakenBackWithTheRecoverCode) {
  TestApp fixture;
  Auth* auth = fixture.auth();
  const std::string old_email = NewEmail("recover-old");
  const std::string new_email = NewEmail("recover-new");
  const User user = CreateUser(auth, old_email);
  REQUIRE(WaitForCompletion(user.UpdateEmail(new_email.c_str()), "UpdateEmail"));
  const std::string code = Mailed(old_email, "RECOVER_EMAIL").at("oobCode");
  auth->SignOut();
  const ActionCodeInfo info = Checked(auth, code);
  CHECK_EQ(info.operation, hearth::auth::kActionCodeOperationRecoverEmail);
  CHECK_EQ(info.email, old_email);
  REQUIRE(WaitForCompletion(auth->ApplyActionCode(code.c_str()), "ApplyActionCode(recover)"));
  CHECK_EQ(SignIn(auth, old_email).uid(), user.uid());
}

HEARTH_EMULATOR_TEST(testEmailActionsRefuseBadInputAndSignedOutUsers) {
  TestApp fixture;
  Auth* auth = fixture.auth();
  const char* bad = "bad\xc3\x28";
  CHECK(WaitForCompletion(auth->ApplyActionCode(nullptr), "NULL code", hearth::auth::kAuthErrorInvalidArgument));
  CHECK(WaitForCompletion(auth->ApplyActionCode(bad), "bad code", hearth::auth::kAuthErrorInvalidArgument));
  CHECK(WaitForCompletion(auth->CheckActionCode(""), "empty code", hearth::auth::kAuthErrorInvalidActionCode));
  CHECK(WaitForCompletion(auth->VerifyPasswordResetCode("made-up"), "made-up code",
                          hearth::auth::kAuthErrorInvalidActionCode));
  CHECK(WaitForCompletion(auth->ConfirmPasswordReset("code", nullptr), "NULL password",
                          hearth::auth::kAuthErrorInvalidArgument));
  CHECK(WaitForCompletion(auth->ConfirmPasswordReset("code", bad), "bad password",
                          hearth::auth::kAuthErrorInvalidArgument));
  ActionCodeSettings bad_settings = InAppSettings(bad);
  CHECK(WaitForCompletion(auth->SendPasswordResetEmail("a@example.com", bad_settings), "bad url",
                          hearth::auth::kAuthErrorInvalidArgument));

  // A signed-out user's snapshot: the user operations fail, nothing is mailed.
  const std::string email = NewEmail("signed-out");
  const User user = CreateUser(auth, email);
  auth->SignOut();
  CHECK(WaitForCompletion(user.SendEmailVerification(InAppSettings()), "verification after sign-out",
                          hearth::auth::kAuthErrorNoSignedInUser));
  CHECK(WaitForCompletion(user.SendEmailVerificationBeforeUpdatingEmail(NewEmail("n").c_str(), InAppSettings()),
                          "verify-before-update after sign-out", hearth::auth::kAuthErrorNoSignedInUser));
  CHECK(!HasOobCode(email, "VERIFY_EMAIL"));
  // A default User has no operations.
  CHECK_EQ(User().SendEmailVerification(InAppSettings()).status(), hearth::kFutureStatusInvalid);
}

HEARTH_EMULATOR_TEST(testCodesPastTheirLifetimeFailWithExpiredActionCode) {
  TestApp fixture;
  Auth* auth = fixture.auth();
  const std::string config = "/emulator/v1/projects/" + ProjectId() + "/config";
  REQUIRE_EQ(EmulatorRequest("PATCH", config, "{\"oobCodeTtlSeconds\":1}").status, 200);
  struct RestoreLifetime {
    std::string path;
    ~RestoreLifetime() { EmulatorRequest("PATCH", path, "{\"oobCodeTtlSeconds\":0}"); }
  } restore{config};
  const std::string email = NewEmail("expiring");
  const std::string url = HandedToApp(SendSignInLink(auth, email));
  CreateUser(auth, email + ".reset");
  auth->SignOut();
  REQUIRE(WaitForCompletion(auth->SendPasswordResetEmail((email + ".reset").c_str()), "SendPasswordResetEmail"));
  const std::string reset = Mailed(email + ".reset", "PASSWORD_RESET").at("oobCode");
  SleepMs(2100);
  CHECK(WaitForCompletion(auth->SignInWithEmailLink(email.c_str(), url.c_str()), "expired link",
                          hearth::auth::kAuthErrorExpiredActionCode));
  CHECK(WaitForCompletion(auth->CheckActionCode(reset.c_str()), "expired check",
                          hearth::auth::kAuthErrorExpiredActionCode));
  CHECK(WaitForCompletion(auth->ConfirmPasswordReset(reset.c_str(), "fresh-password-1"), "expired reset",
                          hearth::auth::kAuthErrorExpiredActionCode));
}

HEARTH_EMULATOR_TEST(testADisabledAccountCannotSignInWithALink) {
  TestApp fixture;
  Auth* auth = fixture.auth();
  const std::string email = NewEmail("disabled");
  const std::string uid = CreateUser(auth, email).uid();
  auth->SignOut();
  const EmulatorAddress emulator = RequireEmulator();
  const HttpResponse disabled = HttpRequest(
      emulator.host, emulator.port, "POST",
      "/identitytoolkit.googleapis.com/v1/projects/" + ProjectId() + "/accounts:update",
      "Authorization: Bearer owner\r\n", "{\"localId\":\"" + uid + "\",\"disableUser\":true}");
  REQUIRE_EQ(disabled.status, 200);
  const std::string url = HandedToApp(SendSignInLink(auth, email));
  CHECK(WaitForCompletion(auth->SignInWithEmailLink(email.c_str(), url.c_str()), "disabled account",
                          hearth::auth::kAuthErrorUserDisabled));
  CHECK(!auth->current_user().is_valid());
}
