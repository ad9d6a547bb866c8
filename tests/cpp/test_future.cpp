// hearth::Future: status, results, copies, LastResult, completion callbacks and their lifetimes.
#include "harness.h"

#include <uv.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <stdexcept>

using hearth::Future;
using hearth::FutureBase;
using hearth::auth::AuthResult;
using hearth::auth::User;
using namespace hearth_test;

namespace {

// State shared with callbacks; held by shared_ptr so a late callback never touches a dead stack frame.
struct Calls {
  std::mutex mutex;
  std::condition_variable changed;
  std::vector<std::string> log;
  void Add(const std::string& entry) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      log.push_back(entry);
    }
    changed.notify_all();
  }
  std::vector<std::string> Snapshot() {
    std::lock_guard<std::mutex> lock(mutex);
    return log;
  }
  bool WaitForCount(size_t count, int64_t timeout_ms = kOperationTimeoutMs) {
    std::unique_lock<std::mutex> lock(mutex);
    return changed.wait_for(lock, std::chrono::milliseconds(timeout_ms), [&] { return log.size() >= count; });
  }
};

}  // namespace

HEARTH_EMULATOR_TEST(testLastResultRefersToTheSameOperation) {
  TestApp fixture;
  hearth::auth::Auth* auth = fixture.auth();
  CHECK_EQ(auth->SignInAnonymouslyLastResult().status(), hearth::kFutureStatusInvalid);  // never ran

  Future<AuthResult> first = auth->SignInAnonymously();
  Future<AuthResult> last = auth->SignInAnonymouslyLastResult();
  REQUIRE_NE(last.status(), hearth::kFutureStatusInvalid);
  REQUIRE(WaitForCompletion(last, "SignInAnonymouslyLastResult"));
  // One operation: when one reference is complete, so is the other, with the same result.
  CHECK_EQ(first.status(), hearth::kFutureStatusComplete);
  REQUIRE(first.result() != nullptr);
  const std::string first_uid = first.result()->user.uid();
  CHECK_EQ(last.result()->user.uid(), first_uid);

  auth->SignOut();
  Future<AuthResult> second = auth->SignInAnonymously();
  REQUIRE(WaitForCompletion(second, "SignInAnonymously (second)"));
  CHECK_NE(second.result()->user.uid(), first_uid);
  Future<AuthResult> newest = auth->SignInAnonymouslyLastResult();
  REQUIRE(WaitForCompletion(newest, "SignInAnonymouslyLastResult (second)"));
  CHECK_EQ(newest.result()->user.uid(), second.result()->user.uid());
  // An earlier LastResult keeps referring to the operation it was taken from.
  CHECK_EQ(last.result()->user.uid(), first_uid);
}

HEARTH_EMULATOR_TEST(testEveryAuthOperationHasALastResult) {
  TestApp fixture;
  hearth::auth::Auth* auth = fixture.auth();
  const std::string email = NewEmail();
  CHECK(WaitForCompletion(auth->CreateUserWithEmailAndPassword(email.c_str(), kTestPassword), "create"));
  CHECK(WaitForCompletion(auth->SignInWithEmailAndPassword(email.c_str(), kTestPasswordBad), "sign in (bad)",
                          hearth::auth::kAuthErrorWrongPassword));
  CHECK(WaitForCompletion(auth->SignInWithCredential(hearth::auth::EmailAuthProvider::GetCredential(email.c_str(), kTestPassword)),
                          "credential"));
  CHECK(WaitForCompletion(auth->SignInAndRetrieveDataWithCredential(
                              hearth::auth::EmailAuthProvider::GetCredential(email.c_str(), kTestPasswordBad)),
                          "retrieve data (bad)", hearth::auth::kAuthErrorWrongPassword));
  CHECK(WaitForCompletion(auth->SignInWithCustomToken("not a token"), "custom token (bad)",
                          hearth::auth::kAuthErrorInvalidCustomToken));
  CHECK(WaitForCompletion(auth->SendPasswordResetEmail(NewEmail("unknown").c_str()), "reset (unknown)",
                          hearth::auth::kAuthErrorUserNotFound));
  CHECK(WaitForCompletion(auth->FetchProvidersForEmail(email.c_str()), "fetch providers"));

  const std::vector<std::pair<const char*, std::pair<FutureBase, int>>> expected = {
      {"CreateUserWithEmailAndPasswordLastResult", {auth->CreateUserWithEmailAndPasswordLastResult(), 0}},
      {"SignInWithEmailAndPasswordLastResult",
       {auth->SignInWithEmailAndPasswordLastResult(), hearth::auth::kAuthErrorWrongPassword}},
      {"SignInWithCredentialLastResult", {auth->SignInWithCredentialLastResult(), 0}},
      {"SignInAndRetrieveDataWithCredentialLastResult",
       {auth->SignInAndRetrieveDataWithCredentialLastResult(), hearth::auth::kAuthErrorWrongPassword}},
      {"SignInWithCustomTokenLastResult",
       {auth->SignInWithCustomTokenLastResult(), hearth::auth::kAuthErrorInvalidCustomToken}},
      {"SendPasswordResetEmailLastResult", {auth->SendPasswordResetEmailLastResult(), hearth::auth::kAuthErrorUserNotFound}},
      {"FetchProvidersForEmailLastResult", {auth->FetchProvidersForEmailLastResult(), 0}},
  };
  for (const auto& entry : expected) {
    const FutureBase& future = entry.second.first;
    if (future.status() != hearth::kFutureStatusComplete || future.error() != entry.second.second) {
      RecordFailure(__FILE__, __LINE__,
                    std::string(entry.first) + ": status " + std::to_string(future.status()) + ", error " +
                        std::to_string(future.error()) + ", expected error " + std::to_string(entry.second.second));
    }
  }
  Future<hearth::auth::FetchProvidersResult> providers = auth->FetchProvidersForEmailLastResult();
  REQUIRE(providers.result() != nullptr);
  CHECK_EQ(providers.result()->providers, std::vector<std::string>{"password"});
  Future<User> credential_user = auth->SignInWithCredentialLastResult();
  REQUIRE(credential_user.result() != nullptr);
  CHECK_EQ(credential_user.result()->email(), email);
}

