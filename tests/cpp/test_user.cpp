// hearth::auth::User: snapshots, tokens and account operations (ported C++ SDK integration tests plus
// Hearth's snapshot semantics).
#include "harness.h"

using hearth::Future;
using hearth::auth::AuthResult;
using hearth::auth::User;
using namespace hearth_test;

namespace {

std::string ClaimOf(const std::string& token, const char* claim) {
  const std::map<std::string, std::string> claims = hearth::detail::ParseProfile(JwtPayload(token));
  auto it = claims.find(claim);
  return it == claims.end() ? std::string() : it->second;
}

std::string Token(const User& user, bool force_refresh) {
  Future<std::string> future = user.GetToken(force_refresh);
  REQUIRE(WaitForCompletion(future, force_refresh ? "GetToken(true)" : "GetToken(false)"));
  REQUIRE(future.result() != nullptr);
  return *future.result();
}

}  // namespace

HEARTH_EMULATOR_TEST(testGetTokenReturnsTheCachedTokenUnlessForced) {
  TestApp fixture;
  const User user = SignInAnonymously(fixture.auth());
  const std::string first = Token(user, false);
  CHECK(!first.empty());
  CHECK_EQ(ClaimOf(first, "user_id"), user.uid());
  CHECK_EQ(Token(user, false), first);

  // Tokens carry whole seconds: wait so a fresh one must differ.
  SleepMs(1100);
  const std::string forced = Token(user, true);
  CHECK(!forced.empty());
  CHECK_NE(forced, first);
  CHECK_EQ(ClaimOf(forced, "user_id"), user.uid());
  // The refreshed token is now the cached one, also through a newer snapshot.
  CHECK_EQ(Token(fixture.auth()->current_user(), false), forced);

  Future<std::string> last = user.GetTokenLastResult();
  REQUIRE(WaitForCompletion(last, "GetTokenLastResult"));
  CHECK_EQ(*last.result(), forced);
}

HEARTH_EMULATOR_TEST(testReloadFetchesChangesMadeElsewhere) {
  TestApp fixture;
  const std::string email = NewEmail();
  const User user = CreateUser(fixture.auth(), email);

  // The same account, changed through another app.
  TestApp other("reload-other");
  const User elsewhere = SignIn(other.auth(), email);
  User::UserProfile profile;
  profile.display_name = "Changed Elsewhere";
  REQUIRE(WaitForCompletion(elsewhere.UpdateUserProfile(profile), "UpdateUserProfile (other app)"));

  CHECK_EQ(fixture.auth()->current_user().display_name(), std::string());
  Future<void> reload = user.Reload();
  REQUIRE(WaitForCompletion(reload, "Reload"));
  CHECK_EQ(fixture.auth()->current_user().display_name(), std::string("Changed Elsewhere"));
  CHECK_EQ(fixture.auth()->current_user().uid(), user.uid());
  // The old snapshot does not change.
  CHECK_EQ(user.display_name(), std::string());
  Future<void> last = user.ReloadLastResult();
  CHECK_EQ(last.status(), hearth::kFutureStatusComplete);
  CHECK_EQ(last.error(), 0);
}

HEARTH_EMULATOR_TEST(TestUpdateUserProfile) {
  TestApp fixture;
  hearth::auth::Auth* auth = fixture.auth();
  const std::string email = NewEmail();
  Future<AuthResult> create_user = auth->CreateUserWithEmailAndPassword(email.c_str(), kTestPassword);
  REQUIRE(WaitForCompletion(create_user, "CreateUserWithEmailAndPassword"));
  CHECK(auth->current_user().is_valid());
  // Set some user profile properties.
  User user = create_user.result()->user;
  const char kDisplayName[] = "Hello World";
  const char kPhotoUrl[] = "http://example.com/image.jpg";
  User::UserProfile user_profile;
  user_profile.display_name = kDisplayName;
  user_profile.photo_url = kPhotoUrl;
  Future<void> update_profile = user.UpdateUserProfile(user_profile);
  REQUIRE(WaitForCompletion(update_profile, "UpdateUserProfile"));
  user = auth->current_user();
  CHECK_EQ(user.display_name(), std::string(kDisplayName));
  CHECK_EQ(user.photo_url(), std::string(kPhotoUrl));
  auth->SignOut();
  SignIn(auth, email);
  user = auth->current_user();
  CHECK_EQ(user.display_name(), std::string(kDisplayName));
  CHECK_EQ(user.photo_url(), std::string(kPhotoUrl));
  CHECK_EQ(user.UpdateUserProfileLastResult().error(), 0);
  CHECK(WaitForCompletion(user.Delete(), "Delete"));
}

