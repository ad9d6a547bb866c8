// firebase::auth::Auth and its futures and listeners, against the emulator: what the SDK promises and
// where Hearth's threading shows.
#include <atomic>
#include <cstdio>
#include <thread>

#include "compat_support.h"
#include "federated.h"

using firebase::Future;
using firebase::FutureBase;
using firebase::auth::Auth;
using firebase::auth::AuthResult;
using firebase::auth::Credential;
using firebase::auth::EmailAuthProvider;
using firebase::auth::User;
using namespace compat_test;
using namespace hearth_test;

namespace {

class CountingStateListener : public firebase::auth::AuthStateListener {
 public:
  void OnAuthStateChanged(Auth* auth) override {
    last_auth = auth;
    ++calls;
    if (remove_self_from) remove_self_from->RemoveAuthStateListener(this);
  }
  std::atomic<Auth*> last_auth{nullptr};
  std::atomic<int> calls{0};
  Auth* remove_self_from = nullptr;
};

class CountingTokenListener : public firebase::auth::IdTokenListener {
 public:
  void OnIdTokenChanged(Auth*) override { ++calls; }
  std::atomic<int> calls{0};
};

}  // namespace

HEARTH_EMULATOR_TEST(testGetAuthIsOnePerAppAndANewOneAfterDelete) {
  CompatApp fixture;
  CHECK(Auth::GetAuth(nullptr) == nullptr);
  CHECK(Auth::GetAuth(fixture.app()) == fixture.auth());
  REQUIRE(WaitFor(fixture.auth()->SignInAnonymously(), "SignInAnonymously"));
  const std::string uid = fixture.auth()->current_user().uid();
  fixture.DeleteAuth();
  // The App and its session stay; a new Auth sees the same user.
  Auth* again = Auth::GetAuth(fixture.app());
  REQUIRE(again != nullptr);
  CHECK_EQ(again->current_user().uid(), uid);
  delete again;
}

HEARTH_EMULATOR_TEST(testAnAuthWhoseAppIsDeletedBecomesAShell) {
  CompatApp fixture;
  Auth* auth = fixture.auth();
  Future<AuthResult> signed_in = auth->SignInAnonymously();
  REQUIRE(WaitFor(signed_in, "SignInAnonymously"));
  User user = auth->current_user();
  fixture.DeleteApp();  // before the Auth, which the SDK warns against
  CHECK(!auth->current_user().is_valid());
  CHECK(!user.is_valid() && user.uid().empty());
  CHECK_EQ(auth->SignInAnonymously().status(), firebase::kFutureStatusInvalid);
  CHECK_EQ(user.GetToken(false).status(), firebase::kFutureStatusInvalid);
  auth->SignOut();
  CHECK(auth->language_code().empty());
  // What was read stays readable.
  CHECK_EQ(signed_in.status(), firebase::kFutureStatusComplete);
  CHECK(signed_in.result() != nullptr && signed_in.result()->additional_user_info.provider_id == "anonymous");
  fixture.DeleteAuth();  // still allowed
}

HEARTH_EMULATOR_TEST(testDeletingTheAppCancelsWhatIsInFlight) {
  CompatApp fixture;
  std::atomic<int> callbacks{0};
  std::atomic<int> seen_error{-1};
  Future<AuthResult> pending = fixture.auth()->SignInAnonymously();
  pending.OnCompletion([&callbacks, &seen_error](const Future<AuthResult>& done) {
    seen_error = done.error();
    ++callbacks;
  });
  fixture.DeleteAuth();
  fixture.DeleteApp();  // returns without waiting for the request
  // Every callback runs exactly once (Hearth's rule since issue 16): with the answer when the emulator
  // answered before the deletion reached it, else with kAuthErrorCancelled.
  CHECK(WaitUntil([&callbacks] { return callbacks.load() == 1; }, 5000));
  SleepMs(100);
  CHECK_EQ(callbacks.load(), 1);
  CHECK_EQ(pending.status(), firebase::kFutureStatusComplete);
  CHECK_EQ(seen_error.load(), pending.error());
  if (pending.error() != 0) CHECK_EQ(pending.error(), firebase::auth::kAuthErrorCancelled);
}