HEARTH_EMULATOR_TEST(testFutureCopiesShareTheOperationAndReleaseIsPerCopy) {
  TestApp fixture;
  Future<AuthResult> original = fixture.auth()->SignInAnonymously();
  Future<AuthResult> copy = original;
  CHECK(copy == original);
  REQUIRE(WaitForCompletion(copy, "SignInAnonymously (copy)"));
  CHECK_EQ(original.status(), hearth::kFutureStatusComplete);
  REQUIRE(original.result() != nullptr);
  CHECK(original.result() == copy.result());  // one result object, shared by the copies

  copy.Release();
  CHECK_EQ(copy.status(), hearth::kFutureStatusInvalid);
  CHECK_EQ(copy.error(), -1);
  CHECK(copy.error_message() == nullptr);
  CHECK(copy.result() == nullptr);
  CHECK(copy != original);
  // The original is untouched.
  CHECK_EQ(original.status(), hearth::kFutureStatusComplete);
  CHECK_EQ(original.error(), 0);
  CHECK_EQ(std::string(original.error_message()), std::string());
  CHECK(original.result()->user.is_valid());

  // Moving leaves the source invalid.
  Future<AuthResult> moved = std::move(original);
  CHECK_EQ(original.status(), hearth::kFutureStatusInvalid);  // NOLINT(bugprone-use-after-move): specified
  CHECK_EQ(moved.status(), hearth::kFutureStatusComplete);
  // Assignment replaces (and releases) the old reference.
  copy = moved;
  CHECK(copy == moved);
  moved = Future<AuthResult>();
  CHECK_EQ(moved.status(), hearth::kFutureStatusInvalid);
  CHECK(copy.result()->user.is_valid());
  // A FutureBase copy sees the same operation.
  FutureBase base = copy;
  CHECK_EQ(base.status(), hearth::kFutureStatusComplete);
  CHECK(base.result_void() == copy.result());

  Future<void> invalid;
  CHECK_EQ(invalid.status(), hearth::kFutureStatusInvalid);
  CHECK_EQ(invalid.error(), -1);
  CHECK(!invalid.Wait(0));
  CHECK(invalid == Future<void>());
  bool called = false;
  invalid.OnCompletion([&called](const Future<void>&) { called = true; });  // nothing to wait for: no call
  CHECK(!called);
}

HEARTH_EMULATOR_TEST(testOnCompletionRunsAfterEveryCopyOfTheFutureIsGone) {
  TestApp fixture;
  auto calls = std::make_shared<Calls>();
  // The C++ SDK's usual pattern: a callback on a temporary.
  fixture.auth()->SignInAnonymously().OnCompletion([calls](const Future<AuthResult>& done) {
    calls->Add(done.error() == 0 && done.result() && done.result()->user.is_valid() ? "signed in" : "failed");
  });
  REQUIRE(calls->WaitForCount(1));
  CHECK_EQ(calls->Snapshot(), std::vector<std::string>{"signed in"});
}

