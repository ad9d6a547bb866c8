// One account, several providers: LinkWithCredential, Unlink, Reauthenticate and the account-conflict
// flows, including Firebase's documented C++ recipes (compiled here with only the namespace changed).
#include "federated.h"

#include <cstring>

using hearth::Future;
using hearth::auth::AuthResult;
using hearth::auth::Credential;
using hearth::auth::EmailAuthProvider;
using hearth::auth::FacebookAuthProvider;
using hearth::auth::GitHubAuthProvider;
using hearth::auth::GoogleAuthProvider;
using hearth::auth::Nonce;
using hearth::auth::OAuthProvider;
using hearth::auth::TwitterAuthProvider;
using hearth::auth::User;
using namespace hearth_test;
namespace auth = hearth::auth;

namespace {

// A fake Google identity whose email Google has verified.
std::string GoogleIdToken(const std::string& sub, const std::string& email = std::string(), bool verified = true) {
  FakeIdentity identity;
  identity.sub = sub;
  identity.email = email;
  if (!email.empty()) identity.email_verified = verified ? 1 : 0;
  identity.name = "Google " + sub;
  return identity.Json();
}

// A fake Facebook access token (Facebook does not vouch for emails).
std::string FacebookToken(const std::string& sub, const std::string& email = std::string()) {
  FakeIdentity identity;
  identity.sub = sub;
  identity.email = email;
  identity.name = "Facebook " + sub;
  return identity.Json();
}

AuthResult Link(const User& user, const Credential& credential, const char* what) {
  Future<AuthResult> future = user.LinkWithCredential(credential);
  REQUIRE(WaitForCompletion(future, what));
  REQUIRE(future.result() != nullptr);
  return *future.result();
}

User SignInWith(auth::Auth* auth, const Credential& credential, const char* what) {
  Future<AuthResult> future = auth->SignInAndRetrieveDataWithCredential(credential);
  REQUIRE(WaitForCompletion(future, what));
  REQUIRE(future.result()->user.is_valid());
  return future.result()->user;
}

// What the docs' snippets call to wait: here, sleep a little.
void Wait(int milliseconds) { SleepMs(milliseconds); }

}  // namespace

// ---- Firebase's C++ recipe: Sign in with Apple with a credential -----------------------------------

HEARTH_EMULATOR_TEST(testAppleCredentialRecipeFromFirebasesDocs) {
  TestApp fixture;
  hearth::auth::Auth* auth = fixture.auth();
  // What the app got from Apple: an ID token for the SHA-256 of a raw nonce it kept.
  const Nonce nonce = Nonce::Generate();
  FakeIdentity apple;
  apple.sub = NewSubject("apple");
  apple.email = NewEmail("apple");
  apple.email_verified = 1;
  apple.nonce = nonce.sha256;
  const std::string apple_id_token = apple.Json();
  const char* token = apple_id_token.c_str();
  const char* raw_nonce = nonce.raw.c_str();

  // --- the documented recipe: sign in ---
  hearth::auth::Credential credential =
      hearth::auth::OAuthProvider::GetCredential("apple.com", token, raw_nonce, nullptr);
  hearth::Future<hearth::auth::AuthResult> result = auth->SignInAndRetrieveDataWithCredential(credential);
  REQUIRE(WaitForCompletion(result, "SignInAndRetrieveDataWithCredential (Apple)"));
  const std::string apple_uid = result.result()->user.uid();
  CHECK_EQ(result.result()->additional_user_info.provider_id, std::string("apple.com"));
  CHECK(result.result()->additional_user_info.is_new_user);

  // --- the documented recipe: reauthenticate (before a sensitive operation) ---
  hearth::auth::User user = auth->current_user();
  hearth::Future<void> reauth = user.Reauthenticate(credential);
  REQUIRE(WaitForCompletion(reauth, "Reauthenticate (Apple)"));
  CHECK_EQ(auth->current_user().uid(), apple_uid);
  CHECK_EQ(user.ReauthenticateLastResult().error(), 0);

  // --- the documented recipe: link, where the Apple ID is already another account's ---
  auth->SignOut();
  const User other = SignInAnonymously(auth);
  REQUIRE_NE(other.uid(), apple_uid);
  hearth::Future<hearth::auth::AuthResult> link_result = auth->current_user().LinkWithCredential(credential);

  // To keep the example simple, wait on the current thread until the call completes.
  while (link_result.status() == hearth::kFutureStatusPending) {
    Wait(100);
  }

  // Determine the result of the link attempt.
  bool signed_in_with_updated_credential = false;
  if (link_result.error() == hearth::auth::kAuthErrorNone) {
    // The user was linked.
  } else if (link_result.error() == hearth::auth::kAuthErrorCredentialAlreadyInUse &&
             link_result.result()->additional_user_info.updated_credential.is_valid()) {
    // Sign in with the updated credential.
    hearth::Future<hearth::auth::User> sign_in =
        auth->SignInWithCredential(link_result.result()->additional_user_info.updated_credential);
    REQUIRE(WaitForCompletion(sign_in, "SignInWithCredential (updated credential)"));
    signed_in_with_updated_credential = true;
  } else {
    // Another link error occurred.
  }
  CHECK_EQ(link_result.error(), auth::kAuthErrorCredentialAlreadyInUse);
  CHECK(signed_in_with_updated_credential);
  CHECK_EQ(auth->current_user().uid(), apple_uid);
  CHECK_EQ(ProviderIds(auth->current_user()), (std::vector<std::string>{"apple.com"}));
}

