// Identity-provider credentials: the provider classes, what each credential signs in with, and what
// the AuthResult reports (additional user info, the provider's credential, is_new_user), plus the nonce
// helper.
#include "federated.h"

#include <algorithm>
#include <cctype>
#include <cstring>

using hearth::Future;
using hearth::auth::AdditionalUserInfo;
using hearth::auth::AppleAuthProvider;
using hearth::auth::AuthResult;
using hearth::auth::Credential;
using hearth::auth::EmailAuthProvider;
using hearth::auth::FacebookAuthProvider;
using hearth::auth::FederatedOAuthProvider;
using hearth::auth::FederatedOAuthProviderData;
using hearth::auth::GameCenterAuthProvider;
using hearth::auth::GitHubAuthProvider;
using hearth::auth::GoogleAuthProvider;
using hearth::auth::MicrosoftAuthProvider;
using hearth::auth::Nonce;
using hearth::auth::OAuthProvider;
using hearth::auth::PhoneAuthProvider;
using hearth::auth::PlayGamesAuthProvider;
using hearth::auth::TwitterAuthProvider;
using hearth::auth::User;
using hearth::auth::YahooAuthProvider;
using namespace hearth_test;
namespace auth = hearth::auth;

namespace {

AuthResult SignInAndRetrieveData(auth::Auth* auth, const Credential& credential, const char* what) {
  Future<AuthResult> future = auth->SignInAndRetrieveDataWithCredential(credential);
  REQUIRE(WaitForCompletion(future, what));
  REQUIRE(future.result() != nullptr);
  REQUIRE(future.result()->user.is_valid());
  return *future.result();
}

std::string ProfileField(const AdditionalUserInfo& info, const char* name) {
  auto it = info.profile.find(name);
  return it == info.profile.end() ? std::string("<missing>") : it->second;
}

}  // namespace

// ---- the provider classes --------------------------------------------------------------------------

HEARTH_TEST(testProviderIdsAreFirebases) {
  CHECK_EQ(std::string(EmailAuthProvider::kProviderId), std::string("password"));
  CHECK_EQ(std::string(GoogleAuthProvider::kProviderId), std::string("google.com"));
  CHECK_EQ(std::string(FacebookAuthProvider::kProviderId), std::string("facebook.com"));
  CHECK_EQ(std::string(TwitterAuthProvider::kProviderId), std::string("twitter.com"));
  CHECK_EQ(std::string(GitHubAuthProvider::kProviderId), std::string("github.com"));
  CHECK_EQ(std::string(PlayGamesAuthProvider::kProviderId), std::string("playgames.google.com"));
  CHECK_EQ(std::string(GameCenterAuthProvider::kProviderId), std::string("gc.apple.com"));
  CHECK_EQ(std::string(MicrosoftAuthProvider::kProviderId), std::string("microsoft.com"));
  CHECK_EQ(std::string(YahooAuthProvider::kProviderId), std::string("yahoo.com"));
  CHECK_EQ(std::string(PhoneAuthProvider::kProviderId), std::string("phone"));
  CHECK_EQ(std::string(AppleAuthProvider::kProviderId), std::string("apple.com"));
}

HEARTH_TEST(testEachProviderMakesCredentialsOfItsOwnProvider) {
  struct Case {
    Credential credential;
    const char* provider;
  };
  const Case cases[] = {
      {GoogleAuthProvider::GetCredential("id-token", nullptr), "google.com"},
      {GoogleAuthProvider::GetCredential(nullptr, "access-token"), "google.com"},
      {FacebookAuthProvider::GetCredential("fb-token"), "facebook.com"},
      {FacebookAuthProvider::GetLimitedLoginCredential("fb-id-token", "raw-nonce"), "facebook.com"},
      {TwitterAuthProvider::GetCredential("token", "secret"), "twitter.com"},
      {GitHubAuthProvider::GetCredential("gh-token"), "github.com"},
      {PlayGamesAuthProvider::GetCredential("server-auth-code"), "playgames.google.com"},
      {OAuthProvider::GetCredential(MicrosoftAuthProvider::kProviderId, "id-token", "access-token"), "microsoft.com"},
      {OAuthProvider::GetCredential(YahooAuthProvider::kProviderId, nullptr, "access-token"), "yahoo.com"},
      {OAuthProvider::GetCredential("oidc.corp", "id-token", "raw-nonce", nullptr), "oidc.corp"},
      {OAuthProvider::GetCredential("apple.com", "id-token", "raw-nonce", nullptr), "apple.com"},
      {AppleAuthProvider::GetCredential("id-token", "raw-nonce", "auth-code", "Ada", "Lovelace"), "apple.com"},
      {AppleAuthProvider::GetCredential("id-token", "raw-nonce"), "apple.com"},
      {EmailAuthProvider::GetCredential("a@example.com", "password1"), "password"},
  };
  for (const Case& test : cases) {
    CHECK(test.credential.is_valid());
    CHECK_EQ(test.credential.provider(), std::string(test.provider));
  }
}