HEARTH_EMULATOR_TEST(TestUpdateUserProfileNull) {
  TestApp fixture;
  hearth::auth::Auth* auth = fixture.auth();
  const std::string email = NewEmail();
  User user = CreateUser(auth, email);
  const char kDisplayName[] = "Hello World";
  const char kPhotoUrl[] = "http://example.com/image.jpg";
  User::UserProfile user_profile;
  user_profile.display_name = kDisplayName;
  user_profile.photo_url = kPhotoUrl;
  REQUIRE(WaitForCompletion(user.UpdateUserProfile(user_profile), "UpdateUserProfile"));
  user = auth->current_user();
  CHECK_EQ(user.display_name(), std::string(kDisplayName));
  CHECK_EQ(user.photo_url(), std::string(kPhotoUrl));

  // NULL fields leave the values alone.
  User::UserProfile user_profile_null;
  CHECK(user_profile_null.display_name == nullptr);
  CHECK(user_profile_null.photo_url == nullptr);
  REQUIRE(WaitForCompletion(user.UpdateUserProfile(user_profile_null), "UpdateUserProfile (null)"));
  user = auth->current_user();
  CHECK_EQ(user.display_name(), std::string(kDisplayName));
  CHECK_EQ(user.photo_url(), std::string(kPhotoUrl));
  auth->SignOut();
  SignIn(auth, email);
  user = auth->current_user();
  CHECK_EQ(user.display_name(), std::string(kDisplayName));
  CHECK_EQ(user.photo_url(), std::string(kPhotoUrl));

  // One NULL field: only the other one changes.
  User::UserProfile name_only;
  name_only.display_name = "New Name";
  REQUIRE(WaitForCompletion(user.UpdateUserProfile(name_only), "UpdateUserProfile (name only)"));
  user = auth->current_user();
  CHECK_EQ(user.display_name(), std::string("New Name"));
  CHECK_EQ(user.photo_url(), std::string(kPhotoUrl));
  CHECK(WaitForCompletion(user.Delete(), "Delete"));
}

HEARTH_EMULATOR_TEST(TestUpdateUserProfileEmpty) {
  TestApp fixture;
  hearth::auth::Auth* auth = fixture.auth();
  const std::string email = NewEmail();
  User user = CreateUser(auth, email);
  const char kDisplayName[] = "Hello World";
  const char kPhotoUrl[] = "http://example.com/image.jpg";
  User::UserProfile user_profile;
  user_profile.display_name = kDisplayName;
  user_profile.photo_url = kPhotoUrl;
  REQUIRE(WaitForCompletion(user.UpdateUserProfile(user_profile), "UpdateUserProfile"));
  user = auth->current_user();
  CHECK_EQ(user.display_name(), std::string(kDisplayName));
  CHECK_EQ(user.photo_url(), std::string(kPhotoUrl));

  // Empty fields delete the values.
  User::UserProfile user_profile_empty;
  user_profile_empty.display_name = "";
  user_profile_empty.photo_url = "";
  REQUIRE(WaitForCompletion(user.UpdateUserProfile(user_profile_empty), "UpdateUserProfile (empty)"));
  user = auth->current_user();
  CHECK_EQ(user.display_name(), std::string());
  CHECK_EQ(user.photo_url(), std::string());
  auth->SignOut();
  SignIn(auth, email);
  user = auth->current_user();
  CHECK_EQ(user.display_name(), std::string());
  CHECK_EQ(user.photo_url(), std::string());
  CHECK(WaitForCompletion(user.Delete(), "Delete"));
}

HEARTH_EMULATOR_TEST(TestUpdatePasswordAndSendEmailVerification) {
  TestApp fixture;
  hearth::auth::Auth* auth = fixture.auth();
  const std::string email = NewEmail();
  CreateUser(auth, email);
  User user = auth->current_user();
  CHECK(user.is_valid());
  CHECK(WaitForCompletion(user.UpdatePassword(kTestPasswordUpdated), "UpdatePassword"));
  CHECK_EQ(user.UpdatePasswordLastResult().error(), 0);
  // Still signed in after the password change.
  user = auth->current_user();
  CHECK(user.is_valid());
  CHECK(WaitForCompletion(user.SendEmailVerification(), "SendEmailVerification"));

  auth->SignOut();
  CHECK(WaitForCompletion(auth->SignInWithEmailAndPassword(email.c_str(), kTestPassword), "sign in (old password)",
                          hearth::auth::kAuthErrorWrongPassword));
  SignIn(auth, email, kTestPasswordUpdated);
  CHECK(WaitForCompletion(auth->current_user().Delete(), "Delete"));
}