// ---- conflicts ---------------------------------------------------------------------------------

HEARTH_EMULATOR_TEST(testLinkingACredentialOwnedByAnotherUserExposesAnUpdatedCredential) {
  TestApp fixture;
  auth::Auth* auth = fixture.auth();
  const std::string google_token = GoogleIdToken(NewSubject("g"));
  const User owner = SignInWith(auth, GoogleAuthProvider::GetCredential(google_token.c_str(), nullptr), "owner");
  auth->SignOut();
  const User newcomer = CreateUser(auth, NewEmail("newcomer"));

  Future<AuthResult> link = newcomer.LinkWithCredential(GoogleAuthProvider::GetCredential(google_token.c_str(), nullptr));
  REQUIRE(WaitForCompletion(link, "LinkWithCredential (Google of another user)", auth::kAuthErrorCredentialAlreadyInUse));
  // The failed future still has a result: no user, and a credential for the account that owns Google.
  REQUIRE(link.result() != nullptr);
  CHECK(!link.result()->user.is_valid());
  const Credential updated = link.result()->additional_user_info.updated_credential;
  REQUIRE(updated.is_valid());
  CHECK_EQ(updated.provider(), std::string("google.com"));
  CHECK_EQ(newcomer.LinkWithCredentialLastResult().error(), auth::kAuthErrorCredentialAlreadyInUse);
  // Nothing changed: the newcomer is still signed in, without Google.
  CHECK_EQ(auth->current_user().uid(), newcomer.uid());
  CHECK_EQ(ProviderIds(auth->current_user()), (std::vector<std::string>{"password"}));

  Future<User> recovered = auth->SignInWithCredential(updated);
  REQUIRE(WaitForCompletion(recovered, "SignInWithCredential (updated credential)"));
  CHECK_EQ(recovered.result()->uid(), owner.uid());
}

