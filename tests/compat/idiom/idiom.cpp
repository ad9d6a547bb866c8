// A program written the way Firebase C++ SDK code is written (its quickstart and integration tests:
// WaitForFuture polling loops, listener counters, LastResult checks, expected error codes), built
// against Hearth's compatibility headers alone and run against hearth-emulator.
//
// It includes only firebase/... headers. It finds its configuration the SDK's desktop way:
// google-services.json in the working directory (App::Create()), and the emulator through
// USE_AUTH_EMULATOR / AUTH_EMULATOR_PORT. Every expectation that fails prints "ERROR:" and makes the
// exit status 1.
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <ctime>
#include <functional>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "firebase/app.h"
#include "firebase/auth.h"
#include "firebase/auth/credential.h"
#include "firebase/auth/types.h"
#include "firebase/auth/user.h"
#include "firebase/future.h"
#include "firebase/log.h"
#include "firebase/util.h"
#include "firebase/variant.h"

#include "emulator_http.h"

using ::firebase::App;
using ::firebase::AppOptions;
using ::firebase::Future;
using ::firebase::FutureBase;
using ::firebase::Variant;
using ::firebase::auth::AdditionalUserInfo;
using ::firebase::auth::Auth;
using ::firebase::auth::AuthError;
using ::firebase::auth::AuthResult;
using ::firebase::auth::Credential;
using ::firebase::auth::EmailAuthProvider;
using ::firebase::auth::FacebookAuthProvider;
using ::firebase::auth::FederatedOAuthProvider;
using ::firebase::auth::FederatedOAuthProviderData;
using ::firebase::auth::GameCenterAuthProvider;
using ::firebase::auth::GitHubAuthProvider;
using ::firebase::auth::GoogleAuthProvider;
using ::firebase::auth::kAuthErrorNone;
using ::firebase::auth::MicrosoftAuthProvider;
using ::firebase::auth::OAuthProvider;
using ::firebase::auth::PhoneAuthCredential;
using ::firebase::auth::PhoneAuthOptions;
using ::firebase::auth::PhoneAuthProvider;
using ::firebase::auth::PlayGamesAuthProvider;
using ::firebase::auth::TwitterAuthProvider;
using ::firebase::auth::User;
using ::firebase::auth::UserInfoInterface;
using ::firebase::auth::UserMetadata;
using ::firebase::auth::YahooAuthProvider;

namespace {

int g_errors = 0;
int g_checks = 0;

void LogMessage(const char* format, ...) {
  va_list list;
  va_start(list, format);
  vprintf(format, list);
  va_end(list);
  printf("\n");
  fflush(stdout);
}

void Expect(bool condition, const char* what, int line) {
  ++g_checks;
  if (!condition) {
    ++g_errors;
    LogMessage("ERROR: line %d: %s", line, what);
  }
}
#define EXPECT(condition) Expect((condition), #condition, __LINE__)

bool ProcessEvents(int msec) {
  usleep(msec * 1000);
  return false;
}

// Waits for `future` the SDK's way (polling status()), then checks its error. False on any mismatch.
bool WaitForFuture(const FutureBase& future, const char* fn, int expected_error = kAuthErrorNone) {
  if (future.status() == ::firebase::kFutureStatusInvalid) {
    ++g_errors;
    LogMessage("ERROR: Future for %s is invalid", fn);
    return false;
  }
  int waited = 0;
  while (future.status() == ::firebase::kFutureStatusPending) {
    ProcessEvents(10);
    waited += 10;
    if (waited > 20000) {
      ++g_errors;
      LogMessage("ERROR: %s did not complete in 20 s", fn);
      return false;
    }
  }
  ++g_checks;
  if (future.error() != expected_error) {
    ++g_errors;
    LogMessage("ERROR: %s completed with error %d (%s), expected %d", fn, future.error(), future.error_message(),
               expected_error);
    return false;
  }
  LogMessage("  %s completed as expected (%d)", fn, future.error());
  return true;
}

bool WaitFor(const std::function<bool()>& condition, int timeout_ms = 10000) {
  for (int waited = 0; !condition(); waited += 10) {
    if (waited >= timeout_ms) return false;
    ProcessEvents(10);
  }
  return true;
}

std::string NewEmail(const char* tag) {
  static int counter = 0;
  std::stringstream email;
  email << tag << "_" << getpid() << "_" << std::time(nullptr) << "_" << ++counter << "@example.com";
  return email.str();
}

std::string NewSubject(const char* tag) {
  static int counter = 0;
  return std::string(tag) + "-" + std::to_string(getpid()) + "-" + std::to_string(++counter);
}

const char kPassword[] = "testEmailPassword123";
const char kBadToken[] = "{bad token for testing";

// ---- listeners -------------------------------------------------------------------------------------

class AuthStateChangeCounter : public firebase::auth::AuthStateListener {
 public:
  void OnAuthStateChanged(Auth* auth) override {
    std::lock_guard<std::mutex> lock(mutex_);
    ++changes_;
    uids_.push_back(auth->current_user().uid());
    thread_ = std::this_thread::get_id();
  }
  int changes() {
    std::lock_guard<std::mutex> lock(mutex_);
    return changes_;
  }
  std::vector<std::string> uids() {
    std::lock_guard<std::mutex> lock(mutex_);
    return uids_;
  }
  std::thread::id thread() {
    std::lock_guard<std::mutex> lock(mutex_);
    return thread_;
  }