HEARTH_EMULATOR_TEST(testOnCompletionRunsOnTheLoopThreadNeverInsideTheCall) {
  TestApp fixture;
  hearth::App* app = fixture.app();
  Future<AuthResult> future = fixture.auth()->SignInAnonymously();
  REQUIRE(WaitForCompletion(future, "SignInAnonymously"));
  auto calls = std::make_shared<Calls>();
  const std::thread::id caller = std::this_thread::get_id();
  // Already complete: the callback still runs later, on the loop thread.
  future.OnCompletion([calls, app, caller](const Future<AuthResult>& done) {
    calls->Add(std::string(std::this_thread::get_id() == caller ? "caller thread" : "other thread") +
               (app->is_loop_thread() ? ", loop thread" : ", not the loop thread") +
               (done.status() == hearth::kFutureStatusComplete ? ", complete" : ", not complete"));
  });
  REQUIRE(calls->WaitForCount(1));
  CHECK_EQ(calls->Snapshot(), std::vector<std::string>{"other thread, loop thread, complete"});
  CHECK(!app->is_loop_thread());
}

HEARTH_EMULATOR_TEST(testOnCompletionCanStartAnotherOperationWithoutDeadlock) {
  TestApp fixture;
  hearth::App* app = fixture.app();
  hearth::auth::Auth* auth = fixture.auth();
  auto calls = std::make_shared<Calls>();
  auth->SignInAnonymously().OnCompletion([calls, app, auth](const Future<AuthResult>& signed_in) {
    if (!signed_in.result() || !signed_in.result()->user.is_valid()) {
      calls->Add("sign-in failed");
      return;
    }
    const User user = signed_in.result()->user;
    Future<std::string> token = user.GetToken(true);
    // Blocking on the loop thread would deadlock: Wait refuses at once instead.
    const int64_t started = NowMs();
    const bool waited = token.Wait(5000);
    calls->Add(waited ? "wait blocked" : (NowMs() - started < 1000 ? "wait refused at once" : "wait refused late"));
    token.OnCompletion([calls, app, auth, user](const Future<std::string>& refreshed) {
      calls->Add(app->is_loop_thread() && refreshed.error() == 0 && !refreshed.result()->empty() ? "token" : "no token");
      // And one more level: an Auth operation and a user operation from inside a callback.
      auth->FetchProvidersForEmail("nobody@example.com").OnCompletion(
          [calls](const Future<hearth::auth::FetchProvidersResult>& fetched) {
            calls->Add(fetched.error() == 0 ? "fetched" : "fetch failed");
          });
      user.Reload().OnCompletion([calls](const Future<void>& reloaded) {
        calls->Add(reloaded.error() == 0 ? "reloaded" : "reload failed");
      });
    });
  });
  REQUIRE(calls->WaitForCount(4));
  std::vector<std::string> log = calls->Snapshot();
  REQUIRE_EQ(log.size(), size_t{4});
  CHECK_EQ(log[0], std::string("wait refused at once"));
  CHECK_EQ(log[1], std::string("token"));
  std::sort(log.begin() + 2, log.end());
  CHECK_EQ(log[2], std::string("fetched"));
  CHECK_EQ(log[3], std::string("reloaded"));
}

HEARTH_EMULATOR_TEST(testCStyleCallbacksReceiveTheirUserData) {
  TestApp fixture;
  struct Box {
    std::atomic<int> typed{0};
    std::atomic<int> base{0};
  };
  auto box = std::make_shared<Box>();
  Future<AuthResult> typed = fixture.auth()->SignInAnonymously();
  typed.OnCompletion(
      [](const Future<AuthResult>& done, void* user_data) {
        static_cast<Box*>(user_data)->typed = done.result() && done.result()->user.is_valid() ? 1 : -1;
      },
      box.get());
  REQUIRE(WaitForCompletion(typed, "SignInAnonymously"));
  Future<std::string> token = fixture.auth()->current_user().GetToken(false);
  token.OnCompletion(
      [](const FutureBase& done, void* user_data) {
        static_cast<Box*>(user_data)->base = done.status() == hearth::kFutureStatusComplete && done.error() == 0 ? 1 : -1;
      },
      box.get());
  CHECK(WaitUntil([&] { return box->typed != 0 && box->base != 0; }));
  CHECK_EQ(box->typed.load(), 1);
  CHECK_EQ(box->base.load(), 1);
}