HEARTH_EMULATOR_TEST(testCallbacksRunOnTheLoopThreadNeverInsideOnCompletion) {
  CompatApp fixture;
  Future<AuthResult> future = fixture.auth()->SignInAnonymously();
  REQUIRE(WaitFor(future, "SignInAnonymously"));
  // Complete already: the callback still waits for a later loop turn. The app's loop thread is held
  // meanwhile, so the check right after OnCompletion cannot race a loop thread that runs it at once.
  LoopHold hold(hearth::compat::GetHearthApp(fixture.app()));
  std::atomic<bool> ran{false};
  std::atomic<bool> on_caller{true};
  const std::thread::id caller = std::this_thread::get_id();
  future.OnCompletion([&](const Future<AuthResult>& done) {
    on_caller = std::this_thread::get_id() == caller;
    ran = done.error() == 0;
  });
  CHECK(!ran.load());
  hold.Release();
  CHECK(WaitUntil([&] { return ran.load(); }));
  CHECK(!on_caller.load());
}

HEARTH_EMULATOR_TEST(testCompletionCallbacksThroughTheFutureApi) {
  CompatApp fixture;
  REQUIRE(WaitFor(fixture.auth()->SignInAnonymously(), "SignInAnonymously"));
  // The app's loop thread is held until the callbacks are in place, so the refresh cannot finish first.
  LoopHold first_hold(hearth::compat::GetHearthApp(fixture.app()));
  Future<std::string> token = fixture.auth()->current_user().GetToken(true);
  // Added callbacks (not replacing) all run; a removed one does not; user data is freed after.
  firebase::detail::FutureApiInterface& api = firebase::ReferenceCountedFutureImpl::Instance();
  static std::atomic<int> runs, deletes;
  runs = 0;
  deletes = 0;
  const auto count = [](const FutureBase&, void*) { ++runs; };
  const auto free_data = [](void*) { ++deletes; };
  // The handle of the operation: a Future made from the API and an id names the same one.
  Future<std::string> same(&api, firebase::FutureHandle(0));
  CHECK_EQ(same.status(), firebase::kFutureStatusInvalid);  // id 0 names nothing
  // A Future's handle, read through a copy of a class that may see it.
  struct Peek : Future<std::string> {
    explicit Peek(const Future<std::string>& future) : Future<std::string>(future) {}
    firebase::FutureHandle Handle() const { return handle_; }
  };
  const firebase::FutureHandle handle = Peek(token).Handle();
  api.AddCompletionCallback(handle, count, nullptr, free_data, false);
  const firebase::detail::CompletionCallbackHandle removed =
      api.AddCompletionCallback(handle, count, reinterpret_cast<void*>(1), free_data, false);
  api.AddCompletionCallback(handle, count, nullptr, free_data, false);
  api.RemoveCompletionCallback(handle, removed);
  CHECK_EQ(deletes.load(), 1);  // the removed one's data
  first_hold.Release();
  REQUIRE(WaitFor(token, "GetToken(true)"));
  CHECK(WaitUntil([] { return runs.load() == 2 && deletes.load() == 3; }));
  // Replacing (what OnCompletion does) frees the replaced callback's data at once. The app's loop thread
  // is held meanwhile, so the refresh cannot finish (and free the second one's) before the check.
  LoopHold hold(hearth::compat::GetHearthApp(fixture.app()));
  Future<std::string> next = fixture.auth()->current_user().GetToken(true);
  const firebase::FutureHandle next_handle = Peek(next).Handle();
  api.AddCompletionCallback(next_handle, count, nullptr, free_data, true);
  api.AddCompletionCallback(next_handle, count, nullptr, free_data, true);
  CHECK_EQ(deletes.load(), 4);
  hold.Release();
  REQUIRE(WaitFor(next, "GetToken(true) again"));
  CHECK(WaitUntil([] { return runs.load() == 3 && deletes.load() == 5; }));
}

