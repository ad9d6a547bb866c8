// hearth::SetLogLevel / GetLogLevel / SetLogCallback: nothing printed by default, levels, what the messages
// say and never say (passwords, tokens, codes, the API key), and the std::function's lifetime across
// threads. The C contract underneath is tests/c/test_logging.c.
#include "federated.h"
#include "harness.h"
#include "phone.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

using hearth::LogLevel;
using namespace hearth_test;

static_assert(hearth::kLogLevelVerbose == hearth::kLogLevelDebug && hearth::kLogLevelAssert == hearth::kLogLevelError,
              "Firebase's level names port unchanged");

namespace {

constexpr const char* kLoggingApiKey = "logging-test-api-key-7f3c";

// Every message a callback heard, in order.
class Recorder {
 public:
  void Record(LogLevel level, const char* message) {
    std::lock_guard<std::mutex> lock(mutex_);
    entries_.emplace_back(level, message);
  }
  std::vector<std::pair<LogLevel, std::string>> Entries() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return entries_;
  }
  size_t Count() const { return Entries().size(); }
  // True when a message at `level` contains every needle.
  bool Has(LogLevel level, const std::vector<std::string>& needles) const {
    for (const auto& entry : Entries()) {
      if (entry.first != level) continue;
      bool all = true;
      for (const std::string& needle : needles) all = all && entry.second.find(needle) != std::string::npos;
      if (all) return true;
    }
    return false;
  }
  std::string Transcript() const {
    std::string text;
    for (const auto& entry : Entries()) text += "\n  " + std::to_string(entry.first) + " " + entry.second;
    return text;
  }

 private:
  mutable std::mutex mutex_;
  std::vector<std::pair<LogLevel, std::string>> entries_;
};

// Installs a recorder at `level`; logging goes back to off (at the default level) when it leaves scope.
class Listening {
 public:
  explicit Listening(LogLevel level) : recorder_(std::make_shared<Recorder>()) {
    hearth::SetLogLevel(level);
    std::shared_ptr<Recorder> recorder = recorder_;
    hearth::SetLogCallback([recorder](LogLevel at, const char* message) { recorder->Record(at, message); });
  }
  ~Listening() {
    hearth::SetLogCallback(nullptr);
    hearth::SetLogLevel(hearth::kLogLevelInfo);
  }
  Listening(const Listening&) = delete;
  Listening& operator=(const Listening&) = delete;
  Recorder& recorder() const { return *recorder_; }

 private:
  std::shared_ptr<Recorder> recorder_;
};

#define CHECK_LOGGED(recorder, level, ...)                                                              \
  do {                                                                                                  \
    if (!(recorder).Has((level), {__VA_ARGS__})) {                                                      \
      RecordFailure(__FILE__, __LINE__, "no " #level " message with " #__VA_ARGS__ "; the log was:" +   \
                                            (recorder).Transcript());                                   \
    }                                                                                                   \
  } while (0)

void CheckNeverLogged(const Recorder& recorder, const std::string& secret, const char* what, int line) {
  if (secret.empty()) {
    RecordFailure(__FILE__, line, std::string("the test has no ") + what + " to look for");
    return;
  }
  for (const auto& entry : recorder.Entries()) {
    if (entry.second.find(secret) != std::string::npos) {
      RecordFailure(__FILE__, line, std::string("the ") + what + " was logged: " + entry.second);
    }
  }
}
#define CHECK_NEVER_LOGGED(recorder, secret, what) CheckNeverLogged((recorder), (secret), (what), __LINE__)

std::string OobCode(const std::string& email, const std::string& request_type) {
  for (const auto& code : OobCodes()) {
    auto found = [&code](const char* key) {
      auto it = code.find(key);
      return it == code.end() ? std::string() : it->second;
    };
    if (found("email") == email && found("requestType") == request_type) return found("oobCode");
  }
  return std::string();
}

// Runs `body` with stdout and stderr redirected to a file; what was written to them.
std::string OutputOf(const std::function<void()>& body) {
  char path[] = "/tmp/hearth-cpp-log-test-XXXXXX";
  const int file = mkstemp(path);
  if (file < 0) return "(mkstemp failed)";
  unlink(path);
  std::fflush(stdout);
  std::fflush(stderr);
  const int saved_out = dup(1), saved_err = dup(2);
  dup2(file, 1);
  dup2(file, 2);
  body();
  std::fflush(stdout);
  std::fflush(stderr);
  dup2(saved_out, 1);
  dup2(saved_err, 2);
  close(saved_out);
  close(saved_err);
  std::string text(static_cast<size_t>(lseek(file, 0, SEEK_END)), '\0');
  if (!text.empty() && pread(file, &text[0], text.size(), 0) != static_cast<ssize_t>(text.size())) text = "(unreadable)";
  close(file);
  return text;
}

}  // namespace