HEARTH_TEST(testCredentialsCarryTheTokensTheyWereMadeWith) {
  const Credential google = GoogleAuthProvider::GetCredential("g-id", "g-access");
  CHECK_EQ(google.id_token(), std::string("g-id"));
  CHECK_EQ(google.access_token(), std::string("g-access"));
  CHECK_EQ(google.secret(), std::string());
  const Credential twitter = TwitterAuthProvider::GetCredential("t-token", "t-secret");
  CHECK_EQ(twitter.access_token(), std::string("t-token"));
  CHECK_EQ(twitter.secret(), std::string("t-secret"));
  const Credential oauth = OAuthProvider::GetCredential("microsoft.com", "m-id", "m-access");
  CHECK_EQ(oauth.id_token(), std::string("m-id"));
  CHECK_EQ(oauth.access_token(), std::string("m-access"));
  // Copies share the credential.
  const Credential copy = oauth;
  CHECK_EQ(copy.id_token(), std::string("m-id"));
  CHECK_EQ(copy.provider(), std::string("microsoft.com"));
  // An invalid credential answers with empty strings, never a crash.
  const Credential invalid;
  CHECK(!invalid.is_valid());
  CHECK_EQ(invalid.provider(), std::string());
  CHECK_EQ(invalid.id_token(), std::string());
  CHECK_EQ(invalid.access_token(), std::string());
  CHECK_EQ(invalid.secret(), std::string());
}

HEARTH_TEST(testCredentialsRefuseMissingOrMalformedArgumentsWithAnInvalidCredential) {
  const char* bad_utf8 = "\xff\xfe";
  CHECK(!FacebookAuthProvider::GetCredential(nullptr).is_valid());
  CHECK(!FacebookAuthProvider::GetCredential(bad_utf8).is_valid());
  CHECK(!FacebookAuthProvider::GetLimitedLoginCredential(nullptr, "raw").is_valid());
  CHECK(!TwitterAuthProvider::GetCredential(nullptr, "secret").is_valid());
  CHECK(!TwitterAuthProvider::GetCredential("token", nullptr).is_valid());
  CHECK(!GitHubAuthProvider::GetCredential(nullptr).is_valid());
  CHECK(!PlayGamesAuthProvider::GetCredential(nullptr).is_valid());
  CHECK(!GoogleAuthProvider::GetCredential(bad_utf8, nullptr).is_valid());
  CHECK(!OAuthProvider::GetCredential(nullptr, "id", "access").is_valid());
  CHECK(!OAuthProvider::GetCredential(nullptr, "id", "raw", nullptr).is_valid());
  CHECK(!OAuthProvider::GetCredential("apple.com", bad_utf8, "raw", nullptr).is_valid());
  CHECK(!AppleAuthProvider::GetCredential(nullptr, "raw").is_valid());
  CHECK(!AppleAuthProvider::GetCredential("id", "raw", nullptr, bad_utf8, nullptr).is_valid());
}

HEARTH_TEST(testNonceGenerateGivesAFreshRawNonceAndItsSha256) {
  const Nonce first = Nonce::Generate();
  const Nonce second = Nonce::Generate();
  CHECK_EQ(first.raw.size(), size_t{32});
  CHECK(std::all_of(first.raw.begin(), first.raw.end(), [](unsigned char c) {
    return std::isalnum(c) || c == '-' || c == '.' || c == '_';
  }));
  CHECK_EQ(first.sha256.size(), size_t{64});
  CHECK(std::all_of(first.sha256.begin(), first.sha256.end(),
                    [](unsigned char c) { return std::isdigit(c) || (c >= 'a' && c <= 'f'); }));
  CHECK_EQ(first.sha256, Nonce::Sha256Hex(first.raw));
  CHECK_NE(first.raw, second.raw);
  CHECK_NE(first.sha256, second.sha256);
}