HEARTH_EMULATOR_TEST(testAFutureOutlivesItsLastCopyThroughLastResult) {
  CompatApp fixture;
  std::atomic<int> ran{0};
  // The SDK's fire-and-forget idiom: the returned Future is dropped at once.
  fixture.auth()->SignInAnonymously().OnCompletion([&ran](const Future<AuthResult>& done) {
    if (done.error() == 0 && done.result()->user.is_valid()) ++ran;
  });
  CHECK(WaitUntil([&ran] { return ran.load() == 1; }));
  Future<AuthResult> last = fixture.auth()->SignInAnonymouslyLastResult();
  CHECK(last.status() == firebase::kFutureStatusComplete && last.error() == 0);
}

HEARTH_EMULATOR_TEST(testListenersAcrossTwoAuthsAndRemovalFromTheirOwnCallback) {
  CompatApp first;
  CompatApp second("second-auth");
  CountingStateListener shared;
  first.auth()->AddAuthStateListener(&shared);
  second.auth()->AddAuthStateListener(&shared);
  CHECK(WaitUntil([&shared] { return shared.calls.load() == 2; }));
  REQUIRE(WaitFor(second.auth()->SignInAnonymously(), "sign in on the second app"));
  CHECK(WaitUntil([&shared] { return shared.calls.load() == 3; }));
  CHECK(shared.last_auth.load() == second.auth());

  // A listener that removes itself from inside its call.
  CountingStateListener once;
  once.remove_self_from = first.auth();
  first.auth()->AddAuthStateListener(&once);
  CHECK(WaitUntil([&once] { return once.calls.load() == 1; }));
  REQUIRE(WaitFor(first.auth()->SignInAnonymously(), "sign in on the first app"));
  SleepMs(200);
  CHECK_EQ(once.calls.load(), 1);

  // Destroying a listener unregisters it from every Auth.
  {
    CountingTokenListener scoped;
    first.auth()->AddIdTokenListener(&scoped);
    second.auth()->AddIdTokenListener(&scoped);
    CHECK(WaitUntil([&scoped] { return scoped.calls.load() == 2; }));
  }
  first.auth()->SignOut();
  second.auth()->SignOut();
  SleepMs(200);  // a call into the destroyed listener would crash here
  first.auth()->RemoveAuthStateListener(&shared);
  const int before = shared.calls.load();
  REQUIRE(WaitFor(first.auth()->SignInAnonymously(), "sign in after removal"));
  SleepMs(200);
  CHECK_EQ(shared.calls.load(), before);
  // Deleting an Auth unregisters its listeners too (the listener outlives it).
  second.DeleteAuth();
}

HEARTH_EMULATOR_TEST(testTheSdksEmulatorVariablesRouteTheAuth) {
  const EmulatorAddress emulator = RequireEmulator();
  firebase::SetLogLevel(firebase::kLogLevelError);
  hearth::compat::SetDefaultHearthOptions(EmulatorOptions());
  // Hearth's own variable off: only the SDK's can reach the emulator.
  ScopedEnv hearth_variable("FIREBASE_AUTH_EMULATOR_HOST", nullptr);
  {
    ScopedEnv use("USE_AUTH_EMULATOR", "");  // any value, even empty
    const std::string port = std::to_string(emulator.port);
    ScopedEnv port_variable("AUTH_EMULATOR_PORT", port.c_str());
    firebase::App* app = firebase::App::Create(Options(), "sdk-variables");
    REQUIRE(app != nullptr);
    Auth* auth = Auth::GetAuth(app);
    CHECK(WaitFor(auth->SignInAnonymously(), "SignInAnonymously through USE_AUTH_EMULATOR"));
    delete auth;
    delete app;
  }
  {
    // A port that is not a number: every request fails, none reaches production.
    ScopedEnv use("USE_AUTH_EMULATOR", "1");
    ScopedEnv port_variable("AUTH_EMULATOR_PORT", "90x9");
    firebase::App* app = firebase::App::Create(Options(), "bad-port");
    REQUIRE(app != nullptr);
    Auth* auth = Auth::GetAuth(app);
    std::string output = CaptureStdout([&] {
      CHECK(WaitFor(auth->SignInAnonymously(), "SignInAnonymously with a bad AUTH_EMULATOR_PORT",
                    firebase::auth::kAuthErrorNetworkRequestFailed));
    });
    delete auth;
    delete app;
  }
  {
    // UseEmulator overrides the variables at any time.
    ScopedEnv use("USE_AUTH_EMULATOR", "1");
    ScopedEnv port_variable("AUTH_EMULATOR_PORT", "1");
    firebase::App* app = firebase::App::Create(Options(), "use-emulator");
    REQUIRE(app != nullptr);
    Auth* auth = Auth::GetAuth(app);
    auth->UseEmulator(emulator.host, emulator.port);
    CHECK(WaitFor(auth->SignInAnonymously(), "SignInAnonymously after UseEmulator"));
    delete auth;
    delete app;
  }
}