HEARTH_EMULATOR_TEST(testLinkingAnIdentityWhoseEmailIsAnotherAccountsFailsWithEmailAlreadyInUse) {
  TestApp fixture;
  auth::Auth* auth = fixture.auth();
  const std::string taken = NewEmail("taken");
  CreateUser(auth, taken);
  auth->SignOut();
  const User anonymous = SignInAnonymously(auth);

  const std::string facebook_token = FacebookToken(NewSubject("fb"), taken);
  Future<AuthResult> link = anonymous.LinkWithCredential(FacebookAuthProvider::GetCredential(facebook_token.c_str()));
  REQUIRE(WaitForCompletion(link, "LinkWithCredential (Facebook with a taken email)", auth::kAuthErrorEmailAlreadyInUse));
  REQUIRE(link.result() != nullptr);
  CHECK(!link.result()->user.is_valid());
  CHECK_EQ(link.result()->additional_user_info.email, taken);
  CHECK(link.result()->additional_user_info.updated_credential.is_valid());
  CHECK_EQ(link.result()->additional_user_info.updated_credential.provider(), std::string("facebook.com"));
  const User still = auth->current_user();
  CHECK_EQ(still.uid(), anonymous.uid());
  CHECK(still.is_anonymous());
}

HEARTH_EMULATOR_TEST(testSigningInWithAnUnverifiedEmailOfAnotherAccountNeedsConfirmation) {
  TestApp fixture;
  auth::Auth* auth = fixture.auth();
  const std::string email = NewEmail("existing");
  const User existing = CreateUser(auth, email);
  auth->SignOut();

  const std::string facebook_token = FacebookToken(NewSubject("fb"), email);
  Future<AuthResult> sign_in =
      auth->SignInAndRetrieveDataWithCredential(FacebookAuthProvider::GetCredential(facebook_token.c_str()));
  REQUIRE(WaitForCompletion(sign_in, "Facebook sign-in with the unverified email of an account",
                            auth::kAuthErrorAccountExistsWithDifferentCredentials));
  REQUIRE(sign_in.result() != nullptr);
  CHECK(!sign_in.result()->user.is_valid());
  CHECK_EQ(sign_in.result()->additional_user_info.email, email);
  const Credential pending = sign_in.result()->additional_user_info.updated_credential;
  CHECK(pending.is_valid());
  CHECK(!auth->current_user().is_valid());

  // The way out: sign in to that account as before, then link the provider there.
  const User signed_in = SignIn(auth, email);
  CHECK_EQ(signed_in.uid(), existing.uid());
  Link(signed_in, FacebookAuthProvider::GetCredential(facebook_token.c_str()), "link Facebook to the account");
  CHECK_EQ(ProviderIds(auth->current_user()), (std::vector<std::string>{"facebook.com", "password"}));
}

HEARTH_EMULATOR_TEST(testAVerifiedIdpEmailSignsInToTheAccountWithThatEmail) {
  TestApp fixture;
  auth::Auth* auth = fixture.auth();
  const std::string email = NewEmail("verified");
  const std::string google_token = GoogleIdToken(NewSubject("g"), email, true);
  const User first = SignInWith(auth, GoogleAuthProvider::GetCredential(google_token.c_str(), nullptr), "Google");
  auth->SignOut();
  // Another Google-verified identity provider with the same email reaches the same account.
  FakeIdentity microsoft;
  microsoft.sub = NewSubject("ms");
  microsoft.email = email;
  microsoft.email_verified = 1;
  const std::string microsoft_token = microsoft.Json();
  const User second = SignInWith(
      auth, OAuthProvider::GetCredential("microsoft.com", microsoft_token.c_str(), nullptr), "Microsoft, same email");
  CHECK_EQ(second.uid(), first.uid());
  CHECK_EQ(ProviderIds(auth->current_user()), (std::vector<std::string>{"google.com", "microsoft.com"}));
}