// ------------------------------------------------------------------------------------------------
// Off by default: unlike Firebase, a level alone prints nothing
// ------------------------------------------------------------------------------------------------

HEARTH_EMULATOR_TEST(testWithoutALogCallbackNothingIsWrittenToStdoutOrStderrAtAnyLevel) {
  hearth::SetLogLevel(hearth::kLogLevelDebug);
  CHECK_EQ(hearth::GetLogLevel(), hearth::kLogLevelDebug);
  const std::string output = OutputOf([] {
    TestApp fixture;
    const std::string email = NewEmail("quiet");
    CreateUser(fixture.auth(), email);
    fixture.auth()->SignOut();
    WaitForCompletion(fixture.auth()->SignInWithEmailAndPassword(email.c_str(), kTestPasswordBad), "wrong password",
                      hearth::auth::kAuthErrorWrongPassword);
  });
  hearth::SetLogLevel(hearth::kLogLevelInfo);
  CHECK_EQ(output, std::string());
}

// ------------------------------------------------------------------------------------------------
// What the log says, and never says
// ------------------------------------------------------------------------------------------------

HEARTH_EMULATOR_TEST(testAtDebugTheCallbackHearsRequestsOperationsAndSignInChangesWithTheirLevels) {
  Listening listening(hearth::kLogLevelDebug);
  const Recorder& log = listening.recorder();
  TestApp fixture("logging-app");
  hearth::auth::Auth* auth = fixture.auth();
  const std::string email = NewEmail("talkative");
  const std::string uid = CreateUser(auth, email).uid();
  WaitForCompletion(auth->SignInWithEmailAndPassword(email.c_str(), kTestPasswordBad), "wrong password",
                    hearth::auth::kAuthErrorWrongPassword);
  auth->SignOut();
  fixture.Destroy();

  CHECK_LOGGED(log, hearth::kLogLevelInfo, "[logging-app] ", "app created");
  CHECK_LOGGED(log, hearth::kLogLevelDebug, "[logging-app] ", "createUserWithEmailAndPassword started");
  CHECK_LOGGED(log, hearth::kLogLevelInfo, "[logging-app] ", "createUserWithEmailAndPassword succeeded");
  CHECK_LOGGED(log, hearth::kLogLevelDebug, "POST http://", "accounts:signUp?key=<redacted>: HTTP 200 in ");
  CHECK_LOGGED(log, hearth::kLogLevelInfo, "[logging-app] ", "signed in as " + uid);
  CHECK_LOGGED(log, hearth::kLogLevelWarning, "[logging-app] ",
               "signInWithEmailAndPassword failed: HEARTH_ERROR_WRONG_PASSWORD");
  CHECK_LOGGED(log, hearth::kLogLevelInfo, "[logging-app] ", "signed out");
  CHECK_LOGGED(log, hearth::kLogLevelInfo, "[logging-app] ", "app destroyed");
}

HEARTH_EMULATOR_TEST(testLogMessagesNeverContainPasswordsTokensCodesOrTheApiKey) {
  Listening listening(hearth::kLogLevelDebug);
  const Recorder& log = listening.recorder();
  TestApp fixture(nullptr, [](hearth::AppOptions& options) { options.set_api_key(kLoggingApiKey); });
  hearth::auth::Auth* auth = fixture.auth();
  const char* password = "Very-Secret-Password-77";
  const char* wrong_password = "Wrong-Secret-Password-78";
  const std::string email = NewEmail("secretive");
  hearth::auth::User user = CreateUser(auth, email, password);
  // A forced refresh: the refresh token travels too.
  hearth::Future<std::string> token = user.GetToken(true);
  REQUIRE(WaitForCompletion(token, "GetToken(true)"));
  const std::string id_token = *token.result();
  WaitForCompletion(auth->SignInWithEmailAndPassword(email.c_str(), wrong_password), "wrong password",
                    hearth::auth::kAuthErrorWrongPassword);
  auth->SignOut();
  REQUIRE(WaitForCompletion(auth->SendPasswordResetEmail(email.c_str()), "SendPasswordResetEmail"));
  const std::string reset_code = OobCode(email, "PASSWORD_RESET");
  fixture.Destroy();

  REQUIRE(log.Count() > 10);
  CHECK_NEVER_LOGGED(log, password, "password");
  CHECK_NEVER_LOGGED(log, wrong_password, "wrong password");
  CHECK_NEVER_LOGGED(log, id_token, "ID token");
  // The claims part alone (the header is the same in every emulator token).
  CHECK_NEVER_LOGGED(log, id_token.substr(id_token.find('.') + 1, 40), "ID token claims");
  CHECK_NEVER_LOGGED(log, kLoggingApiKey, "API key");
  CHECK_NEVER_LOGGED(log, reset_code, "password reset code");
  // The redaction is visible where the secrets would have been.
  CHECK_LOGGED(log, hearth::kLogLevelDebug, "securetoken.googleapis.com/v1/token?key=<redacted>");
}