 private:
  std::mutex mutex_;
  int changes_ = 0;
  std::vector<std::string> uids_;
  std::thread::id thread_;
};

class IdTokenChangeCounter : public firebase::auth::IdTokenListener {
 public:
  void OnIdTokenChanged(Auth*) override { ++changes_; }
  int changes() const { return changes_.load(); }

 private:
  std::atomic<int> changes_{0};
};

class PhoneListener : public PhoneAuthProvider::Listener {
 public:
  void OnVerificationCompleted(PhoneAuthCredential) override { ++completed_; }
  void OnVerificationFailed(const std::string& error) override {
    std::lock_guard<std::mutex> lock(mutex_);
    error_ = error;
    ++failed_;
  }
  void OnCodeSent(const std::string& verification_id,
                  const PhoneAuthProvider::ForceResendingToken& force_resending_token) override {
    std::lock_guard<std::mutex> lock(mutex_);
    verification_id_ = verification_id;
    token_ = force_resending_token;
    ++sent_;
  }
  void OnCodeAutoRetrievalTimeOut(const std::string&) override { ++timed_out_; }

  int sent() const { return sent_.load(); }
  int failed() const { return failed_.load(); }
  int completed() const { return completed_.load(); }
  std::string verification_id() {
    std::lock_guard<std::mutex> lock(mutex_);
    return verification_id_;
  }
  PhoneAuthProvider::ForceResendingToken token() {
    std::lock_guard<std::mutex> lock(mutex_);
    return token_;
  }
  std::string error() {
    std::lock_guard<std::mutex> lock(mutex_);
    return error_;
  }