HEARTH_EMULATOR_TEST(testReauthenticatingAsAnotherUserFailsWithUserMismatchAndKeepsTheUser) {
  TestApp fixture;
  auth::Auth* auth = fixture.auth();
  const std::string other_email = NewEmail("other");
  CreateUser(auth, other_email);
  auth->SignOut();
  const std::string github_token = [] {
    FakeIdentity identity;
    identity.sub = NewSubject("gh");
    identity.login = "someone";
    return identity.Json();
  }();
  const User stranger = SignInWith(auth, GitHubAuthProvider::GetCredential(github_token.c_str()), "GitHub stranger");
  auth->SignOut();
  const User user = CreateUser(auth, NewEmail("me"));

  Future<void> as_other = user.Reauthenticate(EmailAuthProvider::GetCredential(other_email.c_str(), kTestPassword));
  CHECK(WaitForCompletion(as_other, "Reauthenticate (another account's password)", auth::kAuthErrorUserMismatch));
  CHECK_EQ(auth->current_user().uid(), user.uid());

  Future<AuthResult> as_stranger =
      user.ReauthenticateAndRetrieveData(GitHubAuthProvider::GetCredential(github_token.c_str()));
  CHECK(WaitForCompletion(as_stranger, "ReauthenticateAndRetrieveData (another account's GitHub)",
                          auth::kAuthErrorUserMismatch));
  CHECK_EQ(user.ReauthenticateAndRetrieveDataLastResult().error(), auth::kAuthErrorUserMismatch);
  // An identity no account has is not this user either.
  const std::string unknown = GoogleIdToken(NewSubject("nobody"));
  Future<void> as_nobody = user.Reauthenticate(GoogleAuthProvider::GetCredential(unknown.c_str(), nullptr));
  CHECK(WaitForCompletion(as_nobody, "Reauthenticate (an unknown Google identity)", auth::kAuthErrorUserMismatch));

  CHECK_EQ(auth->current_user().uid(), user.uid());
  CHECK_NE(stranger.uid(), user.uid());
  // Still able to act as itself.
  CHECK(WaitForCompletion(auth->current_user().Reload(), "Reload after the mismatches"));
}

HEARTH_EMULATOR_TEST(testReauthenticateAndRetrieveDataReturnsTheSameUser) {
  TestApp fixture;
  auth::Auth* auth = fixture.auth();
  const std::string twitter_token = [] {
    FakeIdentity identity;
    identity.sub = NewSubject("tw");
    identity.screen_name = "me_on_twitter";
    return identity.Json();
  }();
  const Credential twitter = TwitterAuthProvider::GetCredential(twitter_token.c_str(), "secret");
  const User user = SignInWith(auth, twitter, "Twitter");
  Future<AuthResult> reauth = user.ReauthenticateAndRetrieveData(twitter);
  REQUIRE(WaitForCompletion(reauth, "ReauthenticateAndRetrieveData (Twitter)"));
  CHECK_EQ(reauth.result()->user.uid(), user.uid());
  CHECK_EQ(reauth.result()->additional_user_info.provider_id, std::string("twitter.com"));
  CHECK_EQ(reauth.result()->additional_user_info.user_name, std::string("me_on_twitter"));
  CHECK(!reauth.result()->additional_user_info.is_new_user);
  CHECK_EQ(reauth.result()->credential.secret(), std::string("secret"));
}

HEARTH_EMULATOR_TEST(testLinkingAnAlreadyLinkedProviderFails) {
  TestApp fixture;
  auth::Auth* auth = fixture.auth();
  const std::string first_google = GoogleIdToken(NewSubject("g1"));
  const User user = SignInWith(auth, GoogleAuthProvider::GetCredential(first_google.c_str(), nullptr), "Google");
  const std::string second_google = GoogleIdToken(NewSubject("g2"));
  Future<AuthResult> link = user.LinkWithCredential(GoogleAuthProvider::GetCredential(second_google.c_str(), nullptr));
  CHECK(WaitForCompletion(link, "LinkWithCredential (a second Google identity)", auth::kAuthErrorProviderAlreadyLinked));
  Future<AuthResult> again = user.LinkWithCredential(GoogleAuthProvider::GetCredential(first_google.c_str(), nullptr));
  CHECK(WaitForCompletion(again, "LinkWithCredential (its own Google identity)", auth::kAuthErrorProviderAlreadyLinked));
  CHECK_EQ(ProviderIds(auth->current_user()), (std::vector<std::string>{"google.com"}));
}

