// Signing in and out through hearth::auth::Auth, ported from the Firebase C++ SDK's auth integration
// tests (only the namespace changed where the API allows) plus Hearth's own scenarios.
#include "harness.h"

using hearth::Future;
using hearth::auth::AuthResult;
using hearth::auth::Credential;
using hearth::auth::EmailAuthProvider;
using hearth::auth::FetchProvidersResult;
using hearth::auth::User;
using namespace hearth_test;

namespace {

// The C++ SDK's fixture check: a successful sign-in's user is the current user.
void ExpectResultIsCurrentUser(const Future<AuthResult>& future, hearth::auth::Auth* auth) {
  REQUIRE(future.result() != nullptr);
  CHECK(future.result()->user.is_valid());
  CHECK(auth->current_user().is_valid());
  CHECK_EQ(future.result()->user.uid(), auth->current_user().uid());
}

}  // namespace

HEARTH_EMULATOR_TEST(TestInitialization) {
  TestApp fixture;
  CHECK(fixture.app() != nullptr);
  CHECK(fixture.auth() != nullptr);
  hearth::InitResult init = hearth::kInitResultFailedMissingDependency;
  CHECK(hearth::auth::Auth::GetAuth(fixture.app(), &init) == fixture.auth());
  CHECK_EQ(init, hearth::kInitResultSuccess);
  CHECK(&fixture.auth()->app() == fixture.app());
  CHECK_EQ(std::string(fixture.app()->name()), std::string(hearth::kDefaultAppName));
  CHECK(!fixture.auth()->current_user().is_valid());
}

HEARTH_EMULATOR_TEST(TestAnonymousSignin) {
  TestApp fixture;
  hearth::auth::Auth* auth = fixture.auth();
  Future<AuthResult> future = auth->SignInAnonymously();
  REQUIRE(WaitForCompletion(future, "SignInAnonymously"));
  ExpectResultIsCurrentUser(future, auth);
  CHECK(auth->current_user().is_anonymous());
  CHECK(!auth->current_user().uid().empty());
  CHECK_EQ(auth->current_user().provider_id(), std::string("Firebase"));
  CHECK_EQ(auth->current_user().email(), std::string());
  CHECK_EQ(future.result()->additional_user_info.provider_id, std::string("anonymous"));
  CHECK(future.result()->additional_user_info.is_new_user);
  CHECK(WaitForCompletion(auth->current_user().Delete(), "Delete"));
}

HEARTH_EMULATOR_TEST(testSigningInAnonymouslyTwiceKeepsTheSameUser) {
  TestApp fixture;
  const User first = SignInAnonymously(fixture.auth());
  const User second = SignInAnonymously(fixture.auth());
  CHECK_EQ(second.uid(), first.uid());
  CHECK(second.is_anonymous());
  CHECK_EQ(fixture.auth()->current_user().uid(), first.uid());
}

HEARTH_TEST(TestCredentialCopy) {
  Credential email_cred = EmailAuthProvider::GetCredential("someone@example.com", kTestPassword);
  Credential invalid_cred;
  const std::string email_provider = email_cred.provider();
  CHECK_EQ(email_provider, std::string(EmailAuthProvider::kProviderId));
  CHECK(email_cred.is_valid());
  CHECK(!invalid_cred.is_valid());
  CHECK_EQ(invalid_cred.provider(), std::string());

  // Copy constructor.
  Credential cred_copy(email_cred);
  CHECK_EQ(cred_copy.provider(), email_provider);
  CHECK(cred_copy.is_valid());
  // Assignment operator.
  cred_copy = invalid_cred;
  CHECK_EQ(cred_copy.provider(), std::string());
  CHECK(!cred_copy.is_valid());
  cred_copy = email_cred;
  CHECK_EQ(cred_copy.provider(), email_provider);
  // Moving leaves the source invalid.
  Credential moved(std::move(cred_copy));
  CHECK(moved.is_valid());
  CHECK(!cred_copy.is_valid());  // NOLINT(bugprone-use-after-move): specified behaviour
  // The original survives its copies.
  CHECK(email_cred.is_valid());
}