HEARTH_EMULATOR_TEST(testUpdateEmailMovesTheSignInToTheNewUnverifiedAddress) {
  TestApp fixture;
  hearth::auth::Auth* auth = fixture.auth();
  const std::string email = NewEmail("old");
  const std::string new_email = NewEmail("new");
  const User user = CreateUser(auth, email);
  Future<void> future = user.UpdateEmail(new_email.c_str());
  REQUIRE(WaitForCompletion(future, "UpdateEmail"));
  CHECK(user.UpdateEmailLastResult() != future);  // another reference to the same operation
  CHECK_EQ(user.UpdateEmailLastResult().error(), 0);
  CHECK_EQ(user.email(), email);  // the snapshot keeps what it had
  const User current = auth->current_user();
  CHECK_EQ(current.uid(), user.uid());
  CHECK_EQ(current.email(), new_email);
  CHECK(!current.is_email_verified());
  auth->SignOut();
  CHECK(WaitForCompletion(auth->SignInWithEmailAndPassword(email.c_str(), kTestPassword), "sign in (old address)",
                          hearth::auth::kAuthErrorUserNotFound));
  CHECK_EQ(SignIn(auth, new_email).uid(), user.uid());
}

HEARTH_EMULATOR_TEST(testUpdateEmailErrors) {
  TestApp fixture;
  hearth::auth::Auth* auth = fixture.auth();
  const std::string taken = NewEmail("taken");
  CreateUser(auth, taken);
  const User user = CreateUser(auth, NewEmail("mover"));
  CHECK(WaitForCompletion(user.UpdateEmail(taken.c_str()), "UpdateEmail (taken)",
                          hearth::auth::kAuthErrorEmailAlreadyInUse));
  CHECK(WaitForCompletion(user.UpdateEmail(""), "UpdateEmail (empty)", hearth::auth::kAuthErrorMissingEmail));
  CHECK(WaitForCompletion(user.UpdateEmail("not-an-address"), "UpdateEmail (malformed)",
                          hearth::auth::kAuthErrorInvalidEmail));
  CHECK(WaitForCompletion(user.UpdateEmail(nullptr), "UpdateEmail (null)", hearth::auth::kAuthErrorInvalidArgument));
  CHECK_EQ(auth->current_user().email(), user.email());
  CHECK_EQ(User().UpdateEmail("a@example.com").status(), hearth::kFutureStatusInvalid);
}

HEARTH_EMULATOR_TEST(testSendEmailVerificationSendsAVerifyEmailCode) {
  TestApp fixture;
  const std::string email = NewEmail();
  const User user = CreateUser(fixture.auth(), email);
  CHECK(!HasOobCode(email, "VERIFY_EMAIL"));
  Future<void> future = user.SendEmailVerification();
  CHECK(WaitForCompletion(future, "SendEmailVerification"));
  CHECK(HasOobCode(email, "VERIFY_EMAIL"));
  Future<void> last = user.SendEmailVerificationLastResult();
  CHECK_EQ(last.status(), hearth::kFutureStatusComplete);
  CHECK_EQ(last.error(), 0);
}

HEARTH_EMULATOR_TEST(TestVerifyBeforeUpdatingEmail) {
  TestApp fixture;
  hearth::auth::Auth* auth = fixture.auth();
  const std::string email = NewEmail();
  CreateUser(auth, email);
  User user = auth->current_user();
  const std::string new_email = "new_" + email;
  CHECK(WaitForCompletion(user.SendEmailVerificationBeforeUpdatingEmail(new_email.c_str()),
                          "SendEmailVerificationBeforeUpdatingEmail"));
  CHECK(user.is_valid());
  // The address changes only once the code is applied.
  CHECK_EQ(auth->current_user().email(), email);
  bool found = false;
  for (const auto& code : OobCodes()) {
    auto type = code.find("requestType");
    auto target = code.find("newEmail");
    if (type != code.end() && type->second == "VERIFY_AND_CHANGE_EMAIL" && target != code.end() &&
        target->second == new_email) {
      found = true;
    }
  }
  CHECK(found);
  CHECK_EQ(user.SendEmailVerificationBeforeUpdatingEmailLastResult().error(), 0);
  CHECK(WaitForCompletion(auth->current_user().Delete(), "Delete"));
}