 private:
  std::mutex mutex_;
  std::atomic<int> sent_{0}, failed_{0}, completed_{0}, timed_out_{0};
  std::string verification_id_, error_;
  PhoneAuthProvider::ForceResendingToken token_;
};

// ---- scenarios -------------------------------------------------------------------------------------

void TestInitialization(App* app, Auth* auth) {
  LogMessage("TestInitialization");
  EXPECT(app != nullptr && auth != nullptr);
  EXPECT(std::strcmp(app->name(), firebase::kDefaultAppName) == 0);
  EXPECT(App::GetInstance() == app);
  EXPECT(App::GetInstance(firebase::kDefaultAppName) == app);
  EXPECT(App::GetApps().size() == 1);
  EXPECT(std::strcmp(app->options().project_id(), emulator_http::ProjectId().c_str()) == 0);
  EXPECT(std::strlen(app->options().api_key()) > 0);
  EXPECT(std::strlen(app->options().app_id()) > 0);
  // Creating the default app again hands back the live one.
  EXPECT(App::Create(app->options()) == app);
  EXPECT(Auth::GetAuth(app) == auth);
  EXPECT(&auth->app() == app);
  firebase::InitResult init_result = firebase::kInitResultFailedMissingDependency;
  EXPECT(Auth::GetAuth(app, &init_result) == auth && init_result == firebase::kInitResultSuccess);
}

void TestLogLevel() {
  LogMessage("TestLogLevel");
  EXPECT(firebase::GetLogLevel() == firebase::kLogLevelInfo);
  firebase::SetLogLevel(firebase::kLogLevelWarning);
  EXPECT(firebase::GetLogLevel() == firebase::kLogLevelWarning);
  // The expected failures below would each log a warning: only errors from here on.
  firebase::SetLogLevel(firebase::kLogLevelError);
  EXPECT(firebase::GetLogLevel() == firebase::kLogLevelError);
}

void TestCredentialCopy() {
  LogMessage("TestCredentialCopy");
  Credential email_cred = EmailAuthProvider::GetCredential("copy@example.com", kPassword);
  Credential facebook_cred = FacebookAuthProvider::GetCredential("a facebook access token");
  Credential cred_copy(email_cred);
  EXPECT(cred_copy.provider() == email_cred.provider());
  EXPECT(cred_copy.provider() == "password");
  cred_copy = facebook_cred;
  EXPECT(cred_copy.provider() == "facebook.com");
  EXPECT(Credential().provider().empty() && !Credential().is_valid());
}

void TestEveryProviderMakesACredential(Auth* auth) {
  LogMessage("TestEveryProviderMakesACredential");
  struct Case {
    Credential credential;
    const char* provider;
  } cases[] = {
      {EmailAuthProvider::GetCredential("someone@example.com", kPassword), EmailAuthProvider::kProviderId},
      {FacebookAuthProvider::GetCredential("fb-access-token"), FacebookAuthProvider::kProviderId},
      {GoogleAuthProvider::GetCredential("google-id-token", "google-access-token"), GoogleAuthProvider::kProviderId},
      {GoogleAuthProvider::GetCredential("google-id-token", nullptr), GoogleAuthProvider::kProviderId},
      {TwitterAuthProvider::GetCredential("token", "secret"), TwitterAuthProvider::kProviderId},
      {GitHubAuthProvider::GetCredential("gh-token"), GitHubAuthProvider::kProviderId},
      {PlayGamesAuthProvider::GetCredential("server-auth-code"), PlayGamesAuthProvider::kProviderId},
      {OAuthProvider::GetCredential(MicrosoftAuthProvider::kProviderId, "id-token", "access-token"), "microsoft.com"},
      {OAuthProvider::GetCredential(YahooAuthProvider::kProviderId, "id-token", "raw-nonce", nullptr), "yahoo.com"},
      {OAuthProvider::GetCredential("apple.com", "id-token", "raw-nonce", "authorization-code"), "apple.com"},
      {PhoneAuthProvider::GetInstance(auth).GetCredential("verification-id", "123456"), PhoneAuthProvider::kProviderId},
  };
  for (const Case& c : cases) {
    EXPECT(c.credential.is_valid());
    EXPECT(c.credential.provider() == c.provider);
  }
  EXPECT(std::strcmp(EmailAuthProvider::kProviderId, "password") == 0);
  EXPECT(std::strcmp(GameCenterAuthProvider::kProviderId, "gc.apple.com") == 0);
  EXPECT(std::strcmp(PhoneAuthProvider::kProviderId, "phone") == 0);
  const PhoneAuthCredential phone = PhoneAuthProvider::GetInstance(auth).GetCredential("verification-id", "123456");
  EXPECT(phone.sms_code().empty());
}

void TestGameCenterIsNotAvailable() {
  LogMessage("TestGameCenterIsNotAvailable");
  EXPECT(!GameCenterAuthProvider::IsPlayerAuthenticated());
  Future<Credential> future = GameCenterAuthProvider::GetCredential();
  EXPECT(future == GameCenterAuthProvider::GetCredentialLastResult());
  WaitForFuture(future, "GameCenterAuthProvider::GetCredential()", firebase::auth::kAuthErrorInvalidCredential);
  EXPECT(future.result() != nullptr && !future.result()->is_valid());
  // The future is complete already: the callback runs at once.
  bool called = false;
  future.OnCompletion([&called](const Future<Credential>& done) {
    called = done.error() == firebase::auth::kAuthErrorInvalidCredential;
  });
  EXPECT(called);
}

void TestModuleInitializer(App* app) {
  LogMessage("TestModuleInitializer");
  ::firebase::ModuleInitializer initializer;
  EXPECT(initializer.InitializeLastResult().status() == firebase::kFutureStatusInvalid);
  initializer.Initialize(app, nullptr, [](::firebase::App* app, void*) {
    ::firebase::InitResult init_result;
    Auth::GetAuth(app, &init_result);
    return init_result;
  });
  while (initializer.InitializeLastResult().status() != firebase::kFutureStatusComplete) {
    if (ProcessEvents(100)) return;
  }
  EXPECT(initializer.InitializeLastResult().error() == 0);
}

void TestTokensAndAuthStateListeners(Auth* auth) {
  LogMessage("TestTokensAndAuthStateListeners");
  AuthStateChangeCounter counter;
  IdTokenChangeCounter token_counter;
  auth->AddAuthStateListener(&counter);
  auth->AddIdTokenListener(&token_counter);
  // Each listener heard, inside its Add call, the state it was added in; adding it again does nothing.
  EXPECT(counter.changes() == 1 && token_counter.changes() == 1);
  EXPECT(counter.thread() == std::this_thread::get_id());
  auth->AddAuthStateListener(&counter);
  EXPECT(counter.changes() == 1);
  auth->SignOut();  // signed out already: no change to hear
  ProcessEvents(200);
  EXPECT(counter.changes() == 1 && token_counter.changes() == 1);

  Future<AuthResult> sign_in = auth->SignInAnonymously();
  WaitForFuture(sign_in, "Auth::SignInAnonymously()");
  EXPECT(WaitFor([&] { return counter.changes() == 2 && token_counter.changes() == 2; }));
  EXPECT(counter.thread() != std::this_thread::get_id());  // later calls come from the App's loop thread
  const std::string uid = auth->current_user().uid();
  EXPECT(counter.uids().back() == uid);

  Future<std::string> token = auth->current_user().GetToken(false);
  WaitForFuture(token, "User::GetToken(false)");
  EXPECT(token.result() != nullptr && !token.result()->empty());
  // Forcing a refresh gives a new token, which the ID token listener hears.
  ProcessEvents(1100);  // a new second, so the issued-at time differs
  Future<std::string> refreshed = auth->current_user().GetToken(true);
  WaitForFuture(refreshed, "User::GetToken(true)");
  EXPECT(refreshed.result() && !refreshed.result()->empty() && *refreshed.result() != *token.result());
  EXPECT(WaitFor([&] { return token_counter.changes() == 3; }));
  EXPECT(counter.changes() == 2);
  EXPECT(refreshed == auth->current_user().GetTokenLastResult());

  auth->SignOut();
  EXPECT(!auth->current_user().is_valid());
  EXPECT(WaitFor([&] { return counter.changes() == 3 && token_counter.changes() == 4; }));
  EXPECT(counter.uids().back().empty());

  auth->RemoveAuthStateListener(&counter);
  auth->RemoveIdTokenListener(&token_counter);
  WaitForFuture(auth->SignInAnonymously(), "Auth::SignInAnonymously() after removing the listeners");
  auth->SignOut();
  ProcessEvents(300);
  EXPECT(counter.changes() == 3 && token_counter.changes() == 4);
}

void TestFutureSemantics(Auth* auth) {
  LogMessage("TestFutureSemantics");
  // Copies and the LastResult are the same operation; a callback set on either runs once.
  std::atomic<int> typed_calls{0};
  Future<AuthResult> future = auth->SignInAnonymously();
  Future<AuthResult> copy = future;
  EXPECT(copy == future && future == auth->SignInAnonymouslyLastResult());
  EXPECT(future.status() == firebase::kFutureStatusPending || future.status() == firebase::kFutureStatusComplete);
  future.OnCompletion(
      [](const Future<AuthResult>& done, void* data) {
        if (done.status() == firebase::kFutureStatusComplete && done.result() != nullptr) {
          ++*static_cast<std::atomic<int>*>(data);
        }
      },
      &typed_calls);
  WaitForFuture(copy, "SignInAnonymously (copy)");
  EXPECT(WaitFor([&] { return typed_calls.load() == 1; }));
  EXPECT(copy.result() != nullptr && copy.result()->user.is_valid());

  // A later OnCompletion replaces an earlier one that has not run.
  std::atomic<int> first{0}, second{0};
  Future<std::string> token = auth->current_user().GetToken(true);
  token.OnCompletion([&first](const FutureBase&) { ++first; });
  token.OnCompletion([&second](const FutureBase& done) {
    if (done.error() == 0) ++second;
  });
  WaitForFuture(token, "GetToken (two callbacks)");
  EXPECT(WaitFor([&] { return second.load() == 1; }));
  ProcessEvents(100);
  EXPECT(first.load() == 0);

  // A callback set on a complete future still runs (on the next loop turn), with the untyped form.
  std::atomic<int> late{0};
  static_cast<const FutureBase&>(token).OnCompletion(
      [](const FutureBase& done, void* data) {
        if (done.error() == 0) ++*static_cast<std::atomic<int>*>(data);
      },
      &late);
  EXPECT(WaitFor([&] { return late.load() == 1; }));

  // Release makes this copy invalid; the others stay.
  Future<std::string> released = token;
  released.Release();
  EXPECT(released.status() == firebase::kFutureStatusInvalid && released.error() == -1);
  EXPECT(released.error_message() == nullptr && released.result() == nullptr);
  EXPECT(token.status() == firebase::kFutureStatusComplete);
  // A default Future is invalid.
  EXPECT(Future<void>().status() == firebase::kFutureStatusInvalid);
  auth->SignOut();
}

void TestEmailAndPasswordSignin(Auth* auth) {
  LogMessage("TestEmailAndPasswordSignin");
  const std::string email = NewEmail("signin");
  Future<AuthResult> create = auth->CreateUserWithEmailAndPassword(email.c_str(), kPassword);
  WaitForFuture(create, "Auth::CreateUserWithEmailAndPassword()");
  EXPECT(create == auth->CreateUserWithEmailAndPasswordLastResult());
  EXPECT(create.result() && create.result()->user.is_valid());
  EXPECT(create.result()->user == auth->current_user());
  const std::string uid = auth->current_user().uid();

  Future<User> with_credential =
      auth->SignInWithCredential(EmailAuthProvider::GetCredential(email.c_str(), kPassword));
  WaitForFuture(with_credential, "Auth::SignInWithCredential()");
  EXPECT(with_credential.result() && with_credential.result()->email() == email);

  Future<AuthResult> retrieve =
      auth->SignInAndRetrieveDataWithCredential(EmailAuthProvider::GetCredential(email.c_str(), kPassword));
  WaitForFuture(retrieve, "Auth::SignInAndRetrieveDataWithCredential()");
  EXPECT(retrieve == auth->SignInAndRetrieveDataWithCredentialLastResult());
  EXPECT(retrieve.result() && retrieve.result()->user.uid() == uid);

  auth->SignOut();
  Future<AuthResult> sign_in = auth->SignInWithEmailAndPassword(email.c_str(), kPassword);
  WaitForFuture(sign_in, "Auth::SignInWithEmailAndPassword()");
  EXPECT(sign_in == auth->SignInWithEmailAndPasswordLastResult());
  EXPECT(sign_in.result() && sign_in.result()->user.uid() == uid);

  const User user = auth->current_user();
  EXPECT(user.email() == email && user.provider_id() == "Firebase");
  EXPECT(!user.is_anonymous() && !user.is_email_verified());
  EXPECT(user.display_name().empty() && user.photo_url().empty());
  const UserMetadata metadata = user.metadata();
  EXPECT(metadata.creation_timestamp != 0 && metadata.last_sign_in_timestamp != 0);
  const std::vector<UserInfoInterface> provider_data = user.provider_data();
  EXPECT(provider_data.size() == 1 && provider_data[0].provider_id() == "password");
  EXPECT(provider_data.size() == 1 && provider_data[0].email() == email);

  Future<Auth::FetchProvidersResult> providers = auth->FetchProvidersForEmail(email.c_str());
  WaitForFuture(providers, "Auth::FetchProvidersForEmail()");
  EXPECT(providers == auth->FetchProvidersForEmailLastResult());
  EXPECT(providers.result() && providers.result()->providers == std::vector<std::string>{"password"});

  Future<void> reset = auth->SendPasswordResetEmail(email.c_str());
  WaitForFuture(reset, "Auth::SendPasswordResetEmail()");
  EXPECT(reset == auth->SendPasswordResetEmailLastResult());

  Future<void> deleted = auth->current_user().Delete();
  WaitForFuture(deleted, "User::Delete()");
  EXPECT(!auth->current_user().is_valid());
  WaitForFuture(auth->SignInWithEmailAndPassword(email.c_str(), kPassword), "sign in after Delete",
                firebase::auth::kAuthErrorUserNotFound);
}

void TestErrors(Auth* auth) {
  LogMessage("TestErrors");
  const std::string email = NewEmail("errors");
  WaitForFuture(auth->CreateUserWithEmailAndPassword(email.c_str(), kPassword), "create");
  auth->SignOut();
  WaitForFuture(auth->SignInWithEmailAndPassword(email.c_str(), "badTestPassword"), "bad password",
                firebase::auth::kAuthErrorWrongPassword);
  WaitForFuture(auth->SignInWithEmailAndPassword(NewEmail("nobody").c_str(), kPassword), "unknown email",
                firebase::auth::kAuthErrorUserNotFound);
  WaitForFuture(auth->CreateUserWithEmailAndPassword(email.c_str(), kPassword), "existing email",
                firebase::auth::kAuthErrorEmailAlreadyInUse);
  WaitForFuture(auth->CreateUserWithEmailAndPassword(NewEmail("weak").c_str(), "123"), "weak password",
                firebase::auth::kAuthErrorWeakPassword);
  WaitForFuture(auth->SignInWithEmailAndPassword("", kPassword), "missing email",
                firebase::auth::kAuthErrorMissingEmail);
  WaitForFuture(auth->SendPasswordResetEmail(NewEmail("unknown").c_str()), "reset for an unknown email",
                firebase::auth::kAuthErrorUserNotFound);
  WaitForFuture(auth->SignInWithCustomToken(""), "empty custom token", firebase::auth::kAuthErrorInvalidCustomToken);
  EXPECT(!auth->current_user().is_valid());

  // Bad identity-provider tokens, with an anonymous user signed in who must stay. (The emulator reads
  // fake tokens as JSON claims: these are not JSON, which it refuses as an invalid IdP response, as
  // Firebase refuses a token the provider does not vouch for.)
  WaitForFuture(auth->SignInAnonymously(), "anonymous user to keep");
  const std::string anonymous_uid = auth->current_user().uid();
  WaitForFuture(auth->SignInWithCredential(FacebookAuthProvider::GetCredential(kBadToken)),
                "bad Facebook credential", firebase::auth::kAuthErrorInvalidCredential);
  WaitForFuture(auth->SignInWithCredential(GitHubAuthProvider::GetCredential(kBadToken)),
                "bad GitHub credential", firebase::auth::kAuthErrorInvalidCredential);
  WaitForFuture(auth->SignInWithCredential(
                    GoogleAuthProvider::GetCredential(kBadToken, kBadToken)),
                "bad Google credential", firebase::auth::kAuthErrorInvalidCredential);
  WaitForFuture(auth->SignInWithCredential(TwitterAuthProvider::GetCredential(kBadToken, "bad secret")),
                "bad Twitter credential", firebase::auth::kAuthErrorInvalidCredential);
  EXPECT(auth->current_user().uid() == anonymous_uid);
  WaitForFuture(auth->current_user().Delete(), "delete the anonymous user");
}

void TestUserHandleFollowsTheCurrentUser(Auth* auth) {
  LogMessage("TestUserHandleFollowsTheCurrentUser");
  WaitForFuture(auth->CreateUserWithEmailAndPassword(NewEmail("retained").c_str(), kPassword), "create");
  User user = auth->current_user();
  User copy(user);
  EXPECT(copy == user && user.is_valid());
  const std::string first_uid = user.uid();

  // Profile updates show at once, through the same User (the quickstart's check).
  User::UserProfile profile;
  profile.display_name = "Hello World";
  profile.photo_url = "http://test.com/image.jpg";
  Future<void> update = user.UpdateUserProfile(profile);
  WaitForFuture(update, "User::UpdateUserProfile");
  EXPECT(update == user.UpdateUserProfileLastResult());
  EXPECT(user.display_name() == "Hello World" && user.photo_url() == "http://test.com/image.jpg");
  // NULL leaves a field, "" deletes it.
  User::UserProfile only_name;
  only_name.display_name = "Only The Name";
  WaitForFuture(user.UpdateUserProfile(only_name), "UpdateUserProfile (NULL photo)");
  EXPECT(user.display_name() == "Only The Name" && user.photo_url() == "http://test.com/image.jpg");
  User::UserProfile empty;
  empty.display_name = "";
  empty.photo_url = "";
  WaitForFuture(user.UpdateUserProfile(empty), "UpdateUserProfile (empty)");
  EXPECT(user.display_name().empty() && user.photo_url().empty());

  // A retained User goes invalid on sign-out and names the next user who signs in.
  auth->SignOut();
  EXPECT(!user.is_valid() && user.uid().empty() && !copy.is_valid());
  EXPECT(user == User());
  // Operations on it give invalid Futures, as in the SDK.
  EXPECT(user.GetToken(false).status() == firebase::kFutureStatusInvalid);
  EXPECT(user.Reload().status() == firebase::kFutureStatusInvalid);
  EXPECT(user.UpdatePassword(kPassword).status() == firebase::kFutureStatusInvalid);
  EXPECT(user.SendEmailVerification().status() == firebase::kFutureStatusInvalid);
  EXPECT(user.Unlink("password").status() == firebase::kFutureStatusInvalid);
  EXPECT(user.Delete().status() == firebase::kFutureStatusInvalid);
  EXPECT(user.DeleteLastResult().status() == firebase::kFutureStatusInvalid);
  WaitForFuture(auth->SignInAnonymously(), "another user signs in");
  EXPECT(user.is_valid() && user.uid() != first_uid && user.uid() == auth->current_user().uid());
  WaitForFuture(user.Delete(), "Delete through the retained User");
  EXPECT(!auth->current_user().is_valid());
  EXPECT(User().GetToken(true).status() == firebase::kFutureStatusInvalid);
}

void TestLinkAnonymousUserWithEmailCredential(Auth* auth) {
  LogMessage("TestLinkAnonymousUserWithEmailCredential");
  WaitForFuture(auth->SignInAnonymously(), "anonymous sign-in");
  User user = auth->current_user();
  EXPECT(user.is_anonymous());
  const std::string email = NewEmail("link");
  Credential credential = EmailAuthProvider::GetCredential(email.c_str(), kPassword);
  Future<AuthResult> link = user.LinkWithCredential(credential);
  WaitForFuture(link, "User::LinkWithCredential (email)");
  EXPECT(link == user.LinkWithCredentialLastResult());
  EXPECT(!user.is_anonymous() && user.email() == email);

  Future<AuthResult> reauth = user.ReauthenticateAndRetrieveData(credential);
  WaitForFuture(reauth, "User::ReauthenticateAndRetrieveData");
  EXPECT(reauth.result() && reauth.result()->user.uid() == user.uid());

  const std::string other_email = NewEmail("link2");
  WaitForFuture(user.LinkWithCredential(EmailAuthProvider::GetCredential(other_email.c_str(), kPassword)),
                "second email link", firebase::auth::kAuthErrorProviderAlreadyLinked);
  Future<AuthResult> unlink = user.Unlink(credential.provider().c_str());
  WaitForFuture(unlink, "User::Unlink(password)");
  EXPECT(unlink == user.UnlinkLastResult());
  WaitForFuture(user.Unlink("password"), "unlink again", firebase::auth::kAuthErrorNoSuchProvider);
  WaitForFuture(user.LinkWithCredential(EmailAuthProvider::GetCredential(other_email.c_str(), kPassword)),
                "link the second email");
  EXPECT(user.email() == other_email);

  // A bad Twitter credential leaves the user as it was.
  WaitForFuture(user.LinkWithCredential(TwitterAuthProvider::GetCredential(kBadToken, "bad secret")),
                "link a bad Twitter credential", firebase::auth::kAuthErrorInvalidCredential);
  EXPECT(user.email() == other_email);
  WaitForFuture(user.Delete(), "delete");
}

void TestIdentityProvidersAndTheirProfiles(Auth* auth) {
  LogMessage("TestIdentityProvidersAndTheirProfiles");
  // A GitHub identity whose profile has every JSON type.
  const std::string github_login = NewSubject("octo");
  const std::string github_token = "{\"sub\":\"" + NewSubject("gh") + "\",\"login\":\"" + github_login +
                                   "\",\"name\":\"Octo Cat\",\"public_repos\":42,\"score\":4.5,\"hireable\":true,"
                                   "\"blog\":null,\"orgs\":[\"firebase\",\"hearth\"],\"plan\":{\"name\":\"pro\","
                                   "\"seats\":3}}";
  Future<AuthResult> github = auth->SignInAndRetrieveDataWithCredential(GitHubAuthProvider::GetCredential(github_token.c_str()));
  if (!WaitForFuture(github, "sign in with GitHub")) return;
  const AdditionalUserInfo& info = github.result()->additional_user_info;
  EXPECT(info.provider_id == "github.com");
  EXPECT(info.user_name == github_login);
  const std::map<Variant, Variant>& profile = info.profile;
  auto field = [&profile](const char* name) -> const Variant& {
    static const Variant missing;
    auto it = profile.find(Variant(name));
    return it == profile.end() ? missing : it->second;
  };
  EXPECT(field("login").is_string() && field("login").string_value() == github_login);
  EXPECT(field("public_repos").is_int64() && field("public_repos").int64_value() == 42);
  EXPECT(field("score").is_double() && field("score").double_value() == 4.5);
  EXPECT(field("hireable").is_bool() && field("hireable").bool_value());
  EXPECT(profile.count(Variant("blog")) == 1 && field("blog").is_null());
  EXPECT(field("orgs").is_vector() && field("orgs").vector().size() == 2 &&
         field("orgs").vector()[1] == Variant("hearth"));
  EXPECT(field("plan").is_map() && field("plan").map().at(Variant("seats")) == Variant(3));
  // The quickstart's way of printing a profile: everything fundamental as a string.
  int printed = 0;
  for (const auto& entry : profile) {
    const Variant& value = entry.second;
    if (value.is_fundamental_type()) {
      const Variant string_value = value.AsString();
      LogMessage("    %s: %s", entry.first.AsString().string_value(), string_value.string_value());
      ++printed;
    }
  }
  EXPECT(printed >= 5);
  EXPECT(field("public_repos").AsString() == Variant("42") && field("hireable").AsString() == Variant("true"));
  EXPECT(field("score").AsInt64().int64_value() == 4 && Variant("17").AsInt64() == Variant(17));
  EXPECT(field("orgs").AsBool() == Variant::True() && Variant::EmptyMap().AsBool() == Variant::False());

  // Linking Google to it: a new provider shows in provider_data.
  const std::string google_token =
      "{\"sub\":\"" + NewSubject("g") + "\",\"email\":\"" + NewEmail("google") + "\",\"email_verified\":true}";
  Future<AuthResult> link =
      auth->current_user().LinkWithCredential(GoogleAuthProvider::GetCredential(google_token.c_str(), nullptr));
  WaitForFuture(link, "link Google");
  EXPECT(link.result() && link.result()->additional_user_info.provider_id == "google.com");
  std::vector<std::string> providers;
  for (const UserInfoInterface& provider : auth->current_user().provider_data()) providers.push_back(provider.provider_id());
  EXPECT(providers.size() == 2);
  const std::string github_uid = auth->current_user().uid();

  // That Google identity is now taken: linking it elsewhere fails with a credential for its account.
  auth->SignOut();
  WaitForFuture(auth->SignInAnonymously(), "a newcomer");
  Future<AuthResult> conflict =
      auth->current_user().LinkWithCredential(GoogleAuthProvider::GetCredential(google_token.c_str(), nullptr));
  WaitForFuture(conflict, "link a taken Google identity", firebase::auth::kAuthErrorCredentialAlreadyInUse);
  EXPECT(conflict.result() && conflict.result()->additional_user_info.updated_credential.is_valid());
  if (conflict.result() && conflict.result()->additional_user_info.updated_credential.is_valid()) {
    Future<User> recovered = auth->SignInWithCredential(conflict.result()->additional_user_info.updated_credential);
    WaitForFuture(recovered, "sign in with the updated credential");
    EXPECT(auth->current_user().uid() == github_uid);
  }
  // Facebook, Twitter and OpenID Connect credentials sign in too.
  auth->SignOut();
  const std::string facebook = "{\"sub\":\"" + NewSubject("fb") + "\",\"name\":\"Face Book\"}";
  Future<AuthResult> fb = auth->SignInAndRetrieveDataWithCredential(FacebookAuthProvider::GetCredential(facebook.c_str()));
  WaitForFuture(fb, "sign in with Facebook");
  EXPECT(fb.result() && fb.result()->additional_user_info.provider_id == "facebook.com");
  const std::string twitter = "{\"sub\":\"" + NewSubject("tw") + "\",\"screen_name\":\"tweety\"}";
  Future<AuthResult> tw =
      auth->SignInAndRetrieveDataWithCredential(TwitterAuthProvider::GetCredential(twitter.c_str(), "twitter-secret"));
  WaitForFuture(tw, "sign in with Twitter");
  EXPECT(tw.result() && tw.result()->additional_user_info.user_name == "tweety");
  WaitForFuture(auth->current_user().Delete(), "delete the Twitter user");
}

void TestReauthenticateAndSensitiveOperations(Auth* auth) {
  LogMessage("TestReauthenticateAndSensitiveOperations");
  const std::string email = NewEmail("sensitive");
  WaitForFuture(auth->CreateUserWithEmailAndPassword(email.c_str(), kPassword), "create");
  User user = auth->current_user();
  Future<void> reauth = user.Reauthenticate(EmailAuthProvider::GetCredential(email.c_str(), kPassword));
  WaitForFuture(reauth, "User::Reauthenticate");
  EXPECT(reauth == user.ReauthenticateLastResult());
  const std::string other = NewEmail("other");
  WaitForFuture(auth->CreateUserWithEmailAndPassword(other.c_str(), kPassword), "another account");
  WaitForFuture(auth->SignInWithEmailAndPassword(email.c_str(), kPassword), "back to the first");
  WaitForFuture(user.Reauthenticate(EmailAuthProvider::GetCredential(other.c_str(), kPassword)),
                "reauthenticate as another account", firebase::auth::kAuthErrorUserMismatch);

  Future<void> password = user.UpdatePassword("testpasswordupdated");
  WaitForFuture(password, "User::UpdatePassword");
  EXPECT(password == user.UpdatePasswordLastResult());
  WaitForFuture(user.SendEmailVerification(), "User::SendEmailVerification");
  Future<void> before = user.SendEmailVerificationBeforeUpdatingEmail(NewEmail("before").c_str());
  WaitForFuture(before, "User::SendEmailVerificationBeforeUpdatingEmail");
  EXPECT(before == user.SendEmailVerificationBeforeUpdatingEmailLastResult());
  Future<void> reload = user.Reload();
  WaitForFuture(reload, "User::Reload");
  EXPECT(reload == user.ReloadLastResult());

  // The SDK's deprecated UpdateEmail (v12 and earlier), as code written then still calls it.
  const std::string newest = NewEmail("newest");
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
  Future<void> update_email = user.UpdateEmail(newest.c_str());
  WaitForFuture(update_email, "User::UpdateEmail");
  EXPECT(update_email == user.UpdateEmailLastResult());
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
  EXPECT(user.email() == newest && !user.is_email_verified());
  auth->SignOut();
  WaitForFuture(auth->SignInWithEmailAndPassword(newest.c_str(), "testpasswordupdated"), "sign in with both changes");
  WaitForFuture(auth->current_user().Delete(), "delete");
}

void TestPhoneNumberSignIn(Auth* auth) {
  LogMessage("TestPhoneNumberSignIn");
  const std::string phone_number = "+1650555" + std::to_string(1000 + getpid() % 9000);
  PhoneListener listener;
  PhoneAuthProvider& phone_provider = PhoneAuthProvider::GetInstance(auth);
  EXPECT(&phone_provider == &PhoneAuthProvider::GetInstance(auth));
  PhoneAuthOptions options;
  EXPECT(options.force_resending_token == nullptr && options.timeout_milliseconds == 0 && options.ui_parent == nullptr);
  options.phone_number = phone_number;
  phone_provider.VerifyPhoneNumber(options, &listener);
  EXPECT(WaitFor([&] { return listener.sent() + listener.failed() > 0; }));
  if (listener.sent() == 0) {
    ++g_errors;
    LogMessage("ERROR: no code sent: %s", listener.error().c_str());
    return;
  }
  const std::string code = emulator_http::CodeFor(listener.verification_id());
  EXPECT(code.size() == 6);
  const PhoneAuthCredential credential = phone_provider.GetCredential(listener.verification_id().c_str(), code.c_str());
  Future<User> signed_in = auth->SignInWithCredential(credential);
  WaitForFuture(signed_in, "Auth::SignInWithCredential (phone)");
  EXPECT(auth->current_user().phone_number() == phone_number);
  EXPECT(listener.completed() == 0 && listener.failed() == 0);

  // A wrong code fails; a resend token asks for a new SMS.
  EXPECT(listener.token() == listener.token());
  PhoneAuthProvider::ForceResendingToken token = listener.token();
  options.force_resending_token = &token;
  phone_provider.VerifyPhoneNumber(options, &listener);
  EXPECT(WaitFor([&] { return listener.sent() == 2; }));
  WaitForFuture(auth->SignInWithCredential(phone_provider.GetCredential(listener.verification_id().c_str(), "000000")),
                "a wrong SMS code", firebase::auth::kAuthErrorInvalidVerificationCode);

  PhoneListener bad;
  PhoneAuthOptions bad_options;
  bad_options.phone_number = "not a number";
  phone_provider.VerifyPhoneNumber(bad_options, &bad);
  EXPECT(WaitFor([&] { return bad.failed() == 1; }) && bad.sent() == 0);
  WaitForFuture(auth->current_user().Delete(), "delete the phone user");
}

void TestProviderSignInNeedsAUiOnADesktop(Auth* auth) {
  LogMessage("TestProviderSignInNeedsAUiOnADesktop");
  FederatedOAuthProviderData provider_data;
  provider_data.provider_id = GoogleAuthProvider::kProviderId;
  provider_data.scopes = {"https://www.googleapis.com/auth/fitness.activity.read"};
  provider_data.custom_parameters = {{"req_id", "1234"}};
  FederatedOAuthProvider provider;
  provider.SetProviderData(provider_data);
  // As the SDK's desktop build: not available until the app gives Hearth a UI for the provider's page.
  WaitForFuture(auth->SignInWithProvider(&provider), "SignInWithProvider", firebase::auth::kAuthErrorUnimplemented);
  WaitForFuture(auth->SignInAnonymously(), "anonymous");
  WaitForFuture(auth->current_user().LinkWithProvider(&provider), "LinkWithProvider",
                firebase::auth::kAuthErrorUnimplemented);
  WaitForFuture(auth->current_user().ReauthenticateWithProvider(&provider), "ReauthenticateWithProvider",
                firebase::auth::kAuthErrorUnimplemented);
  WaitForFuture(auth->current_user().Delete(), "delete");
}

void TestLanguageCode(Auth* auth) {
  LogMessage("TestLanguageCode");
  EXPECT(auth->language_code().empty());
  auth->set_language_code("fr");
  EXPECT(auth->language_code() == "fr");
  auth->UseAppLanguage();
  EXPECT(auth->language_code().empty());
}

}  // namespace

