// A small self-contained test runner for the C++ wrapper suite, plus helpers that talk to the emulator.
//
// Tests register themselves with HEARTH_TEST (no emulator needed) or HEARTH_EMULATOR_TEST (the runner
// wipes the emulator's accounts first and fails the test when FIREBASE_AUTH_EMULATOR_HOST is unset).
// CHECK* records a failure and goes on; REQUIRE* records it and ends the test.
#ifndef HEARTH_TESTS_CPP_HARNESS_H
#define HEARTH_TESTS_CPP_HARNESS_H

#include "hearth.hpp"

#include <uv.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

namespace hearth_test {

// ---- registration and assertions -------------------------------------------------------------------

struct TestCase {
  const char* name;
  void (*body)();
  bool needs_emulator;
};

std::vector<TestCase>& Tests();

struct Registrar {
  Registrar(const char* name, void (*body)(), bool needs_emulator) { Tests().push_back({name, body, needs_emulator}); }
};

// Thrown by REQUIRE to end the current test.
struct TestAborted {};

void RecordFailure(const char* file, int line, const std::string& message);

template <typename T>
std::string Describe(const T& value) {
  std::ostringstream out;
  if constexpr (std::is_same_v<T, std::string>) {
    out << '"' << value << '"';
  } else if constexpr (std::is_same_v<std::decay_t<T>, const char*> || std::is_same_v<std::decay_t<T>, char*>) {
    if (value) {
      out << '"' << value << '"';
    } else {
      out << "(null)";
    }
  } else if constexpr (std::is_same_v<T, bool>) {
    out << (value ? "true" : "false");
  } else if constexpr (std::is_enum_v<T>) {
    out << static_cast<long long>(value);
  } else if constexpr (std::is_pointer_v<T>) {
    out << static_cast<const void*>(value);
  } else {
    out << value;
  }
  return out.str();
}

inline std::string Describe(const std::vector<std::string>& values) {
  std::string out = "[";
  for (size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + Describe(values[i]);
  return out + "]";
}

#define HEARTH_TEST_CONCAT2(a, b) a##b
#define HEARTH_TEST_CONCAT(a, b) HEARTH_TEST_CONCAT2(a, b)

#define HEARTH_TEST(name)                                                                   \
  static void name();                                                                       \
  static const ::hearth_test::Registrar HEARTH_TEST_CONCAT(name, _registrar)(#name, &name, false); \
  static void name()

#define HEARTH_EMULATOR_TEST(name)                                                          \
  static void name();                                                                       \
  static const ::hearth_test::Registrar HEARTH_TEST_CONCAT(name, _registrar)(#name, &name, true); \
  static void name()

#define CHECK(condition)                                                                   \
  do {                                                                                     \
    if (!(condition)) ::hearth_test::RecordFailure(__FILE__, __LINE__, "CHECK(" #condition ")"); \
  } while (0)

#define REQUIRE(condition)                                                                   \
  do {                                                                                       \
    if (!(condition)) {                                                                      \
      ::hearth_test::RecordFailure(__FILE__, __LINE__, "REQUIRE(" #condition ")");            \
      throw ::hearth_test::TestAborted();                                                    \
    }                                                                                        \
  } while (0)

#define HEARTH_COMPARE(a, op, b, fatal)                                                                       \
  do {                                                                                                        \
    /* Copies: a reference could dangle into a temporary of the expression. */                              \
    const auto hearth_left_ = (a);                                                                            \
    const auto hearth_right_ = (b);                                                                           \
    if (!(hearth_left_ op hearth_right_)) {                                                                   \
      ::hearth_test::RecordFailure(__FILE__, __LINE__,                                                        \
                                   std::string(#a " " #op " " #b ": ") + ::hearth_test::Describe(hearth_left_) + \
                                       " vs " + ::hearth_test::Describe(hearth_right_));                      \
      if (fatal) throw ::hearth_test::TestAborted();                                                          \
    }                                                                                                         \
  } while (0)

#define CHECK_EQ(a, b) HEARTH_COMPARE(a, ==, b, false)
#define CHECK_NE(a, b) HEARTH_COMPARE(a, !=, b, false)
#define REQUIRE_EQ(a, b) HEARTH_COMPARE(a, ==, b, true)
#define REQUIRE_NE(a, b) HEARTH_COMPARE(a, !=, b, true)

// ---- timing ----------------------------------------------------------------------------------------

// Generous: every operation against the local emulator takes milliseconds.
constexpr int64_t kOperationTimeoutMs = 15000;

int64_t NowMs();
void SleepMs(int64_t milliseconds);
// Polls `condition` every few milliseconds; true once it holds, false after timeout_ms.
bool WaitUntil(const std::function<bool()>& condition, int64_t timeout_ms = kOperationTimeoutMs);

// ---- the emulator ----------------------------------------------------------------------------------

struct EmulatorAddress {
  std::string host;
  uint16_t port = 0;
};

// FIREBASE_AUTH_EMULATOR_HOST parsed; REQUIREs that it is set and well formed.
EmulatorAddress RequireEmulator();
std::string ProjectId();

struct HttpResponse {
  int status = 0;  // 0: no HTTP answer
  std::map<std::string, std::string> headers;  // names lower-cased
  std::string body;
  bool connection_refused = false;
};
// A plain HTTP/1.1 request (no redirects followed; extra_headers are "Name: value\r\n" lines). A body is
// sent as JSON unless extra_headers name another Content-Type.
HttpResponse HttpRequest(const std::string& host, uint16_t port, const std::string& method, const std::string& target,
                         const std::string& extra_headers = "", const std::string& body = "");
// A plain HTTP/1.1 request to the emulator (admin and emulator-only routes the C API does not cover).
HttpResponse EmulatorRequest(const std::string& method, const std::string& path, const std::string& body = "");
// DELETE /emulator/v1/projects/{p}/accounts; REQUIREs success.
void WipeEmulatorAccounts();
// The emulator's out-of-band codes (GET /emulator/v1/projects/{p}/oobCodes), one field map per code.
std::vector<std::map<std::string, std::string>> OobCodes();
bool HasOobCode(const std::string& email, const std::string& request_type);

// ---- the client ------------------------------------------------------------------------------------

constexpr const char* kTestPassword = "testEmailPassword123";
constexpr const char* kTestPasswordBad = "badTestPassword";
constexpr const char* kTestPasswordUpdated = "testpasswordupdated";

// Options for an app that talks to the emulator: owned loop, no persistence, 10 s request timeout.
hearth::AppOptions EmulatorOptions();

// An App + Auth pointed at the emulator, deleted at the end of the scope.
class TestApp {
 public:
  explicit TestApp(const char* name = nullptr,
                   const std::function<void(hearth::AppOptions&)>& configure = std::function<void(hearth::AppOptions&)>());
  ~TestApp();
  TestApp(const TestApp&) = delete;
  TestApp& operator=(const TestApp&) = delete;

  hearth::App* app() const { return app_; }
  hearth::auth::Auth* auth() const { return auth_; }
  // Deletes the app now (idempotent).
  void Destroy();
  // The test takes over deleting the app.
  hearth::App* Release();

 private:
  hearth::App* app_ = nullptr;
  hearth::auth::Auth* auth_ = nullptr;
};

// Holds the app's loop thread in a function posted to it, until Release() or destruction (at most
// 10 s), so that a check right after a call ("the listener was told nothing yet: never inside the
// call") cannot race a loop thread that runs what the call queued the moment it was queued.
class LoopHold {
 public:
  explicit LoopHold(hearth::App* app);
  ~LoopHold();
  LoopHold(const LoopHold&) = delete;
  LoopHold& operator=(const LoopHold&) = delete;
  void Release();

  struct State;

 private:
  std::shared_ptr<State> state_;
};

// A loopback port that accepts connections and never answers (open until the process exits): requests
// to it stay pending until their timeout. 0 when no socket could be made.
int ListeningSocketThatNeverAnswers();

// A fresh lower-case address per call.
std::string NewEmail(const char* tag = "user");

// Waits (Future::Wait) and checks the outcome; false (with a recorded failure) on timeout or another error.
bool WaitForCompletion(const hearth::FutureBase& future, const char* what, int expected_error = hearth::auth::kAuthErrorNone);
// Waits until the future is complete or invalid (TestOperationsOnInvalidUser).
void WaitForCompletionOrInvalidStatus(const hearth::FutureBase& future, const char* what);

// Signs in with email/password, REQUIRing success; the user.
hearth::auth::User CreateUser(hearth::auth::Auth* auth, const std::string& email, const char* password = kTestPassword);
hearth::auth::User SignIn(hearth::auth::Auth* auth, const std::string& email, const char* password = kTestPassword);
hearth::auth::User SignInAnonymously(hearth::auth::Auth* auth);

// A libuv loop the test runs itself (Hearth's host-loop mode): nothing progresses unless Pump runs.
class HostLoop {
 public:
  HostLoop() { initialized_ = uv_loop_init(&loop_) == 0; }
  ~HostLoop() {
    if (!initialized_) return;
    if (frame_timer_started_) uv_close(reinterpret_cast<uv_handle_t*>(&frame_timer_), nullptr);
    // Closing Hearth's handles completes on the next loop turns.
    for (int i = 0; i < 20; ++i) uv_run(&loop_, UV_RUN_NOWAIT);
    const int rc = uv_loop_close(&loop_);
    if (rc != 0) ::hearth_test::RecordFailure(__FILE__, __LINE__, std::string("uv_loop_close: ") + uv_err_name(rc));
  }
  HostLoop(const HostLoop&) = delete;
  HostLoop& operator=(const HostLoop&) = delete;

  uv_loop_t* loop() { return &loop_; }
  bool ok() const { return initialized_; }

  // A handle of the host's own (a game engine's frame timer), which keeps the loop alive.
  void StartFrameTimer() {
    if (!initialized_ || frame_timer_started_) return;
    uv_timer_init(&loop_, &frame_timer_);
    uv_timer_start(&frame_timer_, [](uv_timer_t*) {}, 16, 16);
    frame_timer_started_ = true;
  }

  bool PumpUntil(const std::function<bool()>& condition, int64_t timeout_ms = kOperationTimeoutMs) {
    const int64_t deadline = NowMs() + timeout_ms;
    while (!condition()) {
      if (NowMs() >= deadline) return false;
      uv_run(&loop_, UV_RUN_NOWAIT);
      SleepMs(1);
    }
    return true;
  }
  void PumpFor(int64_t milliseconds) {
    const int64_t deadline = NowMs() + milliseconds;
    while (NowMs() < deadline) {
      uv_run(&loop_, UV_RUN_NOWAIT);
      SleepMs(1);
    }
  }

 private:
  uv_loop_t loop_;
  bool initialized_ = false;
  uv_timer_t frame_timer_;
  bool frame_timer_started_ = false;
};

inline std::function<void(hearth::AppOptions&)> OnLoop(HostLoop* host) {
  return [host](hearth::AppOptions& options) { options.set_loop(host->loop()); };
}

// The decoded payload of a JWT's middle part (base64url), "" if malformed.
std::string JwtPayload(const std::string& token);

}  // namespace hearth_test

#endif  // HEARTH_TESTS_CPP_HARNESS_H
