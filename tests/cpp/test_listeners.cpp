// AuthStateListener and IdTokenListener: when they are told, on which thread, and how they go away.
#include "harness.h"

#include <algorithm>
#include <atomic>
#include <mutex>

using hearth::Future;
using hearth::auth::Auth;
using hearth::auth::AuthResult;
using namespace hearth_test;

namespace {

// The C++ SDK test's listeners, made thread-safe (they run on the loop thread while the test reads).
class TestAuthStateListener : public hearth::auth::AuthStateListener {
 public:
  void OnAuthStateChanged(Auth* auth) override {
    // Log the provider ID.
    std::string provider;
    if (auth->current_user().is_valid()) provider = auth->current_user().provider_id();
    std::lock_guard<std::mutex> lock(mutex_);
    ++calls_;
    // Only log unique events.
    if (auth_states_.empty() || auth_states_.back() != provider) auth_states_.push_back(provider);
  }
  std::vector<std::string> auth_states() {
    std::lock_guard<std::mutex> lock(mutex_);
    return auth_states_;
  }
  int calls() {
    std::lock_guard<std::mutex> lock(mutex_);
    return calls_;
  }

 private:
  std::mutex mutex_;
  std::vector<std::string> auth_states_;
  int calls_ = 0;
};

class TestIdTokenListener : public hearth::auth::IdTokenListener {
 public:
  void OnIdTokenChanged(Auth* auth) override {
    // Log the auth token (if available).
    std::string token;
    if (auth->current_user().is_valid()) {
      Future<std::string> token_future = auth->current_user().GetToken(false);
      if (token_future.status() == hearth::kFutureStatusComplete) {
        if (token_future.error() == 0) token = *token_future.result();
      } else {
        token = "[in progress]";
      }
    }
    std::lock_guard<std::mutex> lock(mutex_);
    // Only log unique empty events.
    if (token_states_.empty() || !token.empty() || token_states_.back() != token) token_states_.push_back(token);
  }
  std::vector<std::string> token_states() {
    std::lock_guard<std::mutex> lock(mutex_);
    return token_states_;
  }

 private:
  std::mutex mutex_;
  std::vector<std::string> token_states_;
};

// Counts calls into an external counter, so that calls after destruction would show.
class CountingListener : public hearth::auth::AuthStateListener {
 public:
  explicit CountingListener(std::atomic<int>* counter) : counter_(counter) {}
  void OnAuthStateChanged(Auth*) override { ++*counter_; }

 private:
  std::atomic<int>* counter_;
};

}  // namespace

HEARTH_EMULATOR_TEST(TestTokensAndAuthStateListeners) {
  TestApp fixture;
  Auth* auth = fixture.auth();
  TestAuthStateListener listener;
  TestIdTokenListener token_listener;
  auth->AddAuthStateListener(&listener);
  auth->AddIdTokenListener(&token_listener);
  REQUIRE(WaitForCompletion(auth->SignInAnonymously(), "SignInAnonymously"));
  // Get an initial token.
  Future<std::string> token_future = auth->current_user().GetToken(false);
  REQUIRE(WaitForCompletion(token_future, "GetToken(false)"));
  const std::string first_token = *token_future.result();
  // Force a token refresh (tokens carry whole seconds).
  SleepMs(1100);
  token_future = auth->current_user().GetToken(true);
  REQUIRE(WaitForCompletion(token_future, "GetToken(true)"));
  CHECK_NE(*token_future.result(), std::string());
  const std::string second_token = *token_future.result();
  CHECK_NE(first_token, second_token);

  REQUIRE(WaitForCompletion(auth->current_user().Delete(), "Delete"));
  auth->SignOut();
  // Listeners hear about the sign-out on the loop thread: wait for it before removing them.
  CHECK(WaitUntil([&] {
    const std::vector<std::string> states = listener.auth_states();
    const std::vector<std::string> tokens = token_listener.token_states();
    return states.size() >= 3 && tokens.size() >= 4 && tokens.back().empty();
  }));
  auth->RemoveAuthStateListener(&listener);
  auth->RemoveIdTokenListener(&token_listener);
  // Providers should be blank, then Firebase, then blank.
  CHECK_EQ(listener.auth_states(), (std::vector<std::string>{"", "Firebase", ""}));
  // We should have blank, then two (or sometimes three) tokens, then blank. (Inside the listener,
  // GetToken(false) completes on a later loop turn, so the entries may read "[in progress]".)
  const std::vector<std::string> tokens = token_listener.token_states();
  const bool shape_ok = (tokens.size() == 4 || tokens.size() == 5) && tokens.front().empty() && tokens.back().empty() &&
                        std::all_of(tokens.begin() + 1, tokens.end() - 1, [](const std::string& t) { return !t.empty(); });
  if (!shape_ok) RecordFailure(__FILE__, __LINE__, "token states: " + Describe(tokens));
}