HEARTH_EMULATOR_TEST(testALaterOnCompletionReplacesTheEarlierOne) {
  HostLoop host;
  REQUIRE(host.ok());
  TestApp fixture(nullptr, OnLoop(&host));
  auto calls = std::make_shared<Calls>();
  auto replaced = std::make_shared<int>(0);
  std::weak_ptr<int> watch = replaced;
  Future<AuthResult> future = fixture.auth()->SignInAnonymously();
  future.OnCompletion([calls, replaced](const Future<AuthResult>&) { calls->Add("first"); });
  // Copies share the slot: setting it through a copy replaces the callback too.
  Future<AuthResult> copy = future;
  copy.OnCompletion([calls, replaced](const Future<AuthResult>&) { calls->Add("second"); });
  future.OnCompletion([calls](const Future<AuthResult>&) { calls->Add("third"); });
  replaced.reset();
  REQUIRE(host.PumpUntil([&] { return future.status() == hearth::kFutureStatusComplete; }));
  host.PumpFor(100);
  CHECK_EQ(calls->Snapshot(), std::vector<std::string>{"third"});
  // The replaced callbacks (and what they captured) are freed once Hearth has made their one call.
  CHECK(watch.expired());
  // Set again on the finished future: runs once more, on a later turn.
  future.OnCompletion([calls](const Future<AuthResult>&) { calls->Add("fourth"); });
  CHECK_EQ(calls->Snapshot(), std::vector<std::string>{"third"});
  REQUIRE(host.PumpUntil([&] { return calls->Snapshot().size() == 2; }));
  host.PumpFor(50);
  CHECK_EQ(calls->Snapshot(), (std::vector<std::string>{"third", "fourth"}));
}

HEARTH_EMULATOR_TEST(testHostLoopRunsCallbacksInTheThreadThatRunsTheLoop) {
  HostLoop host;
  REQUIRE(host.ok());
  TestApp fixture(nullptr, OnLoop(&host));
  hearth::App* app = fixture.app();
  auto calls = std::make_shared<Calls>();
  const std::thread::id runner = std::this_thread::get_id();
  Future<AuthResult> future = fixture.auth()->SignInAnonymously();
  future.OnCompletion([calls, app, runner](const Future<AuthResult>& done) {
    calls->Add(std::this_thread::get_id() == runner ? "runner thread" : "another thread");
    calls->Add(app->is_loop_thread() ? "loop thread" : "not the loop thread");
    const int64_t started = NowMs();
    calls->Add(!done.Wait(5000) || NowMs() - started > 1000 ? "wait blocked or refused late" : "wait returned");
    // A complete future's Wait returns at once; a pending one's must not block the loop.
    Future<std::string> token = done.result()->user.GetToken(true);
    calls->Add(token.Wait(5000) ? "nested wait blocked" : "nested wait refused");
  });
  // Nothing happens until the host runs its loop.
  SleepMs(50);
  CHECK_EQ(future.status(), hearth::kFutureStatusPending);
  CHECK(calls->Snapshot().empty());
  REQUIRE(host.PumpUntil([&] { return calls->Snapshot().size() >= 4; }));
  CHECK_EQ(calls->Snapshot(),
           (std::vector<std::string>{"runner thread", "loop thread", "wait returned", "nested wait refused"}));
  CHECK(future.result()->user.is_valid());
}

HEARTH_EMULATOR_TEST(testWaitTimesOutWhileTheOperationIsPending) {
  HostLoop host;
  REQUIRE(host.ok());
  TestApp fixture(nullptr, OnLoop(&host));
  Future<AuthResult> future = fixture.auth()->SignInAnonymously();
  // The loop is not running, so the operation cannot finish: another thread's Wait times out.
  bool completed = true;
  int64_t waited_ms = 0;
  std::thread waiter([&] {
    const int64_t started = NowMs();
    completed = future.Wait(150);
    waited_ms = NowMs() - started;
  });
  waiter.join();
  CHECK(!completed);
  CHECK(waited_ms >= 100);
  CHECK_EQ(future.status(), hearth::kFutureStatusPending);
  CHECK(future.result() == nullptr);
  CHECK_EQ(std::string(future.error_message()), std::string());
  REQUIRE(host.PumpUntil([&] { return future.status() == hearth::kFutureStatusComplete; }));
  CHECK(future.Wait(0));
  CHECK_EQ(future.error(), 0);
}