// ------------------------------------------------------------------------------------------------
// Failures of operations that carry credentials, at the most verbose level
// ------------------------------------------------------------------------------------------------

namespace {

// The future failed with `error` and its message repeats `echoed`: the server really echoed it.
void CheckFailedEchoing(const hearth::FutureBase& future, int error, const std::string& echoed, const char* what) {
  WaitForCompletion(future, what, error);
  const char* message = future.error_message();
  if (!message || std::string(message).find(echoed) == std::string::npos) {
    RecordFailure(__FILE__, __LINE__, std::string(what) + ": the server's message does not repeat \"" + echoed +
                                          "\": " + (message ? message : "(null)"));
  }
}

// A code one digit off.
std::string Mistyped(std::string code) {
  char& last = code.back();
  last = last == '9' ? '0' : static_cast<char>(last + 1);
  return code;
}

// A short code only counts where it would stand as a value: quoted, after '=', or as a word.
void CheckCodeNeverLogged(const Recorder& recorder, const std::string& code, const char* what, int line) {
  CheckNeverLogged(recorder, code + "\"", what, line);
  CheckNeverLogged(recorder, "=" + code, what, line);
  CheckNeverLogged(recorder, " " + code, what, line);
}

}  // namespace

HEARTH_EMULATOR_TEST(testFailedIdentityProviderPhoneAndSecondFactorOperationsLogNoneOfTheirSecrets) {
  namespace auth = hearth::auth;
  Listening listening(hearth::kLogLevelDebug);
  const Recorder& log = listening.recorder();
  TestApp fixture;
  auth::Auth* a = fixture.auth();
  std::vector<std::pair<std::string, const char*>> secrets;

  // Tokens the server cannot parse come back in its error text; short ones, which the length rule
  // alone would let through.
  const std::string bad_google = "not-a-jwt-" + NewSubject("g");
  const std::string access = "ya29.short-access-7";
  secrets.emplace_back(bad_google, "unparseable Google ID token");
  secrets.emplace_back(access, "Google access token");
  CheckFailedEchoing(a->SignInWithCredential(auth::GoogleAuthProvider::GetCredential(bad_google.c_str(), access.c_str())),
                     auth::kAuthErrorInvalidCredential, bad_google, "sign-in with a bad Google token");
  const std::string bad_json = "{\"sub\":\"" + NewSubject("json") + "\",";
  secrets.emplace_back(bad_json, "broken JSON ID token");
  CheckFailedEchoing(
      a->SignInWithCredential(auth::OAuthProvider::GetCredential("oidc.example", bad_json.c_str(), nullptr)),
      auth::kAuthErrorInvalidCredential, bad_json, "sign-in with broken JSON");
  const auth::User anonymous = SignInAnonymously(a);
  const std::string bad_link = "link-" + NewSubject("l");
  secrets.emplace_back(bad_link, "unparseable ID token to link");
  CheckFailedEchoing(anonymous.LinkWithCredential(auth::GoogleAuthProvider::GetCredential(bad_link.c_str(), nullptr)),
                     auth::kAuthErrorInvalidCredential, bad_link, "link with a bad Google token");
  const std::string bad_reauth = "re-" + NewSubject("r");
  secrets.emplace_back(bad_reauth, "unparseable ID token to reauthenticate");
  CheckFailedEchoing(anonymous.Reauthenticate(auth::GoogleAuthProvider::GetCredential(bad_reauth.c_str(), nullptr)),
                     auth::kAuthErrorInvalidCredential, bad_reauth, "reauthenticate with a bad Google token");
  a->SignOut();

  // Phone: a mistyped code, then the right one.
  std::vector<std::pair<std::string, const char*>> codes;
  const std::string phone_id = VerifyNumber(a, NewPhoneNumber()).verification_id;
  secrets.emplace_back(phone_id, "phone verification id");
  const std::string phone_code = CodeFor(phone_id);
  codes.emplace_back(phone_code, "SMS code");
  codes.emplace_back(Mistyped(phone_code), "mistyped SMS code");
  auth::PhoneAuthProvider& phone = auth::PhoneAuthProvider::GetInstance(a);
  WaitForCompletion(a->SignInWithCredential(phone.GetCredential(phone_id.c_str(), codes.back().first.c_str())),
                    "mistyped SMS code", auth::kAuthErrorInvalidVerificationCode);
  REQUIRE(WaitForCompletion(a->SignInWithCredential(phone.GetCredential(phone_id.c_str(), phone_code.c_str())),
                            "SMS code"));
  a->SignOut();

  // An SMS second factor: enrolled after a mistyped code, then a sign-in resolved after another.
  FakeIdentity google_identity;
  google_identity.sub = NewSubject("mfa");
  google_identity.email = NewEmail("mfa-log");
  google_identity.email_verified = 1;
  const std::string google = google_identity.Json();
  const auth::Credential google_credential = auth::GoogleAuthProvider::GetCredential(google.c_str(), nullptr);
  const hearth::Future<auth::User> signed_in = a->SignInWithCredential(google_credential);
  REQUIRE(WaitForCompletion(signed_in, "Google sign-in"));
  const hearth::Future<auth::MultiFactorSession> session = signed_in.result()->multi_factor().GetSession();
  REQUIRE(WaitForCompletion(session, "GetSession"));
  auth::PhoneAuthOptions options;
  options.phone_number = NewPhoneNumber();
  options.multi_factor_session = *session.result();
  const std::string enroll_id = VerifyNumber(a, options).verification_id;
  secrets.emplace_back(enroll_id, "enrollment session info");
  const std::string enroll_code = CodeFor(enroll_id);
  codes.emplace_back(enroll_code, "enrollment SMS code");
  codes.emplace_back(Mistyped(enroll_code), "mistyped enrollment code");
  const auth::User user = a->current_user();
  WaitForCompletion(user.multi_factor().Enroll(auth::PhoneMultiFactorGenerator::GetAssertion(phone.GetCredential(
                                                   enroll_id.c_str(), codes.back().first.c_str())),
                                               "Phone"),
                    "mistyped enrollment code", auth::kAuthErrorInvalidVerificationCode);
  REQUIRE(WaitForCompletion(user.multi_factor().Enroll(auth::PhoneMultiFactorGenerator::GetAssertion(
                                                           phone.GetCredential(enroll_id.c_str(), enroll_code.c_str())),
                                                       "Phone"),
                            "enrollment"));
  a->SignOut();
  const hearth::Future<auth::AuthResult> stopped = a->SignInAndRetrieveDataWithCredential(google_credential);
  REQUIRE(WaitForCompletion(stopped, "first factor", auth::kAuthErrorSecondFactorRequired));
  const auth::MultiFactorResolver resolver = auth::MultiFactorResolver::FromFuture(stopped);
  REQUIRE(resolver.is_valid());
  auth::PhoneAuthOptions second;
  second.multi_factor_session = resolver.session();
  second.multi_factor_hint = resolver.hints().at(0);
  const std::string sign_in_id = VerifyNumber(a, second).verification_id;
  secrets.emplace_back(sign_in_id, "second-factor session info");
  const std::string sign_in_code = CodeFor(sign_in_id);
  codes.emplace_back(sign_in_code, "second-factor SMS code");
  codes.emplace_back(Mistyped(sign_in_code), "mistyped second-factor code");
  WaitForCompletion(resolver.ResolveSignIn(auth::PhoneMultiFactorGenerator::GetAssertion(
                        phone.GetCredential(sign_in_id.c_str(), codes.back().first.c_str()))),
                    "mistyped second-factor code", auth::kAuthErrorInvalidVerificationCode);
  REQUIRE(WaitForCompletion(resolver.ResolveSignIn(auth::PhoneMultiFactorGenerator::GetAssertion(
                                phone.GetCredential(sign_in_id.c_str(), sign_in_code.c_str()))),
                            "second factor"));
  fixture.Destroy();

  REQUIRE(log.Count() > 20);
  for (const auto& secret : secrets) CHECK_NEVER_LOGGED(log, secret.first, secret.second);
  for (const auto& code : codes) CheckCodeNeverLogged(log, code.first, code.second, __LINE__);
  CHECK_LOGGED(log, hearth::kLogLevelWarning,
               "signInWithCredential failed: HEARTH_ERROR_INVALID_CREDENTIAL (INVALID_IDP_RESPONSE)");
  CHECK_LOGGED(log, hearth::kLogLevelWarning,
               "resolveSignIn failed: HEARTH_ERROR_INVALID_VERIFICATION_CODE (INVALID_CODE)");
}