HEARTH_EMULATOR_TEST(testAListenerIsToldOnceRightAfterBeingAdded) {
  TestApp fixture;
  TestAuthStateListener listener;
  fixture.auth()->AddAuthStateListener(&listener);
  REQUIRE(WaitUntil([&] { return listener.calls() >= 1; }));
  SleepMs(100);
  CHECK_EQ(listener.calls(), 1);
  CHECK_EQ(listener.auth_states(), std::vector<std::string>{""});
}

HEARTH_EMULATOR_TEST(testListenersRunOnTheLoopThread) {
  TestApp fixture;
  struct ThreadProbe : hearth::auth::AuthStateListener, hearth::auth::IdTokenListener {
    explicit ThreadProbe(hearth::App* app) : app(app) {}
    void OnAuthStateChanged(Auth*) override { Record(); }
    void OnIdTokenChanged(Auth*) override { Record(); }
    void Record() {
      if (app->is_loop_thread()) {
        ++on_loop;
      } else {
        ++elsewhere;
      }
    }
    hearth::App* app;
    std::atomic<int> on_loop{0};
    std::atomic<int> elsewhere{0};
  } probe(fixture.app());
  fixture.auth()->AddAuthStateListener(&probe);
  fixture.auth()->AddIdTokenListener(&probe);
  SignInAnonymously(fixture.auth());
  fixture.auth()->SignOut();
  // Two initial calls, then one each for the sign-in and the sign-out.
  CHECK(WaitUntil([&] { return probe.on_loop.load() >= 6; }));
  CHECK_EQ(probe.elsewhere.load(), 0);
  fixture.auth()->RemoveAuthStateListener(&probe);
  fixture.auth()->RemoveIdTokenListener(&probe);
}

HEARTH_EMULATOR_TEST(testAddingAListenerTwiceRegistersItOnce) {
  TestApp fixture;
  TestAuthStateListener listener;
  fixture.auth()->AddAuthStateListener(&listener);
  fixture.auth()->AddAuthStateListener(&listener);
  REQUIRE(WaitUntil([&] { return listener.calls() >= 1; }));
  SignInAnonymously(fixture.auth());
  REQUIRE(WaitUntil([&] { return listener.calls() >= 2; }));
  SleepMs(100);
  CHECK_EQ(listener.calls(), 2);
  fixture.auth()->RemoveAuthStateListener(&listener);
}

HEARTH_EMULATOR_TEST(testARemovedListenerIsNotToldAgain) {
  TestApp fixture;
  TestAuthStateListener removed;
  TestAuthStateListener witness;
  fixture.auth()->AddAuthStateListener(&removed);
  fixture.auth()->AddAuthStateListener(&witness);
  REQUIRE(WaitUntil([&] { return removed.calls() >= 1 && witness.calls() >= 1; }));
  fixture.auth()->RemoveAuthStateListener(&removed);
  fixture.auth()->RemoveAuthStateListener(&removed);  // twice is harmless
  fixture.auth()->RemoveAuthStateListener(nullptr);
  SignInAnonymously(fixture.auth());
  REQUIRE(WaitUntil([&] { return witness.calls() >= 2; }));
  SleepMs(50);
  CHECK_EQ(removed.calls(), 1);
  fixture.auth()->RemoveAuthStateListener(&witness);
}