HEARTH_TEST(testEmailCredentialFromNullArgumentsIsInvalid) {
  CHECK(!EmailAuthProvider::GetCredential(nullptr, kTestPassword).is_valid());
  CHECK(!EmailAuthProvider::GetCredential("someone@example.com", nullptr).is_valid());
  CHECK(!EmailAuthProvider::GetCredential("\xff\xfe@example.com", kTestPassword).is_valid());
}

HEARTH_EMULATOR_TEST(TestEmailAndPasswordSignin) {
  TestApp fixture;
  hearth::auth::Auth* auth = fixture.auth();
  const std::string email = NewEmail();
  const std::string password = kTestPassword;
  Future<AuthResult> auth_result_future = auth->CreateUserWithEmailAndPassword(email.c_str(), password.c_str());
  REQUIRE(WaitForCompletion(auth_result_future, "CreateUserWithEmailAndPassword"));
  ExpectResultIsCurrentUser(auth_result_future, auth);

  // Sign out and sign in with SignInWithCredential(EmailCredential).
  auth->SignOut();
  CHECK(!auth->current_user().is_valid());
  {
    Credential email_credential = EmailAuthProvider::GetCredential(email.c_str(), password.c_str());
    Future<User> user_future = auth->SignInWithCredential(email_credential);
    REQUIRE(WaitForCompletion(user_future, "SignInWithCredential"));
    CHECK(auth->current_user().is_valid());
    REQUIRE(user_future.result() != nullptr);
    CHECK(user_future.result()->is_valid());
    CHECK_EQ(user_future.result()->email(), email);
    CHECK_EQ(user_future.result()->uid(), auth->current_user().uid());
  }
  // Sign out and sign in with SignInAndRetrieveDataWithCredential(EmailCredential).
  auth->SignOut();
  {
    Credential email_credential = EmailAuthProvider::GetCredential(email.c_str(), password.c_str());
    Future<AuthResult> future = auth->SignInAndRetrieveDataWithCredential(email_credential);
    REQUIRE(WaitForCompletion(future, "SignInAndRetrieveDataWithCredential"));
    ExpectResultIsCurrentUser(future, auth);
    CHECK_EQ(future.result()->additional_user_info.provider_id, std::string("password"));
    CHECK(!future.result()->additional_user_info.is_new_user);
  }
  auth->SignOut();
  // Sign in with SignInWithEmailAndPassword.
  auth_result_future = auth->SignInWithEmailAndPassword(email.c_str(), password.c_str());
  REQUIRE(WaitForCompletion(auth_result_future, "SignInWithEmailAndPassword"));
  ExpectResultIsCurrentUser(auth_result_future, auth);
  CHECK_EQ(auth_result_future.result()->user.email(), email);

  // Then delete the account.
  Future<void> delete_user = auth->current_user().Delete();
  CHECK(WaitForCompletion(delete_user, "Delete"));
  CHECK(!auth->current_user().is_valid());
  auth_result_future = auth->SignInWithEmailAndPassword(email.c_str(), password.c_str());
  CHECK(WaitForCompletion(auth_result_future, "SignInWithEmailAndPassword (deleted user)",
                          hearth::auth::kAuthErrorUserNotFound));
  CHECK(!auth->current_user().is_valid());
}

HEARTH_EMULATOR_TEST(testCreatingAUserSignsItInWithPasswordProviderData) {
  TestApp fixture;
  const std::string email = NewEmail();
  const int64_t before_ms = static_cast<int64_t>(
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count());
  Future<AuthResult> future = fixture.auth()->CreateUserWithEmailAndPassword(email.c_str(), kTestPassword);
  REQUIRE(WaitForCompletion(future, "CreateUserWithEmailAndPassword"));
  const AuthResult& result = *future.result();
  CHECK(result.additional_user_info.is_new_user);
  CHECK_EQ(result.additional_user_info.provider_id, std::string("password"));
  CHECK(result.additional_user_info.profile.empty());
  CHECK(!result.credential.is_valid());

  const User user = fixture.auth()->current_user();
  CHECK(!user.is_anonymous());
  CHECK(!user.is_email_verified());
  CHECK_EQ(user.email(), email);
  CHECK_EQ(user.display_name(), std::string());
  const std::vector<hearth::auth::UserInfoInterface> providers = user.provider_data();
  REQUIRE_EQ(providers.size(), size_t{1});
  CHECK_EQ(providers[0].provider_id(), std::string("password"));
  CHECK_EQ(providers[0].email(), email);

  // Timestamps are UTC milliseconds of this run (allowing for clock granularity and a slow machine).
  const hearth::auth::UserMetadata metadata = user.metadata();
  const int64_t created = static_cast<int64_t>(metadata.creation_timestamp);
  const int64_t last_sign_in = static_cast<int64_t>(metadata.last_sign_in_timestamp);
  CHECK(created >= before_ms - 5000 && created <= before_ms + 60000);
  CHECK(last_sign_in >= created - 1000);
}