HEARTH_EMULATOR_TEST(testTheSessionPersistsAcrossApps) {
  RequireEmulator();
  firebase::SetLogLevel(firebase::kLogLevelError);
  ScopedWorkingDirectory directory;
  hearth::AppOptions hearth_options = EmulatorOptions();
  hearth_options.set_persistence(hearth::kPersistenceFile);
  hearth_options.set_persistence_dir(directory.path().c_str());
  hearth::compat::SetDefaultHearthOptions(hearth_options);
  firebase::App* app = firebase::App::Create(Options());
  REQUIRE(app != nullptr);
  Auth* auth = Auth::GetAuth(app);
  REQUIRE(WaitFor(auth->CreateUserWithEmailAndPassword(NewEmail("persist").c_str(), kTestPassword), "create"));
  const std::string uid = auth->current_user().uid();
  const std::vector<firebase::auth::UserInfoInterface> providers = auth->current_user().provider_data();
  delete auth;
  delete app;
  app = firebase::App::Create(Options());
  REQUIRE(app != nullptr);
  auth = Auth::GetAuth(app);
  CHECK_EQ(auth->current_user().uid(), uid);  // at once: the session loads with the App
  CHECK_EQ(auth->current_user().provider_data().size(), providers.size());
  auth->SignOut();
  delete auth;
  delete app;
  app = firebase::App::Create(Options());
  auth = Auth::GetAuth(app);
  CHECK(!auth->current_user().is_valid());
  delete auth;
  delete app;
  hearth::compat::SetDefaultHearthOptions(EmulatorOptions());
}

HEARTH_EMULATOR_TEST(testProviderSignInWorksOnceTheAuthCanShowTheProvidersPage) {
  CompatApp fixture;
  Auth* auth = fixture.auth();
  CHECK(hearth::compat::GetHearthApp(fixture.app()) != nullptr);
  CHECK(hearth::compat::GetHearthAuth(auth) != nullptr);
  CHECK(hearth::compat::GetHearthApp(nullptr) == nullptr && hearth::compat::GetHearthAuth(nullptr) == nullptr);
  firebase::auth::FederatedOAuthProvider provider(firebase::auth::FederatedOAuthProviderData("github.com"));
  CHECK(WaitFor(auth->SignInWithProvider(&provider), "before SetProviderFlowOptions",
                firebase::auth::kAuthErrorUnimplemented));
  CHECK_EQ(auth->SignInWithProvider(nullptr).status(), firebase::kFutureStatusInvalid);

  CHECK_EQ(hearth::compat::SetProviderFlowOptions(auth, hearth::auth::ProviderFlowOptions()),
           hearth::auth::kAuthErrorInvalidArgument);  // no UI delegate
  const std::string email = NewEmail("federated");
  FakeBrowser browser(ChooseAccount(Choice(email, "Fed Erated")));
  hearth::auth::ProviderFlowOptions options;
  options.open_url = browser.Delegate();
  REQUIRE_EQ(hearth::compat::SetProviderFlowOptions(auth, options), hearth::auth::kAuthErrorNone);
  Future<AuthResult> signed_in = auth->SignInWithProvider(&provider);
  REQUIRE(WaitFor(signed_in, "SignInWithProvider (github.com)"));
  CHECK(signed_in.result()->user.is_valid());
  CHECK_EQ(signed_in.result()->additional_user_info.provider_id, std::string("github.com"));
  CHECK_EQ(auth->current_user().email(), email);

  firebase::auth::FederatedOAuthProvider twitter;
  twitter.SetProviderData(firebase::auth::FederatedOAuthProviderData("twitter.com", {}, {{"lang", "fr"}}));
  Future<AuthResult> linked = auth->current_user().LinkWithProvider(&twitter);
  REQUIRE(WaitFor(linked, "LinkWithProvider (twitter.com)"));
  CHECK_EQ(auth->current_user().provider_data().size(), 2u);
  Future<AuthResult> reauthenticated = auth->current_user().ReauthenticateWithProvider(&provider);
  REQUIRE(WaitFor(reauthenticated, "ReauthenticateWithProvider (github.com)"));
  CHECK(browser.WaitForVisits(3));
}