HEARTH_EMULATOR_TEST(testDeleteRemovesTheAccountAndSignsOut) {
  TestApp fixture;
  hearth::auth::Auth* auth = fixture.auth();
  const std::string email = NewEmail();
  const User user = CreateUser(auth, email);
  Future<void> deleted = user.Delete();
  REQUIRE(WaitForCompletion(deleted, "Delete"));
  CHECK(!auth->current_user().is_valid());
  Future<void> last = user.DeleteLastResult();
  CHECK_EQ(last.status(), hearth::kFutureStatusComplete);
  CHECK_EQ(last.error(), 0);
  CHECK(WaitForCompletion(auth->SignInWithEmailAndPassword(email.c_str(), kTestPassword), "sign in (deleted)",
                          hearth::auth::kAuthErrorUserNotFound));
  Future<hearth::auth::FetchProvidersResult> providers = auth->FetchProvidersForEmail(email.c_str());
  REQUIRE(WaitForCompletion(providers, "FetchProvidersForEmail (deleted)"));
  CHECK(providers.result()->providers.empty());
}

HEARTH_EMULATOR_TEST(TestOperationsOnInvalidUser) {
  TestApp fixture;
  hearth::auth::Auth* auth = fixture.auth();
  CHECK(!auth->current_user().is_valid());

  User invalid_user = auth->current_user();
  Future<std::string> string_future;
  Future<void> void_future;

  string_future = invalid_user.GetToken(/*force_refresh=*/true);
  WaitForCompletionOrInvalidStatus(string_future, "GetToken");
  CHECK_NE(string_future.error(), hearth::auth::kAuthErrorNone);

  void_future = invalid_user.UpdatePassword(kTestPassword);
  WaitForCompletionOrInvalidStatus(void_future, "UpdatePassword");
  CHECK_NE(void_future.error(), hearth::auth::kAuthErrorNone);

  void_future = invalid_user.SendEmailVerification();
  WaitForCompletionOrInvalidStatus(void_future, "SendEmailVerification");
  CHECK_NE(void_future.error(), hearth::auth::kAuthErrorNone);

  void_future = invalid_user.SendEmailVerificationBeforeUpdatingEmail(NewEmail().c_str());
  WaitForCompletionOrInvalidStatus(void_future, "SendEmailVerificationBeforeUpdatingEmail");
  CHECK_NE(void_future.error(), hearth::auth::kAuthErrorNone);

  User::UserProfile profile;
  void_future = invalid_user.UpdateUserProfile(profile);
  WaitForCompletionOrInvalidStatus(void_future, "UpdateUserProfile");
  CHECK_NE(void_future.error(), hearth::auth::kAuthErrorNone);

  void_future = invalid_user.Reload();
  WaitForCompletionOrInvalidStatus(void_future, "Reload");
  CHECK_NE(void_future.error(), hearth::auth::kAuthErrorNone);

  void_future = invalid_user.Delete();
  WaitForCompletionOrInvalidStatus(void_future, "Delete");
  CHECK_NE(void_future.error(), hearth::auth::kAuthErrorNone);

  // Accessors of an invalid user are empty, never a crash; a default-constructed User is the same.
  for (const User& user : {invalid_user, User()}) {
    CHECK(!user.is_valid());
    CHECK_EQ(user.uid(), std::string());
    CHECK_EQ(user.email(), std::string());
    CHECK_EQ(user.provider_id(), std::string());
    CHECK(!user.is_anonymous());
    CHECK(!user.is_email_verified());
    CHECK(user.provider_data().empty());
    CHECK_EQ(user.metadata().creation_timestamp, uint64_t{0});
    CHECK_EQ(user.GetToken(false).status(), hearth::kFutureStatusInvalid);
    CHECK_EQ(user.GetToken(false).error(), -1);
  }
  CHECK_EQ(User().GetTokenLastResult().status(), hearth::kFutureStatusInvalid);
}