HEARTH_TEST(testSha256HexMatchesTheStandardTestVectors) {
  CHECK_EQ(Nonce::Sha256Hex(""), std::string("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
  CHECK_EQ(Nonce::Sha256Hex("abc"), std::string("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
  CHECK_EQ(Nonce::Sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
           std::string("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"));
  // The UTF-8 bytes, not characters.
  CHECK_EQ(Nonce::Sha256Hex("\xc3\xa9"), std::string("4a99557e4033c3539de2eb65472017cad5f9557f7a0625a09f1c3f6e2ba69c4c"));
  // Text Hearth cannot take whole is refused rather than hashed in part; so is invalid UTF-8.
  CHECK_EQ(Nonce::Sha256Hex(std::string("a\0b", 3)), std::string());
  CHECK_EQ(Nonce::Sha256Hex("\xff"), std::string());
}

HEARTH_TEST(testFederatedOAuthProviderDataHasTheSdksConstructors) {
  const FederatedOAuthProviderData empty;
  CHECK_EQ(empty.provider_id, std::string());
  CHECK(empty.scopes.empty() && empty.custom_parameters.empty());
  const FederatedOAuthProviderData microsoft(MicrosoftAuthProvider::kProviderId);
  CHECK_EQ(microsoft.provider_id, std::string("microsoft.com"));
  const FederatedOAuthProviderData full("apple.com", {"email", "name"}, {{"locale", "fr"}});
  CHECK_EQ(full.provider_id, std::string("apple.com"));
  CHECK_EQ(full.scopes, (std::vector<std::string>{"email", "name"}));
  CHECK_EQ(full.custom_parameters.at("locale"), std::string("fr"));
  // The base names the provider, as the SDK's FederatedProviderData.
  const hearth::auth::FederatedProviderData& base = full;
  CHECK_EQ(base.provider_id, std::string("apple.com"));

  FederatedOAuthProvider provider;
  CHECK_EQ(provider.provider_data().provider_id, std::string());
  provider.SetProviderData(full);
  CHECK_EQ(provider.provider_data().scopes.size(), size_t{2});
  const FederatedOAuthProvider twitter{FederatedOAuthProviderData(TwitterAuthProvider::kProviderId)};
  CHECK_EQ(twitter.provider_data().provider_id, std::string("twitter.com"));
}

// ---- signing in with each credential ---------------------------------------------------------------

HEARTH_EMULATOR_TEST(testGoogleIdTokenSignsUpThenSignsInTheSameUser) {
  TestApp fixture;
  auth::Auth* auth = fixture.auth();
  FakeIdentity google;
  google.sub = NewSubject("g");
  google.email = NewEmail("google");
  google.email_verified = 1;
  google.name = "Grace Google";
  const std::string id_token = google.Json();

  const AuthResult first =
      SignInAndRetrieveData(auth, GoogleAuthProvider::GetCredential(id_token.c_str(), nullptr), "Google sign-up");
  CHECK(first.additional_user_info.is_new_user);
  CHECK_EQ(first.additional_user_info.provider_id, std::string("google.com"));
  // Google's user-info shape.
  CHECK_EQ(ProfileField(first.additional_user_info, "id"), google.sub);
  CHECK_EQ(ProfileField(first.additional_user_info, "email"), google.email);
  CHECK_EQ(ProfileField(first.additional_user_info, "verified_email"), std::string("true"));
  CHECK(!first.additional_user_info.updated_credential.is_valid());
  // The provider's credential the server returned.
  REQUIRE(first.credential.is_valid());
  CHECK_EQ(first.credential.provider(), std::string("google.com"));
  CHECK_EQ(first.credential.id_token(), id_token);
  const User user = first.user;
  CHECK_EQ(user.email(), google.email);
  CHECK(user.is_email_verified());
  CHECK_EQ(user.display_name(), std::string("Grace Google"));
  CHECK(!user.is_anonymous());
  CHECK_EQ(ProviderIds(user), (std::vector<std::string>{"google.com"}));
  CHECK_EQ(ProviderInfo(user, "google.com").uid(), google.sub);

  auth->SignOut();
  Future<User> again = auth->SignInWithCredential(GoogleAuthProvider::GetCredential(id_token.c_str(), nullptr));
  REQUIRE(WaitForCompletion(again, "SignInWithCredential (Google)"));
  CHECK_EQ(again.result()->uid(), user.uid());
  CHECK_EQ(auth->SignInWithCredentialLastResult().result()->uid(), user.uid());
  const AuthResult third =
      SignInAndRetrieveData(auth, GoogleAuthProvider::GetCredential(id_token.c_str(), nullptr), "Google sign-in");
  CHECK(!third.additional_user_info.is_new_user);
  CHECK_EQ(third.user.uid(), user.uid());
}

HEARTH_EMULATOR_TEST(testAnOpaqueGoogleAccessTokenIsRefusedByTheEmulator) {
  // Firebase's emulator (and hearth-emulator) cannot ask Google who an opaque access token belongs to:
  // for google.com it wants an ID token (or fake claims).
  TestApp fixture;
  Future<AuthResult> future = fixture.auth()->SignInAndRetrieveDataWithCredential(
      GoogleAuthProvider::GetCredential(nullptr, "ya29.an-opaque-access-token"));
  REQUIRE(future.Wait(kOperationTimeoutMs));
  CHECK_NE(future.error(), 0);
  CHECK(std::strstr(future.error_message(), "id_token") != nullptr);
  CHECK(!fixture.auth()->current_user().is_valid());

  // Fake claims as the access token are read like an ID token's.
  FakeIdentity google;
  google.sub = NewSubject("g");
  const std::string claims = google.Json();
  const AuthResult result = SignInAndRetrieveData(
      fixture.auth(), GoogleAuthProvider::GetCredential(nullptr, claims.c_str()), "Google with fake access-token claims");
  CHECK_EQ(ProviderInfo(result.user, "google.com").uid(), google.sub);
  CHECK_EQ(result.credential.access_token(), claims);
}

HEARTH_EMULATOR_TEST(testFacebookAccessTokenSignsIn) {
  TestApp fixture;
  FakeIdentity facebook;
  facebook.sub = NewSubject("fb");
  facebook.email = NewEmail("facebook");
  facebook.name = "Fay Book";
  const std::string token = facebook.Json();
  const AuthResult result = SignInAndRetrieveData(
      fixture.auth(), FacebookAuthProvider::GetCredential(token.c_str()), "Facebook sign-in");
  CHECK(result.additional_user_info.is_new_user);
  CHECK_EQ(result.additional_user_info.provider_id, std::string("facebook.com"));
  CHECK_EQ(ProfileField(result.additional_user_info, "sub"), facebook.sub);
  REQUIRE(result.credential.is_valid());
  CHECK_EQ(result.credential.provider(), std::string("facebook.com"));
  CHECK_EQ(result.credential.access_token(), token);
  CHECK_EQ(result.user.display_name(), std::string("Fay Book"));
  CHECK_EQ(result.user.email(), facebook.email);
  // Facebook does not vouch for emails.
  CHECK(!result.user.is_email_verified());
  CHECK_EQ(ProviderInfo(result.user, "facebook.com").uid(), facebook.sub);
}

HEARTH_EMULATOR_TEST(testFacebookLimitedLoginSignsInWithTheRawNonceOfItsToken) {
  TestApp fixture;
  const Nonce nonce = Nonce::Generate();
  FakeIdentity facebook;
  facebook.sub = NewSubject("fb-limited");
  facebook.nonce = nonce.sha256;
  const std::string token = facebook.Json();

  const Nonce other = Nonce::Generate();
  Future<AuthResult> wrong = fixture.auth()->SignInAndRetrieveDataWithCredential(
      FacebookAuthProvider::GetLimitedLoginCredential(token.c_str(), other.raw.c_str()));
  CHECK(WaitForCompletion(wrong, "Limited Login with another nonce", auth::kAuthErrorInvalidCredential));
  CHECK(!fixture.auth()->current_user().is_valid());

  const AuthResult result =
      SignInAndRetrieveData(fixture.auth(), FacebookAuthProvider::GetLimitedLoginCredential(token.c_str(), nonce.raw.c_str()),
                            "Limited Login");
  CHECK_EQ(result.additional_user_info.provider_id, std::string("facebook.com"));
  CHECK_EQ(ProviderInfo(result.user, "facebook.com").uid(), facebook.sub);
  CHECK_EQ(result.credential.id_token(), token);
}

HEARTH_EMULATOR_TEST(testTwitterTokenAndSecretSignInWithTheScreenNameAsUserName) {
  TestApp fixture;
  FakeIdentity twitter;
  twitter.sub = NewSubject("tw");
  twitter.screen_name = "jack_" + std::to_string(NowMs() % 100000);
  twitter.name = "Jack";
  const std::string token = twitter.Json();
  const AuthResult result = SignInAndRetrieveData(
      fixture.auth(), TwitterAuthProvider::GetCredential(token.c_str(), "twitter-secret"), "Twitter sign-in");
  CHECK_EQ(result.additional_user_info.provider_id, std::string("twitter.com"));
  CHECK_EQ(result.additional_user_info.user_name, twitter.screen_name);
  CHECK_EQ(ProfileField(result.additional_user_info, "screen_name"), twitter.screen_name);
  REQUIRE(result.credential.is_valid());
  CHECK_EQ(result.credential.provider(), std::string("twitter.com"));
  CHECK_EQ(result.credential.access_token(), token);
  CHECK_EQ(result.credential.secret(), std::string("twitter-secret"));
  CHECK_EQ(ProviderInfo(result.user, "twitter.com").uid(), twitter.sub);
}

HEARTH_EMULATOR_TEST(testGitHubTokenSignsInWithTheLoginAsUserName) {
  TestApp fixture;
  FakeIdentity github;
  github.sub = NewSubject("gh");
  github.login = "octocat";
  github.name = "The Octocat";
  const std::string token = github.Json();
  const AuthResult result =
      SignInAndRetrieveData(fixture.auth(), GitHubAuthProvider::GetCredential(token.c_str()), "GitHub sign-in");
  CHECK_EQ(result.additional_user_info.provider_id, std::string("github.com"));
  CHECK_EQ(result.additional_user_info.user_name, std::string("octocat"));
  CHECK_EQ(ProfileField(result.additional_user_info, "login"), std::string("octocat"));
  CHECK_EQ(result.credential.access_token(), token);
  CHECK_EQ(result.user.display_name(), std::string("The Octocat"));
  CHECK_EQ(ProviderInfo(result.user, "github.com").uid(), github.sub);
}

HEARTH_EMULATOR_TEST(testPlayGamesServerAuthCodeIsRefusedByTheEmulator) {
  // The server auth code goes to Firebase as `code`, which only Google's servers can redeem; the
  // emulator (like Firebase's) signs in with fake tokens only and says so.
  TestApp fixture;
  Future<AuthResult> future =
      fixture.auth()->SignInAndRetrieveDataWithCredential(PlayGamesAuthProvider::GetCredential("4/server-auth-code"));
  REQUIRE(future.Wait(kOperationTimeoutMs));
  CHECK_NE(future.error(), 0);
  CHECK(std::strlen(future.error_message()) > 0);
  CHECK(!fixture.auth()->current_user().is_valid());
}

HEARTH_EMULATOR_TEST(testGenericOAuthProvidersSignInWithIdOrAccessTokens) {
  TestApp fixture;
  auth::Auth* auth = fixture.auth();
  FakeIdentity microsoft;
  microsoft.sub = NewSubject("ms");
  microsoft.email = NewEmail("microsoft");
  const std::string microsoft_token = microsoft.Json();
  const AuthResult signed_in = SignInAndRetrieveData(
      auth, OAuthProvider::GetCredential(MicrosoftAuthProvider::kProviderId, microsoft_token.c_str(), "ms-access"),
      "Microsoft sign-in");
  CHECK_EQ(signed_in.additional_user_info.provider_id, std::string("microsoft.com"));
  CHECK_EQ(signed_in.credential.id_token(), microsoft_token);
  CHECK_EQ(signed_in.credential.access_token(), std::string("ms-access"));
  CHECK_EQ(ProviderInfo(signed_in.user, "microsoft.com").uid(), microsoft.sub);

  auth->SignOut();
  FakeIdentity yahoo;
  yahoo.sub = NewSubject("y");
  const std::string yahoo_token = yahoo.Json();
  const AuthResult yahoo_result = SignInAndRetrieveData(
      auth, OAuthProvider::GetCredential(YahooAuthProvider::kProviderId, nullptr, yahoo_token.c_str()), "Yahoo sign-in");
  CHECK_EQ(yahoo_result.additional_user_info.provider_id, std::string("yahoo.com"));
  CHECK_NE(yahoo_result.user.uid(), signed_in.user.uid());

  // An OIDC provider binds its ID token to a nonce.
  auth->SignOut();
  const Nonce nonce = Nonce::Generate();
  FakeIdentity corp;
  corp.sub = NewSubject("corp");
  corp.nonce = nonce.sha256;
  const std::string corp_token = corp.Json();
  Future<AuthResult> without_nonce =
      auth->SignInAndRetrieveDataWithCredential(OAuthProvider::GetCredential("oidc.corp", corp_token.c_str(), nullptr));
  CHECK(WaitForCompletion(without_nonce, "OIDC without the raw nonce", auth::kAuthErrorInvalidCredential));
  const AuthResult corp_result = SignInAndRetrieveData(
      auth, OAuthProvider::GetCredential("oidc.corp", corp_token.c_str(), nonce.raw.c_str(), nullptr), "OIDC sign-in");
  CHECK_EQ(corp_result.additional_user_info.provider_id, std::string("oidc.corp"));
  CHECK_EQ(ProviderInfo(corp_result.user, "oidc.corp").uid(), corp.sub);
}

HEARTH_EMULATOR_TEST(testAppleSignsInOnlyWithTheRawNonceOfItsIdToken) {
  TestApp fixture;
  auth::Auth* auth = fixture.auth();
  const Nonce nonce = Nonce::Generate();
  FakeIdentity apple;
  apple.sub = NewSubject("apple");
  apple.email = NewEmail("apple");
  apple.email_verified = 1;
  apple.nonce = nonce.sha256;
  const std::string id_token = apple.Json();

  Future<AuthResult> wrong = auth->SignInAndRetrieveDataWithCredential(
      OAuthProvider::GetCredential("apple.com", id_token.c_str(), "not-the-raw-nonce", nullptr));
  CHECK(WaitForCompletion(wrong, "Apple with the wrong raw nonce", auth::kAuthErrorInvalidCredential));
  CHECK(std::strstr(wrong.error_message(), "nonce") != nullptr);

  // With the user's name, which Apple sends on the first authorization only.
  const AuthResult result = SignInAndRetrieveData(
      auth, AppleAuthProvider::GetCredential(id_token.c_str(), nonce.raw.c_str(), nullptr, "Ada", "Lovelace"),
      "Apple sign-in");
  CHECK(result.additional_user_info.is_new_user);
  CHECK_EQ(result.additional_user_info.provider_id, std::string("apple.com"));
  CHECK_EQ(result.user.email(), apple.email);
  CHECK_EQ(ProviderInfo(result.user, "apple.com").uid(), apple.sub);
  CHECK_EQ(result.credential.provider(), std::string("apple.com"));
  CHECK_EQ(result.credential.id_token(), id_token);
}

HEARTH_EMULATOR_TEST(testAnEmptyTokenIsRefusedWhenUsed) {
  TestApp fixture;
  const Credential empty = GitHubAuthProvider::GetCredential("");
  REQUIRE(empty.is_valid());
  Future<AuthResult> future = fixture.auth()->SignInAndRetrieveDataWithCredential(empty);
  CHECK(WaitForCompletion(future, "GitHub with an empty token", auth::kAuthErrorInvalidCredential));
  Future<AuthResult> invalid = fixture.auth()->SignInAndRetrieveDataWithCredential(Credential());
  REQUIRE(invalid.Wait(kOperationTimeoutMs));
  CHECK_NE(invalid.error(), 0);
  CHECK(!fixture.auth()->current_user().is_valid());
}