HEARTH_EMULATOR_TEST(testAListenersDestructorRemovesIt) {
  TestApp fixture;
  std::atomic<int> destroyed_calls{0};
  TestAuthStateListener witness;
  fixture.auth()->AddAuthStateListener(&witness);
  {
    CountingListener scoped(&destroyed_calls);
    fixture.auth()->AddAuthStateListener(&scoped);
    REQUIRE(WaitUntil([&] { return destroyed_calls.load() >= 1; }));
  }
  const int before = destroyed_calls.load();
  SignInAnonymously(fixture.auth());
  REQUIRE(WaitUntil([&] { return witness.calls() >= 2; }));
  SleepMs(50);
  CHECK_EQ(destroyed_calls.load(), before);
  fixture.auth()->RemoveAuthStateListener(&witness);
}

HEARTH_EMULATOR_TEST(testAListenerCanRemoveItselfInsideItsCallback) {
  TestApp fixture;
  struct SelfRemoving : hearth::auth::AuthStateListener {
    void OnAuthStateChanged(Auth* auth) override {
      ++calls;
      auth->RemoveAuthStateListener(this);
    }
    std::atomic<int> calls{0};
  } listener;
  TestAuthStateListener witness;
  fixture.auth()->AddAuthStateListener(&listener);
  fixture.auth()->AddAuthStateListener(&witness);
  REQUIRE(WaitUntil([&] { return listener.calls.load() >= 1 && witness.calls() >= 1; }));
  SignInAnonymously(fixture.auth());
  REQUIRE(WaitUntil([&] { return witness.calls() >= 2; }));
  SleepMs(50);
  CHECK_EQ(listener.calls.load(), 1);
  fixture.auth()->RemoveAuthStateListener(&witness);
}

HEARTH_EMULATOR_TEST(testRemovingAListenerWaitsForItsRunningCall) {
  TestApp fixture;
  struct SlowListener : hearth::auth::AuthStateListener {
    void OnAuthStateChanged(Auth*) override {
      entered = true;
      SleepMs(300);
      finished = true;
    }
    std::atomic<bool> entered{false};
    std::atomic<bool> finished{false};
  } listener;
  fixture.auth()->AddAuthStateListener(&listener);
  REQUIRE(WaitUntil([&] { return listener.entered.load(); }));
  fixture.auth()->RemoveAuthStateListener(&listener);
  // After removal returns the listener is not running, so it may be destroyed.
  CHECK(listener.finished.load());
}

HEARTH_EMULATOR_TEST(testDeletingAuthRemovesItsListenersAndGetAuthMakesANewOne) {
  TestApp fixture;
  std::atomic<int> old_auth_calls{0};
  CountingListener listener(&old_auth_calls);
  Auth* old_auth = fixture.auth();
  old_auth->AddAuthStateListener(&listener);
  REQUIRE(WaitUntil([&] { return old_auth_calls.load() >= 1; }));
  delete old_auth;
  Auth* auth = Auth::GetAuth(fixture.app());
  REQUIRE(auth != nullptr);
  CHECK(Auth::GetAuth(fixture.app()) == auth);
  TestAuthStateListener witness;
  auth->AddAuthStateListener(&witness);
  const int before = old_auth_calls.load();
  SignInAnonymously(auth);
  REQUIRE(WaitUntil([&] { return witness.calls() >= 2; }));
  SleepMs(50);
  CHECK_EQ(old_auth_calls.load(), before);
  auth->RemoveAuthStateListener(&witness);
}

HEARTH_EMULATOR_TEST(testOneListenerServesTwoApps) {
  TestApp first;
  TestApp second("listener-second");
  std::atomic<int> calls{0};
  CountingListener listener(&calls);
  first.auth()->AddAuthStateListener(&listener);
  second.auth()->AddAuthStateListener(&listener);
  REQUIRE(WaitUntil([&] { return calls.load() >= 2; }));
  SignInAnonymously(second.auth());
  REQUIRE(WaitUntil([&] { return calls.load() >= 3; }));
  first.auth()->RemoveAuthStateListener(&listener);
  SignInAnonymously(first.auth());
  second.auth()->SignOut();
  REQUIRE(WaitUntil([&] { return calls.load() >= 4; }));
  SleepMs(50);
  // Only the second app's sign-out reached it; its destructor removes the remaining registration.
  CHECK_EQ(calls.load(), 4);
}