HEARTH_EMULATOR_TEST(testUnlinkingAProviderThatIsNotLinkedFails) {
  TestApp fixture;
  const User user = CreateUser(fixture.auth(), NewEmail());
  Future<AuthResult> unlink = user.Unlink(GoogleAuthProvider::kProviderId);
  CHECK(WaitForCompletion(unlink, "Unlink (google.com, not linked)", auth::kAuthErrorNoSuchProvider));
  CHECK_EQ(user.UnlinkLastResult().error(), auth::kAuthErrorNoSuchProvider);
  Future<AuthResult> made_up = user.Unlink("MadeUpProvider");
  CHECK(WaitForCompletion(made_up, "Unlink (made-up provider)", auth::kAuthErrorNoSuchProvider));
  Future<AuthResult> null_provider = user.Unlink(nullptr);
  REQUIRE(null_provider.Wait(kOperationTimeoutMs));
  CHECK_NE(null_provider.error(), 0);
  CHECK_EQ(ProviderIds(fixture.auth()->current_user()), (std::vector<std::string>{"password"}));
}

HEARTH_EMULATOR_TEST(testSensitiveOperationsRequireARecentLoginUntilReauthenticated) {
  TestApp fixture;
  auth::Auth* auth = fixture.auth();
  const std::string email = NewEmail("stale");
  const User user = CreateUser(auth, email);
  const RecentLoginLimit limit(1);
  SleepMs(2100);
  Future<void> update = user.UpdatePassword(kTestPasswordUpdated);
  CHECK(WaitForCompletion(update, "UpdatePassword (stale sign-in)", auth::kAuthErrorRequiresRecentLogin));
  Future<void> removal = user.Delete();
  CHECK(WaitForCompletion(removal, "Delete (stale sign-in)", auth::kAuthErrorRequiresRecentLogin));
  CHECK_EQ(auth->current_user().uid(), user.uid());

  REQUIRE(WaitForCompletion(user.Reauthenticate(EmailAuthProvider::GetCredential(email.c_str(), kTestPassword)),
                            "Reauthenticate"));
  CHECK(WaitForCompletion(auth->current_user().UpdatePassword(kTestPasswordUpdated), "UpdatePassword (fresh)"));
  auth->SignOut();
  CHECK_EQ(SignIn(auth, email, kTestPasswordUpdated).uid(), user.uid());
}

// ---- Firebase's account-linking guide, end to end ----------------------------------------------------