HEARTH_EMULATOR_TEST(testAPhoneListenerDestroyedMidFlightHearsNothing) {
  CompatApp fixture;
  struct Listener : firebase::auth::PhoneAuthProvider::Listener {
    void OnVerificationCompleted(firebase::auth::PhoneAuthCredential) override { ++calls; }
    void OnVerificationFailed(const std::string&) override { ++calls; }
    void OnCodeSent(const std::string&, const firebase::auth::PhoneAuthProvider::ForceResendingToken&) override {
      ++calls;
    }
    std::atomic<int> calls{0};
  };
  std::atomic<int> sent{0};
  firebase::auth::PhoneAuthOptions options;
  options.phone_number = "+16505550" + std::to_string(100 + getpid() % 800);
  {
    Listener listener;
    firebase::auth::PhoneAuthProvider::GetInstance(fixture.auth()).VerifyPhoneNumber(options, &listener);
    sent = listener.calls.load();
  }
  SleepMs(300);  // a call into the destroyed listener would crash here
  CHECK(sent.load() <= 1);
  // The provider of no Auth tells its listener at once that it has nothing to verify with.
  Listener orphan;
  firebase::auth::PhoneAuthProvider::GetInstance(nullptr).VerifyPhoneNumber(options, &orphan);
  CHECK_EQ(orphan.calls.load(), 1);
}

HEARTH_EMULATOR_TEST(testAppsOnAHostLoopProgressOnlyWhenTheHostRunsIt) {
  RequireEmulator();
  HostLoop host;
  REQUIRE(host.ok());
  host.StartFrameTimer();
  hearth::AppOptions hearth_options = EmulatorOptions();
  hearth_options.set_loop(host.loop());
  hearth::compat::SetDefaultHearthOptions(hearth_options);
  firebase::App* app = firebase::App::Create(Options(), "host-loop");
  hearth::compat::SetDefaultHearthOptions(EmulatorOptions());
  REQUIRE(app != nullptr);
  Auth* auth = Auth::GetAuth(app);
  Future<AuthResult> future = auth->SignInAnonymously();
  SleepMs(100);
  CHECK_EQ(future.status(), firebase::kFutureStatusPending);
  CHECK(host.PumpUntil([&future] { return future.status() == firebase::kFutureStatusComplete; }));
  CHECK_EQ(future.error(), 0);
  delete auth;
  delete app;
  host.PumpFor(20);
}

HEARTH_EMULATOR_TEST(testAnAuthsStateIsFreedWithItOnceNothingElseHoldsIt) {
  CompatApp fixture;
  const std::weak_ptr<firebase::auth::AuthData> data = hearth::compat::detail::Access::Data(*fixture.auth());
  // Results (whose Users hold the Auth's state) sit in the LastResult slots the state holds.
  Future<AuthResult> signed_in = fixture.auth()->SignInAnonymously();
  REQUIRE(WaitFor(signed_in, "SignInAnonymously"));
  REQUIRE(signed_in.result()->user.is_valid());
  REQUIRE(WaitFor(fixture.auth()->current_user().GetToken(false), "GetToken"));
  signed_in.Release();
  fixture.DeleteAuth();
  CHECK(data.expired());
}