HEARTH_EMULATOR_TEST(testSignOutClearsTheCurrentUser) {
  TestApp fixture;
  SignInAnonymously(fixture.auth());
  REQUIRE(fixture.auth()->current_user().is_valid());
  fixture.auth()->SignOut();
  CHECK(!fixture.auth()->current_user().is_valid());
  CHECK_EQ(fixture.auth()->current_user().uid(), std::string());
  // Signing out twice is harmless.
  fixture.auth()->SignOut();
  CHECK(!fixture.auth()->current_user().is_valid());
}

HEARTH_EMULATOR_TEST(TestSignInWithBadEmailFails) {
  TestApp fixture;
  Future<AuthResult> future = fixture.auth()->SignInWithEmailAndPassword(NewEmail("nobody").c_str(), kTestPassword);
  CHECK(WaitForCompletion(future, "SignInWithEmailAndPassword", hearth::auth::kAuthErrorUserNotFound));
  CHECK(!fixture.auth()->current_user().is_valid());
  REQUIRE(future.result() != nullptr);
  CHECK(!future.result()->user.is_valid());
}

HEARTH_EMULATOR_TEST(TestSignInWithBadPasswordFails) {
  TestApp fixture;
  hearth::auth::Auth* auth = fixture.auth();
  const std::string email = NewEmail();
  CreateUser(auth, email);
  auth->SignOut();
  Future<AuthResult> future = auth->SignInWithEmailAndPassword(email.c_str(), kTestPasswordBad);
  CHECK(WaitForCompletion(future, "SignInWithEmailAndPassword", hearth::auth::kAuthErrorWrongPassword));
  REQUIRE(future.error_message() != nullptr);
  CHECK(std::string(future.error_message()) != "");
  CHECK(!auth->current_user().is_valid());
  // Sign back in and delete the user.
  SignIn(auth, email);
  CHECK(auth->current_user().is_valid());
  CHECK(WaitForCompletion(auth->current_user().Delete(), "Delete"));
}

HEARTH_EMULATOR_TEST(TestCreateUserWithExistingEmailFails) {
  TestApp fixture;
  hearth::auth::Auth* auth = fixture.auth();
  const std::string email = NewEmail();
  CreateUser(auth, email);
  auth->SignOut();
  CHECK(WaitForCompletion(auth->CreateUserWithEmailAndPassword(email.c_str(), kTestPassword),
                          "CreateUserWithEmailAndPassword 2", hearth::auth::kAuthErrorEmailAlreadyInUse));
  CHECK(!auth->current_user().is_valid());
  // Try again with a different password.
  CHECK(WaitForCompletion(auth->CreateUserWithEmailAndPassword(email.c_str(), kTestPasswordBad),
                          "CreateUserWithEmailAndPassword 3", hearth::auth::kAuthErrorEmailAlreadyInUse));
  CHECK(!auth->current_user().is_valid());
  SignIn(auth, email);
  CHECK(WaitForCompletion(auth->current_user().Delete(), "Delete"));
}