// ------------------------------------------------------------------------------------------------
// Levels
// ------------------------------------------------------------------------------------------------

HEARTH_EMULATOR_TEST(testTheLevelKeepsQuieterMessagesOutAndCanChangeWhileACallbackIsSet) {
  Listening listening(hearth::kLogLevelWarning);
  const Recorder& log = listening.recorder();
  CHECK_EQ(hearth::GetLogLevel(), hearth::kLogLevelWarning);
  TestApp fixture;
  hearth::auth::Auth* auth = fixture.auth();
  SignInAnonymously(auth);
  CHECK_EQ(log.Count(), size_t{0});
  const std::string ghost = NewEmail("ghost");
  WaitForCompletion(auth->SignInWithEmailAndPassword(ghost.c_str(), kTestPassword), "unknown user",
                    hearth::auth::kAuthErrorUserNotFound);
  REQUIRE_EQ(log.Count(), size_t{1});
  CHECK_LOGGED(log, hearth::kLogLevelWarning, "signInWithEmailAndPassword failed: HEARTH_ERROR_USER_NOT_FOUND");

  hearth::SetLogLevel(hearth::kLogLevelInfo);
  CHECK_EQ(hearth::GetLogLevel(), hearth::kLogLevelInfo);
  SignInAnonymously(auth);
  CHECK_LOGGED(log, hearth::kLogLevelInfo, "signInAnonymously succeeded");
  for (const auto& entry : log.Entries()) CHECK(entry.first >= hearth::kLogLevelInfo);

  hearth::SetLogLevel(hearth::kLogLevelOff);
  const size_t before = log.Count();
  auth->SignOut();
  SignInAnonymously(auth);
  CHECK_EQ(log.Count(), before);
}