HEARTH_EMULATOR_TEST(testPendingCallbacksRunOnceAsCancelledWhenTheAppIsDeletedWithAHostLoop) {
  HostLoop host;
  REQUIRE(host.ok());
  TestApp fixture(nullptr, OnLoop(&host));
  auto sentinel = std::make_shared<int>(0);
  std::weak_ptr<int> watch = sentinel;
  auto calls = std::make_shared<Calls>();
  Future<AuthResult> future = fixture.auth()->SignInAnonymously();
  future.OnCompletion([sentinel, calls](const Future<AuthResult>& done) {
    calls->Add("first " + std::to_string(done.error()));
  });
  fixture.auth()->SignInWithCustomToken("{\"uid\":\"never-finished\"}").OnCompletion(
      [sentinel, calls](const Future<AuthResult>& done) { calls->Add("second " + std::to_string(done.error())); });
  sentinel.reset();
  CHECK(!watch.expired());

  fixture.Destroy();  // the loop never ran: both operations are still in flight
  // Cancelled at once; the callbacks run on the host's next loop turn, never inside delete.
  CHECK_EQ(future.status(), hearth::kFutureStatusComplete);
  CHECK_EQ(future.error(), hearth::auth::kAuthErrorCancelled);
  CHECK(calls->Snapshot().empty());
  REQUIRE(host.PumpUntil([&] { return calls->Snapshot().size() == 2; }));
  host.PumpFor(50);
  const std::string cancelled = std::to_string(hearth::auth::kAuthErrorCancelled);
  CHECK_EQ(calls->Snapshot(), (std::vector<std::string>{"first " + cancelled, "second " + cancelled}));
  CHECK(watch.expired());  // each callback (and what it captured) freed after its one call
}

HEARTH_EMULATOR_TEST(testPendingCallbacksRunOnceAsCancelledBeforeDeletingTheAppReturns) {
  TestApp fixture;
  auto calls = std::make_shared<Calls>();
  auto sentinel = std::make_shared<int>(0);
  std::weak_ptr<int> watch = sentinel;
  // A request that waits at a server that never answers.
  const int blackhole = ListeningSocketThatNeverAnswers();
  REQUIRE(blackhole > 0);
  REQUIRE_EQ(fixture.auth()->UseEmulator("127.0.0.1", static_cast<uint32_t>(blackhole)), hearth::auth::kAuthErrorNone);
  Future<AuthResult> future = fixture.auth()->SignInAnonymously();
  future.OnCompletion([sentinel, calls](const Future<AuthResult>& done) {
    calls->Add(done.error() == hearth::auth::kAuthErrorCancelled ? "cancelled" : "other");
  });
  sentinel.reset();
  SleepMs(50);
  CHECK(calls->Snapshot().empty());
  fixture.Destroy();
  // Hearth's own loop: the final call has run when delete returns.
  CHECK_EQ(calls->Snapshot(), std::vector<std::string>{"cancelled"});
  CHECK(watch.expired());
  SleepMs(50);
  CHECK_EQ(calls->Snapshot(), std::vector<std::string>{"cancelled"});
}

HEARTH_EMULATOR_TEST(testTheAppCanBeDeletedInsideACompletionCallback) {
  TestApp fixture;
  hearth::App* app = fixture.Release();
  hearth::auth::Auth* auth = hearth::auth::Auth::GetAuth(app);
  auto calls = std::make_shared<Calls>();
  Future<AuthResult> future = auth->SignInAnonymously();
  future.OnCompletion([app, calls](const Future<AuthResult>& done) {
    const std::string uid = done.result() ? done.result()->user.uid() : std::string();
    delete app;
    calls->Add(uid.empty() ? "no user" : "deleted");
  });
  REQUIRE(calls->WaitForCount(1));
  CHECK_EQ(calls->Snapshot(), std::vector<std::string>{"deleted"});
  CHECK(hearth::App::GetInstance() == nullptr);
  CHECK_EQ(future.status(), hearth::kFutureStatusComplete);
  CHECK(future.result()->user.is_valid());
}

HEARTH_EMULATOR_TEST(testAnExceptionThrownByACallbackDoesNotStopLaterCallbacks) {
  TestApp fixture;
  auto calls = std::make_shared<Calls>();
  fixture.auth()->SignInAnonymously().OnCompletion([calls](const Future<AuthResult>&) {
    calls->Add("throwing");
    throw std::runtime_error("callback failure");
  });
  REQUIRE(calls->WaitForCount(1));
  fixture.auth()->current_user().GetToken(false).OnCompletion([calls](const Future<std::string>& token) {
    calls->Add(token.error() == 0 ? "later callback" : "later callback failed");
  });
  REQUIRE(calls->WaitForCount(2));
  CHECK_EQ(calls->Snapshot(), (std::vector<std::string>{"throwing", "later callback"}));
}