HEARTH_EMULATOR_TEST(testCreatingAUserWithAWeakPasswordFails) {
  TestApp fixture;
  Future<AuthResult> future = fixture.auth()->CreateUserWithEmailAndPassword(NewEmail().c_str(), "12345");
  CHECK(WaitForCompletion(future, "CreateUserWithEmailAndPassword", hearth::auth::kAuthErrorWeakPassword));
  // The server's detail text is kept.
  REQUIRE(future.error_message() != nullptr);
  CHECK(std::string(future.error_message()).find("6 characters") != std::string::npos);
  CHECK(!fixture.auth()->current_user().is_valid());
}

HEARTH_EMULATOR_TEST(testSignInWithCustomTokenUsesTheTokensUid) {
  TestApp fixture;
  hearth::auth::Auth* auth = fixture.auth();
  Future<AuthResult> future = auth->SignInWithCustomToken("{\"uid\":\"some-uid\"}");
  REQUIRE(WaitForCompletion(future, "SignInWithCustomToken"));
  ExpectResultIsCurrentUser(future, auth);
  CHECK_EQ(future.result()->user.uid(), std::string("some-uid"));
  CHECK(!future.result()->user.is_anonymous());
  CHECK_EQ(future.result()->additional_user_info.provider_id, std::string("custom"));
  CHECK(future.result()->additional_user_info.is_new_user);

  auth->SignOut();
  future = auth->SignInWithCustomToken("{\"uid\":\"some-uid\"}");
  REQUIRE(WaitForCompletion(future, "SignInWithCustomToken (again)"));
  CHECK_EQ(future.result()->user.uid(), std::string("some-uid"));
  CHECK(!future.result()->additional_user_info.is_new_user);
}

HEARTH_EMULATOR_TEST(testSignInWithAMalformedCustomTokenFails) {
  TestApp fixture;
  CHECK(WaitForCompletion(fixture.auth()->SignInWithCustomToken("this is not a token"), "SignInWithCustomToken",
                          hearth::auth::kAuthErrorInvalidCustomToken));
  CHECK(!fixture.auth()->current_user().is_valid());
}

HEARTH_EMULATOR_TEST(testSignInWithAnInvalidCredentialFailsCleanly) {
  TestApp fixture;
  const User existing = SignInAnonymously(fixture.auth());
  Future<User> future = fixture.auth()->SignInWithCredential(Credential());
  CHECK(future.Wait(kOperationTimeoutMs));
  CHECK_EQ(future.status(), hearth::kFutureStatusComplete);
  CHECK_NE(future.error(), 0);
  REQUIRE(future.result() != nullptr);
  CHECK(!future.result()->is_valid());
  Future<AuthResult> data_future = fixture.auth()->SignInAndRetrieveDataWithCredential(Credential());
  CHECK(data_future.Wait(kOperationTimeoutMs));
  CHECK_NE(data_future.error(), 0);
  // A failed sign-in leaves the signed-in user alone.
  CHECK_EQ(fixture.auth()->current_user().uid(), existing.uid());
}

HEARTH_EMULATOR_TEST(testNullEmptyAndInvalidUtf8ArgumentsGiveFailedFutures) {
  TestApp fixture;
  hearth::auth::Auth* auth = fixture.auth();
  std::vector<std::pair<const char*, hearth::FutureBase>> futures;
  futures.emplace_back("create(NULL, NULL)", auth->CreateUserWithEmailAndPassword(nullptr, nullptr));
  futures.emplace_back("create(email, NULL)", auth->CreateUserWithEmailAndPassword(NewEmail().c_str(), nullptr));
  futures.emplace_back("create(\"\", \"\")", auth->CreateUserWithEmailAndPassword("", ""));
  futures.emplace_back("create(bad utf-8)", auth->CreateUserWithEmailAndPassword("\xc3\x28@example.com", kTestPassword));
  futures.emplace_back("sign in(NULL, NULL)", auth->SignInWithEmailAndPassword(nullptr, nullptr));
  futures.emplace_back("sign in(\"\", password)", auth->SignInWithEmailAndPassword("", kTestPassword));
  futures.emplace_back("custom token(NULL)", auth->SignInWithCustomToken(nullptr));
  futures.emplace_back("custom token(\"\")", auth->SignInWithCustomToken(""));
  futures.emplace_back("password reset(NULL)", auth->SendPasswordResetEmail(nullptr));
  futures.emplace_back("fetch providers(NULL)", auth->FetchProvidersForEmail(nullptr));
  futures.emplace_back("fetch providers(bad utf-8)", auth->FetchProvidersForEmail("\xff@example.com"));
  for (const auto& entry : futures) {
    if (!entry.second.Wait(kOperationTimeoutMs)) {
      RecordFailure(__FILE__, __LINE__, std::string(entry.first) + ": did not complete");
      continue;
    }
    if (entry.second.error() == 0) RecordFailure(__FILE__, __LINE__, std::string(entry.first) + ": succeeded");
    if (!entry.second.error_message() || !*entry.second.error_message()) {
      RecordFailure(__FILE__, __LINE__, std::string(entry.first) + ": no error message");
    }
  }
  CHECK(!auth->current_user().is_valid());
}