HEARTH_TEST(testALevelOutsideLogLevelIsIgnored) {
  hearth::SetLogLevel(hearth::kLogLevelWarning);
  hearth::SetLogLevel(static_cast<LogLevel>(HEARTH_LOG_OFF + 1));
  hearth::SetLogLevel(static_cast<LogLevel>(-1));
  CHECK_EQ(hearth::GetLogLevel(), hearth::kLogLevelWarning);
  hearth::SetLogLevel(hearth::kLogLevelInfo);
}

HEARTH_EMULATOR_TEST(testAnEmptyCallbackTurnsLoggingOff) {
  Listening listening(hearth::kLogLevelDebug);
  const Recorder& log = listening.recorder();
  TestApp fixture;
  SignInAnonymously(fixture.auth());
  REQUIRE(log.Count() > 0);
  hearth::SetLogCallback(nullptr);
  const size_t before = log.Count();
  fixture.auth()->SignOut();
  SignInAnonymously(fixture.auth());
  SleepMs(50);
  CHECK_EQ(log.Count(), before);
}

// ------------------------------------------------------------------------------------------------
// The std::function across threads
// ------------------------------------------------------------------------------------------------

namespace {
// Owned only by the callback that captures it: expires when the wrapper destroys that std::function.
struct Captured {
  std::atomic<int> calls{0};
  std::atomic<bool> inside{false};
  std::atomic<bool> finished{false};
};
}  // namespace