HEARTH_EMULATOR_TEST(testAccountLinkingGuideEndToEnd) {
  TestApp fixture;
  auth::Auth* auth = fixture.auth();
  const std::string email = NewEmail("guide");
  const User user = CreateUser(auth, email);
  const std::string google_sub = NewSubject("g");
  const std::string google_token = GoogleIdToken(google_sub);
  const std::string facebook_sub = NewSubject("fb");
  const std::string facebook_token = FacebookToken(facebook_sub);

  const AuthResult with_google =
      Link(user, GoogleAuthProvider::GetCredential(google_token.c_str(), nullptr), "link Google");
  CHECK_EQ(with_google.user.uid(), user.uid());
  CHECK_EQ(with_google.additional_user_info.provider_id, std::string("google.com"));
  CHECK(!with_google.additional_user_info.is_new_user);
  CHECK_EQ(with_google.credential.provider(), std::string("google.com"));
  const AuthResult with_facebook =
      Link(auth->current_user(), FacebookAuthProvider::GetCredential(facebook_token.c_str()), "link Facebook");
  CHECK_EQ(with_facebook.user.uid(), user.uid());
  CHECK_EQ(user.LinkWithCredentialLastResult().result()->user.uid(), user.uid());

  // provider_data lists every provider with its own uid.
  const User linked = auth->current_user();
  CHECK_EQ(ProviderIds(linked), (std::vector<std::string>{"facebook.com", "google.com", "password"}));
  CHECK_EQ(ProviderInfo(linked, "google.com").uid(), google_sub);
  CHECK_EQ(ProviderInfo(linked, "facebook.com").uid(), facebook_sub);
  CHECK_EQ(ProviderInfo(linked, "facebook.com").display_name(), "Facebook " + facebook_sub);
  CHECK_EQ(ProviderInfo(linked, "password").uid(), email);
  CHECK_EQ(ProviderInfo(linked, "password").email(), email);
  CHECK_EQ(linked.email(), email);

  // Each way in reaches the same account.
  auth->SignOut();
  CHECK_EQ(SignIn(auth, email).uid(), user.uid());
  auth->SignOut();
  CHECK_EQ(SignInWith(auth, GoogleAuthProvider::GetCredential(google_token.c_str(), nullptr), "Google").uid(), user.uid());
  auth->SignOut();
  CHECK_EQ(SignInWith(auth, FacebookAuthProvider::GetCredential(facebook_token.c_str()), "Facebook").uid(), user.uid());

  // Unlinked, Facebook no longer reaches the account: that identity is a new user now.
  Future<AuthResult> unlink = auth->current_user().Unlink(FacebookAuthProvider::kProviderId);
  REQUIRE(WaitForCompletion(unlink, "Unlink Facebook"));
  CHECK_EQ(unlink.result()->user.uid(), user.uid());
  CHECK_EQ(ProviderIds(unlink.result()->user), (std::vector<std::string>{"google.com", "password"}));
  CHECK_EQ(ProviderIds(auth->current_user()), (std::vector<std::string>{"google.com", "password"}));
  auth->SignOut();
  Future<AuthResult> facebook_again =
      auth->SignInAndRetrieveDataWithCredential(FacebookAuthProvider::GetCredential(facebook_token.c_str()));
  REQUIRE(WaitForCompletion(facebook_again, "Facebook after unlinking"));
  CHECK(facebook_again.result()->additional_user_info.is_new_user);
  CHECK_NE(facebook_again.result()->user.uid(), user.uid());

  // A Facebook identity that claims the account's email is refused (Facebook does not verify emails).
  auth->SignOut();
  const std::string claiming = FacebookToken(NewSubject("fb-claim"), email);
  Future<AuthResult> refused =
      auth->SignInAndRetrieveDataWithCredential(FacebookAuthProvider::GetCredential(claiming.c_str()));
  CHECK(WaitForCompletion(refused, "Facebook claiming the account's email",
                          auth::kAuthErrorAccountExistsWithDifferentCredentials));
}

HEARTH_EMULATOR_TEST(testAnAnonymousUserUpgradedByLinkingKeepsItsUid) {
  TestApp fixture;
  auth::Auth* auth = fixture.auth();
  const User guest = SignInAnonymously(auth);
  REQUIRE(guest.is_anonymous());
  const std::string google_sub = NewSubject("g");
  const std::string google_token = GoogleIdToken(google_sub, NewEmail("upgraded"), true);
  const AuthResult upgraded =
      Link(guest, GoogleAuthProvider::GetCredential(google_token.c_str(), nullptr), "link Google to a guest");
  CHECK_EQ(upgraded.user.uid(), guest.uid());
  CHECK(!upgraded.user.is_anonymous());
  const User now = auth->current_user();
  CHECK_EQ(now.uid(), guest.uid());
  CHECK(!now.is_anonymous());
  CHECK_EQ(ProviderIds(now), (std::vector<std::string>{"google.com"}));
  CHECK_EQ(ProviderInfo(now, "google.com").uid(), google_sub);

  // A guest can also be upgraded with an email and password.
  auth->SignOut();
  const User second_guest = SignInAnonymously(auth);
  const std::string email = NewEmail("guest");
  const AuthResult with_password =
      Link(second_guest, EmailAuthProvider::GetCredential(email.c_str(), kTestPassword), "link a password");
  CHECK_EQ(with_password.user.uid(), second_guest.uid());
  CHECK(!auth->current_user().is_anonymous());
  CHECK_EQ(auth->current_user().email(), email);
  CHECK(!with_password.credential.is_valid());
  auth->SignOut();
  CHECK_EQ(SignIn(auth, email).uid(), second_guest.uid());
}