HEARTH_EMULATOR_TEST(TestSendPasswordResetEmail) {
  TestApp fixture;
  hearth::auth::Auth* auth = fixture.auth();
  const std::string email = NewEmail();
  CreateUser(auth, email);
  auth->SignOut();
  // Send to the right address.
  CHECK(WaitForCompletion(auth->SendPasswordResetEmail(email.c_str()), "SendPasswordResetEmail (good)"));
  CHECK(HasOobCode(email, "PASSWORD_RESET"));
  // Send to an unknown address.
  const std::string unknown = NewEmail("unknown");
  CHECK(WaitForCompletion(auth->SendPasswordResetEmail(unknown.c_str()), "SendPasswordResetEmail (bad)",
                          hearth::auth::kAuthErrorUserNotFound));
  CHECK(!HasOobCode(unknown, "PASSWORD_RESET"));
  // Delete the user now that we are done with it.
  SignIn(auth, email);
  CHECK(WaitForCompletion(auth->current_user().Delete(), "Delete"));
}

HEARTH_EMULATOR_TEST(testFetchProvidersForEmailListsTheSignInMethods) {
  TestApp fixture;
  hearth::auth::Auth* auth = fixture.auth();
  const std::string email = NewEmail();
  CreateUser(auth, email);
  Future<FetchProvidersResult> future = auth->FetchProvidersForEmail(email.c_str());
  REQUIRE(WaitForCompletion(future, "FetchProvidersForEmail"));
  REQUIRE(future.result() != nullptr);
  CHECK_EQ(future.result()->providers, std::vector<std::string>{"password"});

  Future<FetchProvidersResult> unknown = auth->FetchProvidersForEmail(NewEmail("unknown").c_str());
  REQUIRE(WaitForCompletion(unknown, "FetchProvidersForEmail (unknown)"));
  REQUIRE(unknown.result() != nullptr);
  CHECK(unknown.result()->providers.empty());
}

HEARTH_EMULATOR_TEST(testLanguageCodeIsSetAndCleared) {
  TestApp fixture;
  hearth::auth::Auth* auth = fixture.auth();
  CHECK_EQ(auth->language_code(), std::string());
  auth->set_language_code("fr");
  CHECK_EQ(auth->language_code(), std::string("fr"));
  // Localized emails still go out.
  const std::string email = NewEmail();
  CreateUser(auth, email);
  CHECK(WaitForCompletion(auth->SendPasswordResetEmail(email.c_str()), "SendPasswordResetEmail (fr)"));
  auth->set_language_code(nullptr);
  CHECK_EQ(auth->language_code(), std::string());
  auth->set_language_code("de");
  auth->set_language_code("");
  CHECK_EQ(auth->language_code(), std::string());
}

HEARTH_EMULATOR_TEST(testUseAppLanguageGoesBackToFirebasesDefault) {
  TestApp fixture;
  hearth::auth::Auth* auth = fixture.auth();
  auth->set_language_code("pt-BR");
  CHECK_EQ(auth->language_code(), std::string("pt-BR"));
  // As the C++ SDK's desktop build: no locale of the device, Firebase's own default.
  auth->UseAppLanguage();
  CHECK_EQ(auth->language_code(), std::string());
  auth->UseAppLanguage();
  CHECK_EQ(auth->language_code(), std::string());
}