HEARTH_EMULATOR_TEST(testReplacingTheCallbackWaitsForACallOnTheLoopThreadThenDestroysTheOldFunction) {
  TestApp fixture;  // "app created" is logged on this thread: only loop-thread calls are slow below
  auto captured = std::make_shared<Captured>();
  std::weak_ptr<Captured> watch = captured;
  const std::thread::id test_thread = std::this_thread::get_id();
  hearth::SetLogLevel(hearth::kLogLevelDebug);
  hearth::SetLogCallback([captured, test_thread](LogLevel, const char*) {
    captured->calls++;
    if (std::this_thread::get_id() != test_thread && !captured->inside.exchange(true)) {
      SleepMs(300);
      captured->finished = true;
    }
  });
  Captured* raw = captured.get();
  captured.reset();  // the std::function is now the only owner
  hearth::Future<hearth::auth::AuthResult> signing_in = fixture.auth()->SignInAnonymously();
  REQUIRE(WaitUntil([raw] { return raw->inside.load(); }, 5000));

  hearth::SetLogCallback(nullptr);
  // It waited for the running call, and the callback (with what it captured) is gone.
  CHECK(watch.expired());
  hearth::SetLogLevel(hearth::kLogLevelInfo);
  WaitForCompletion(signing_in, "SignInAnonymously");
}

HEARTH_EMULATOR_TEST(testTheCallbackMayCallHearthAndRemoveItselfFromInside) {
  TestApp fixture;
  hearth::auth::Auth* auth = fixture.auth();
  auto captured = std::make_shared<Captured>();
  std::weak_ptr<Captured> watch = captured;
  std::atomic<int> calls{0};
  hearth::SetLogLevel(hearth::kLogLevelInfo);
  // The first INFO message of the sign-in ("signed in as ...") signs out again and removes the
  // callback, from inside it: neither recurses nor deadlocks, and the running std::function survives
  // until it returns.
  hearth::SetLogCallback([captured, auth, &calls](LogLevel, const char*) {
    calls++;
    auth->SignOut();
    hearth::SetLogCallback(nullptr);
    captured->calls++;  // still alive: the wrapper holds it until this call returns
  });
  captured.reset();
  CHECK(WaitForCompletion(auth->SignInAnonymously(), "SignInAnonymously"));
  SleepMs(50);
  CHECK_EQ(calls.load(), 1);
  CHECK(!auth->current_user().is_valid());
  CHECK(watch.expired());
}

HEARTH_EMULATOR_TEST(testExceptionsThrownByTheCallbackAreDroppedAndLoggingGoesOn) {
  std::atomic<int> calls{0};
  hearth::SetLogLevel(hearth::kLogLevelInfo);
  hearth::SetLogCallback([&calls](LogLevel, const char*) {
    calls++;
    throw std::runtime_error("a broken log sink");
  });
  TestApp fixture;
  SignInAnonymously(fixture.auth());
  const int after_first = calls.load();
  fixture.auth()->SignOut();
  SignInAnonymously(fixture.auth());
  hearth::SetLogCallback(nullptr);
  CHECK(after_first > 0);
  CHECK(calls.load() > after_first);
}

HEARTH_EMULATOR_TEST(testCallbacksReplacedFromManyThreadsWhileAppsLogAreAllDestroyedAndNoneDeadlocks) {
  TestApp fixture;
  hearth::auth::Auth* auth = fixture.auth();
  std::atomic<bool> done{false};
  std::mutex watches_mutex;
  std::vector<std::weak_ptr<Captured>> watches;
  std::atomic<int> delivered{0};
  // The app logs on its loop thread the whole time.
  std::thread signing_in([auth, &done] {
    while (!done) {
      auth->SignOut();
      auth->SignInAnonymously().Wait(kOperationTimeoutMs);
    }
  });
  std::vector<std::thread> setters;
  for (int t = 0; t < 3; ++t) {
    setters.emplace_back([t, &watches_mutex, &watches, &delivered] {
      for (int i = 0; i < 40; ++i) {
        auto captured = std::make_shared<Captured>();
        {
          std::lock_guard<std::mutex> lock(watches_mutex);
          watches.push_back(captured);
        }
        hearth::SetLogCallback([captured, &delivered](LogLevel, const char*) {
          captured->calls++;
          delivered++;
        });
        hearth::SetLogLevel((i + t) % 3 ? hearth::kLogLevelDebug : hearth::kLogLevelWarning);
        SleepMs(1);
      }
    });
  }
  for (std::thread& setter : setters) setter.join();
  done = true;
  signing_in.join();
  hearth::SetLogCallback(nullptr);
  hearth::SetLogLevel(hearth::kLogLevelInfo);

  CHECK(delivered.load() > 0);
  size_t alive = 0;
  for (const auto& watch : watches) alive += watch.expired() ? 0 : 1;
  CHECK_EQ(alive, size_t{0});
  CHECK_EQ(watches.size(), size_t{120});
}