int main() {
  LogMessage("Starting Auth tests.");
  App* app = App::Create();
  if (app == nullptr) {
    LogMessage("ERROR: App::Create() found no google-services.json");
    return 1;
  }
  Auth* auth = Auth::GetAuth(app);
  if (auth->current_user().is_valid()) auth->SignOut();

  TestInitialization(app, auth);
  TestLogLevel();
  TestModuleInitializer(app);
  TestCredentialCopy();
  TestEveryProviderMakesACredential(auth);
  TestGameCenterIsNotAvailable();
  TestLanguageCode(auth);
  TestTokensAndAuthStateListeners(auth);
  TestFutureSemantics(auth);
  TestEmailAndPasswordSignin(auth);
  TestErrors(auth);
  TestUserHandleFollowsTheCurrentUser(auth);
  TestLinkAnonymousUserWithEmailCredential(auth);
  TestIdentityProvidersAndTheirProfiles(auth);
  TestReauthenticateAndSensitiveOperations(auth);
  TestPhoneNumberSignIn(auth);
  TestProviderSignInNeedsAUiOnADesktop(auth);

  delete auth;
  delete app;
  LogMessage("Completed Auth tests: %d checks, %d errors.", g_checks, g_errors);
  return g_errors == 0 ? 0 : 1;
}
