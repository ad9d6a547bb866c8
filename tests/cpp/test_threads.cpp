// The wrapper used from several threads at once (run under -fsanitize=thread to check the locking).
#include "harness.h"

#include <atomic>
#include <thread>

using hearth::Future;
using hearth::auth::Auth;
using namespace hearth_test;

namespace {

class Counter : public hearth::auth::AuthStateListener, public hearth::auth::IdTokenListener {
 public:
  void OnAuthStateChanged(Auth*) override { ++calls; }
  void OnIdTokenChanged(Auth*) override { ++calls; }
  std::atomic<int> calls{0};
};

}  // namespace

HEARTH_EMULATOR_TEST(testListenersComeAndGoOnManyThreadsWhileEventsFire) {
  TestApp fixture;
  Auth* auth = fixture.auth();
  constexpr int kThreads = 4;
  constexpr int kRounds = 100;
  Counter listeners[kThreads];
  std::atomic<bool> stop{false};
  // Sign-ins and sign-outs keep listeners busy on the loop thread meanwhile.
  std::thread churn([&] {
    while (!stop) {
      Future<hearth::auth::AuthResult> signed_in = auth->SignInAnonymously();
      signed_in.Wait(kOperationTimeoutMs);
      auth->SignOut();
    }
  });
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([auth, &listeners, t] {
      for (int round = 0; round < kRounds; ++round) {
        auth->AddAuthStateListener(&listeners[t]);
        auth->AddIdTokenListener(&listeners[t]);
        if (round % 3 == 0) std::this_thread::yield();
        auth->RemoveIdTokenListener(&listeners[t]);
        auth->RemoveAuthStateListener(&listeners[t]);
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  stop = true;
  churn.join();
  // All removed: further events reach none of them.
  int before[kThreads];
  for (int t = 0; t < kThreads; ++t) before[t] = listeners[t].calls.load();
  Counter witness;
  auth->AddAuthStateListener(&witness);
  SignInAnonymously(auth);
  CHECK(WaitUntil([&] { return witness.calls.load() >= 2; }));
  SleepMs(50);
  for (int t = 0; t < kThreads; ++t) CHECK_EQ(listeners[t].calls.load(), before[t]);
  auth->RemoveAuthStateListener(&witness);
}

HEARTH_EMULATOR_TEST(testCompletionCallbacksSetFromManyThreadsEachRunOnce) {
  TestApp fixture;
  const hearth::auth::User user = SignInAnonymously(fixture.auth());
  constexpr int kThreads = 4;
  constexpr int kPerThread = 25;
  // Shared with the callbacks, which could outlive this frame if the test failed.
  struct Counts {
    std::atomic<int> calls{0};
    std::atomic<int> failures{0};
  };
  auto counts = std::make_shared<Counts>();
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&user, counts] {
      for (int i = 0; i < kPerThread; ++i) {
        Future<std::string> token = user.GetToken(false);
        Future<std::string> copy = token;  // copies made and dropped on this thread
        copy.OnCompletion([counts](const Future<std::string>& done) {
          if (done.error() != 0 || !done.result() || done.result()->empty()) ++counts->failures;
          ++counts->calls;
        });
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  CHECK(WaitUntil([&] { return counts->calls.load() >= kThreads * kPerThread; }));
  SleepMs(50);
  CHECK_EQ(counts->calls.load(), kThreads * kPerThread);
  CHECK_EQ(counts->failures.load(), 0);
}