HEARTH_EMULATOR_TEST(testOperationsOnASignedOutSnapshotFailWithNoSignedInUser) {
  TestApp fixture;
  hearth::auth::Auth* auth = fixture.auth();
  const User snapshot = SignInAnonymously(auth);
  auth->SignOut();
  CHECK(snapshot.is_valid());
  CHECK(WaitForCompletion(snapshot.GetToken(true), "GetToken", hearth::auth::kAuthErrorNoSignedInUser));
  User::UserProfile profile;
  profile.display_name = "Nobody";
  CHECK(WaitForCompletion(snapshot.UpdateUserProfile(profile), "UpdateUserProfile",
                          hearth::auth::kAuthErrorNoSignedInUser));
  CHECK(WaitForCompletion(snapshot.Delete(), "Delete", hearth::auth::kAuthErrorNoSignedInUser));
  // Another user signing in does not make the old snapshot act on it.
  const User other = SignInAnonymously(auth);
  CHECK_NE(other.uid(), snapshot.uid());
  CHECK(WaitForCompletion(snapshot.Reload(), "Reload", hearth::auth::kAuthErrorNoSignedInUser));
  CHECK(auth->current_user().is_valid());
  CHECK_EQ(auth->current_user().uid(), other.uid());
}

// The C++ SDK's TestCopyUser, for snapshots: copies share the snapshot; after deletion they still
// describe the deleted user but can no longer act.
HEARTH_EMULATOR_TEST(TestCopyUser) {
  TestApp fixture;
  hearth::auth::Auth* auth = fixture.auth();
  SignInAnonymously(auth);
  REQUIRE(auth->current_user().is_valid());
  CHECK(auth->current_user().is_anonymous());
  CHECK(!auth->current_user().uid().empty());

  // Copy constructor.
  User copy_of_user(auth->current_user());
  CHECK(copy_of_user.is_valid());
  CHECK(copy_of_user.is_anonymous());
  CHECK_EQ(auth->current_user().uid(), copy_of_user.uid());
  // Assignment operator.
  User assigned_user = copy_of_user;
  CHECK(assigned_user.is_valid());
  CHECK(assigned_user.is_anonymous());
  CHECK_EQ(auth->current_user().uid(), assigned_user.uid());
  CHECK(assigned_user == copy_of_user);
  // Move.
  User moved_user(std::move(assigned_user));
  CHECK(moved_user.is_valid());
  CHECK(!assigned_user.is_valid());  // NOLINT(bugprone-use-after-move): specified behaviour

  REQUIRE(WaitForCompletion(auth->current_user().Delete(), "Delete"));
  CHECK(!auth->current_user().is_valid());
  CHECK(copy_of_user.is_valid());
  CHECK_EQ(copy_of_user.uid(), moved_user.uid());
  CHECK(WaitForCompletion(copy_of_user.GetToken(true), "GetToken (deleted)", hearth::auth::kAuthErrorNoSignedInUser));
}

HEARTH_EMULATOR_TEST(testUserSnapshotsDoNotChangeAfterUpdates) {
  TestApp fixture;
  const User before = CreateUser(fixture.auth(), NewEmail());
  User::UserProfile profile;
  profile.display_name = "After";
  REQUIRE(WaitForCompletion(before.UpdateUserProfile(profile), "UpdateUserProfile"));
  CHECK_EQ(before.display_name(), std::string());
  const User after = fixture.auth()->current_user();
  CHECK_EQ(after.display_name(), std::string("After"));
  CHECK_EQ(after.uid(), before.uid());
  CHECK(after == before);  // the same user, whatever the snapshot
}

HEARTH_EMULATOR_TEST(testUsersAndTheirFuturesOutliveTheApp) {
  auto fixture = std::make_unique<TestApp>();
  const User user = SignInAnonymously(fixture->auth());
  Future<std::string> token = user.GetToken(false);
  REQUIRE(WaitForCompletion(token, "GetToken"));
  const std::string uid = user.uid();
  fixture.reset();
  CHECK(user.is_valid());
  CHECK_EQ(user.uid(), uid);
  CHECK_EQ(token.status(), hearth::kFutureStatusComplete);
  CHECK(!token.result()->empty());
  // Operations and LastResults of a snapshot whose app is gone fail cleanly.
  CHECK_EQ(user.GetTokenLastResult().status(), hearth::kFutureStatusInvalid);
  Future<std::string> after = user.GetToken(true);
  WaitForCompletionOrInvalidStatus(after, "GetToken (app deleted)");
  CHECK_NE(after.error(), 0);
}