HEARTH_EMULATOR_TEST(testUnlinkingThePasswordRemovesTheEmail) {
  TestApp fixture;
  auth::Auth* auth = fixture.auth();
  const std::string email = NewEmail("unlink");
  const User user = CreateUser(auth, email);
  const std::string github_token = [] {
    FakeIdentity identity;
    identity.sub = NewSubject("gh");
    return identity.Json();
  }();
  Link(user, GitHubAuthProvider::GetCredential(github_token.c_str()), "link GitHub");
  Future<AuthResult> unlink = auth->current_user().Unlink(EmailAuthProvider::kProviderId);
  REQUIRE(WaitForCompletion(unlink, "Unlink password"));
  CHECK_EQ(unlink.result()->user.email(), std::string());
  CHECK_EQ(ProviderIds(auth->current_user()), (std::vector<std::string>{"github.com"}));
  CHECK_EQ(auth->current_user().email(), std::string());
  auth->SignOut();
  Future<AuthResult> password = auth->SignInWithEmailAndPassword(email.c_str(), kTestPassword);
  REQUIRE(password.Wait(kOperationTimeoutMs));
  CHECK_NE(password.error(), 0);
  CHECK_EQ(SignInWith(auth, GitHubAuthProvider::GetCredential(github_token.c_str()), "GitHub").uid(), user.uid());
}

HEARTH_EMULATOR_TEST(testLinkingOperationsOnAnInvalidUserGiveInvalidFutures) {
  TestApp fixture;
  const User nobody = fixture.auth()->current_user();
  REQUIRE(!nobody.is_valid());
  const Credential google = GoogleAuthProvider::GetCredential("{\"sub\":\"x\"}", nullptr);
  CHECK_EQ(nobody.LinkWithCredential(google).status(), hearth::kFutureStatusInvalid);
  CHECK_EQ(nobody.Unlink("google.com").status(), hearth::kFutureStatusInvalid);
  CHECK_EQ(nobody.Reauthenticate(google).status(), hearth::kFutureStatusInvalid);
  CHECK_EQ(nobody.ReauthenticateAndRetrieveData(google).status(), hearth::kFutureStatusInvalid);
  CHECK_EQ(nobody.LinkWithProvider(nullptr).status(), hearth::kFutureStatusInvalid);
  CHECK_EQ(nobody.ReauthenticateWithProvider(nullptr).status(), hearth::kFutureStatusInvalid);
  CHECK_EQ(User().LinkWithCredentialLastResult().status(), hearth::kFutureStatusInvalid);
  CHECK_EQ(User().LinkWithCredential(google).error(), -1);
}

HEARTH_EMULATOR_TEST(testAUserSignedOutMeanwhileCannotLinkOrUnlink) {
  TestApp fixture;
  auth::Auth* auth = fixture.auth();
  const User user = CreateUser(auth, NewEmail());
  auth->SignOut();
  const std::string google_token = GoogleIdToken(NewSubject("g"));
  CHECK(WaitForCompletion(user.LinkWithCredential(GoogleAuthProvider::GetCredential(google_token.c_str(), nullptr)),
                          "LinkWithCredential after sign-out", auth::kAuthErrorNoSignedInUser));
  CHECK(WaitForCompletion(user.Unlink("password"), "Unlink after sign-out", auth::kAuthErrorNoSignedInUser));
  CHECK(WaitForCompletion(user.Reauthenticate(GoogleAuthProvider::GetCredential(google_token.c_str(), nullptr)),
                          "Reauthenticate after sign-out", auth::kAuthErrorNoSignedInUser));
}
