// The runner (main) and the emulator helpers declared in harness.h.
#include "harness.h"

#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cctype>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <mutex>

namespace hearth_test {

std::vector<TestCase>& Tests() {
  static std::vector<TestCase> tests;
  return tests;
}

namespace {

std::mutex failures_mutex;
std::vector<std::string> failures;  // of the running test

// A test that hangs (a deadlock is a failure too) must not hang the suite.
constexpr int64_t kTestTimeoutMs = 90000;

}  // namespace

void RecordFailure(const char* file, int line, const std::string& message) {
  const char* base = std::strrchr(file, '/');
  std::ostringstream out;
  out << (base ? base + 1 : file) << ":" << line << ": " << message;
  std::lock_guard<std::mutex> lock(failures_mutex);
  failures.push_back(out.str());
}

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void SleepMs(int64_t milliseconds) { std::this_thread::sleep_for(std::chrono::milliseconds(milliseconds)); }

bool WaitUntil(const std::function<bool()>& condition, int64_t timeout_ms) {
  const int64_t deadline = NowMs() + timeout_ms;
  for (;;) {
    if (condition()) return true;
    if (NowMs() >= deadline) return false;
    SleepMs(2);
  }
}

// ---- emulator ----------------------------------------------------------------------------------------

EmulatorAddress RequireEmulator() {
  const char* value = std::getenv("FIREBASE_AUTH_EMULATOR_HOST");
  if (!value || !*value) {
    RecordFailure(__FILE__, __LINE__,
                  "FIREBASE_AUTH_EMULATOR_HOST is not set: run this suite through scripts/with-emulator");
    throw TestAborted();
  }
  const std::string text(value);
  const size_t colon = text.rfind(':');
  EmulatorAddress address;
  if (colon != std::string::npos && colon > 0) {
    address.host = text.substr(0, colon);
    const long port = std::strtol(text.c_str() + colon + 1, nullptr, 10);
    if (port > 0 && port <= 65535) address.port = static_cast<uint16_t>(port);
  }
  if (address.port == 0) {
    RecordFailure(__FILE__, __LINE__, "FIREBASE_AUTH_EMULATOR_HOST is not host:port: " + text);
    throw TestAborted();
  }
  return address;
}

std::string ProjectId() {
  const char* project = std::getenv("HEARTH_PROJECT");
  return project && *project ? project : "demo-hearth";
}

namespace {

std::string Lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

// Decodes a chunked body; returns false when it is malformed.
bool Unchunk(const std::string& chunked, std::string* body) {
  size_t at = 0;
  body->clear();
  for (;;) {
    const size_t line_end = chunked.find("\r\n", at);
    if (line_end == std::string::npos) return false;
    const unsigned long size = std::strtoul(chunked.substr(at, line_end - at).c_str(), nullptr, 16);
    at = line_end + 2;
    if (size == 0) return true;
    if (at + size > chunked.size()) return false;
    body->append(chunked, at, size);
    at += size + 2;
  }
}

}  // namespace

HttpResponse HttpRequest(const std::string& host, uint16_t port, const std::string& method, const std::string& target,
                         const std::string& extra_headers, const std::string& body) {
  HttpResponse response;
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found) != 0 || !found) return response;
  int fd = -1;
  for (addrinfo* candidate = found; candidate; candidate = candidate->ai_next) {
    fd = socket(candidate->ai_family, candidate->ai_socktype, candidate->ai_protocol);
    if (fd < 0) continue;
    timeval timeout{10, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
    if (connect(fd, candidate->ai_addr, candidate->ai_addrlen) == 0) break;
    if (errno == ECONNREFUSED) response.connection_refused = true;
    close(fd);
    fd = -1;
  }
  freeaddrinfo(found);
  if (fd < 0) return response;
  response.connection_refused = false;

  std::string request = method + " " + target + " HTTP/1.1\r\nHost: " + host + ":" + std::to_string(port) +
                        "\r\nConnection: close\r\nContent-Length: " + std::to_string(body.size()) + "\r\n" +
                        extra_headers;
  if (!body.empty() && Lower(extra_headers).find("content-type:") == std::string::npos) {
    request += "Content-Type: application/json\r\n";
  }
  request += "\r\n" + body;
  size_t sent = 0;
  while (sent < request.size()) {
    const ssize_t n = send(fd, request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) {
      close(fd);
      return response;
    }
    sent += static_cast<size_t>(n);
  }
  std::string raw;
  char buffer[4096];
  for (;;) {
    const ssize_t n = recv(fd, buffer, sizeof buffer, 0);
    if (n <= 0) break;
    raw.append(buffer, static_cast<size_t>(n));
  }
  close(fd);

  const size_t header_end = raw.find("\r\n\r\n");
  if (raw.compare(0, 5, "HTTP/") != 0 || header_end == std::string::npos) return response;
  const size_t space = raw.find(' ');
  response.status = std::atoi(raw.c_str() + space + 1);
  // Header lines after the status line: names lower-cased, values trimmed.
  size_t line_start = raw.find("\r\n") + 2;
  while (line_start < header_end) {
    size_t line_end = raw.find("\r\n", line_start);
    if (line_end == std::string::npos || line_end > header_end) line_end = header_end;
    const std::string line = raw.substr(line_start, line_end - line_start);
    const size_t colon = line.find(':');
    if (colon != std::string::npos) {
      size_t value_start = colon + 1;
      while (value_start < line.size() && line[value_start] == ' ') ++value_start;
      response.headers[Lower(line.substr(0, colon))] = line.substr(value_start);
    }
    line_start = line_end + 2;
  }
  std::string payload = raw.substr(header_end + 4);
  auto encoding = response.headers.find("transfer-encoding");
  if (encoding != response.headers.end() && Lower(encoding->second) == "chunked") {
    std::string decoded;
    if (!Unchunk(payload, &decoded)) {
      response.status = 0;
      return response;
    }
    payload = decoded;
  }
  response.body = payload;
  return response;
}

HttpResponse EmulatorRequest(const std::string& method, const std::string& path, const std::string& body) {
  const EmulatorAddress address = RequireEmulator();
  return HttpRequest(address.host, address.port, method, path, "Authorization: Bearer owner\r\n", body);
}

void WipeEmulatorAccounts() {
  const HttpResponse response = EmulatorRequest("DELETE", "/emulator/v1/projects/" + ProjectId() + "/accounts");
  if (response.status != 200) {
    RecordFailure(__FILE__, __LINE__,
                  "could not wipe the emulator's accounts: HTTP " + std::to_string(response.status) + " " + response.body);
    throw TestAborted();
  }
}

std::vector<std::map<std::string, std::string>> OobCodes() {
  std::vector<std::map<std::string, std::string>> codes;
  const HttpResponse response = EmulatorRequest("GET", "/emulator/v1/projects/" + ProjectId() + "/oobCodes");
  if (response.status != 200) return codes;
  const size_t list = response.body.find('[');
  if (list == std::string::npos) return codes;
  // The entries are flat objects; URLs in them hold no braces.
  size_t at = list;
  for (;;) {
    const size_t open = response.body.find('{', at);
    if (open == std::string::npos) break;
    const size_t close = response.body.find('}', open);
    if (close == std::string::npos) break;
    codes.push_back(hearth::detail::ParseProfile(response.body.substr(open, close - open + 1)));
    at = close + 1;
  }
  return codes;
}

bool HasOobCode(const std::string& email, const std::string& request_type) {
  for (const auto& code : OobCodes()) {
    auto email_field = code.find("email");
    auto type_field = code.find("requestType");
    if (email_field != code.end() && type_field != code.end() && email_field->second == email &&
        type_field->second == request_type) {
      return true;
    }
  }
  return false;
}

// ---- client helpers --------------------------------------------------------------------------------

hearth::AppOptions EmulatorOptions() {
  hearth::AppOptions options;
  options.set_api_key("fake-api-key");
  options.set_project_id(ProjectId().c_str());
  options.set_persistence(hearth::kPersistenceNone);
  options.set_request_timeout_ms(10000);
  return options;
}

TestApp::TestApp(const char* name, const std::function<void(hearth::AppOptions&)>& configure) {
  const EmulatorAddress emulator = RequireEmulator();
  hearth::AppOptions options = EmulatorOptions();
  if (configure) configure(options);
  int error = 0;
  app_ = hearth::App::Create(options, name, &error);
  if (!app_) {
    RecordFailure(__FILE__, __LINE__, "App::Create failed with error " + std::to_string(error));
    throw TestAborted();
  }
  hearth::InitResult init = hearth::kInitResultFailedMissingDependency;
  auth_ = hearth::auth::Auth::GetAuth(app_, &init);
  if (!auth_ || init != hearth::kInitResultSuccess) {
    RecordFailure(__FILE__, __LINE__, "Auth::GetAuth failed");
    Destroy();
    throw TestAborted();
  }
  const hearth::auth::AuthError routed = auth_->UseEmulator(emulator.host, emulator.port);
  if (routed != hearth::auth::kAuthErrorNone) {
    RecordFailure(__FILE__, __LINE__, "UseEmulator failed with error " + std::to_string(routed));
    Destroy();
    throw TestAborted();
  }
}

TestApp::~TestApp() { Destroy(); }

struct LoopHold::State {
  std::mutex mutex;
  std::condition_variable released_cv;
  bool released = false;
};

LoopHold::LoopHold(hearth::App* app) : state_(std::make_shared<State>()) {
  auto* held = new std::shared_ptr<State>(state_);
  const hearth_error posted = hearth_app_post(app->c_app(), [](void* user_data, hearth_error status) {
    std::unique_ptr<std::shared_ptr<State>> state(static_cast<std::shared_ptr<State>*>(user_data));
    if (status != HEARTH_ERROR_NONE) return;  // the app went first: nothing to hold
    std::unique_lock<std::mutex> lock((*state)->mutex);
    (*state)->released_cv.wait_for(lock, std::chrono::seconds(10), [&] { return (*state)->released; });
  }, held);
  if (posted != HEARTH_ERROR_NONE) {
    delete held;
    RecordFailure(__FILE__, __LINE__, "hearth_app_post failed with error " + std::to_string(posted));
    throw TestAborted();
  }
}

LoopHold::~LoopHold() { Release(); }

void LoopHold::Release() {
  std::lock_guard<std::mutex> lock(state_->mutex);
  state_->released = true;
  state_->released_cv.notify_all();
}

void TestApp::Destroy() {
  delete app_;
  app_ = nullptr;
  auth_ = nullptr;
}

hearth::App* TestApp::Release() {
  hearth::App* app = app_;
  app_ = nullptr;
  auth_ = nullptr;
  return app;
}

std::string NewEmail(const char* tag) {
  static std::atomic<int> counter{0};
  const auto micros =
      std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  return Lower(std::string(tag) + "_" + std::to_string(getpid()) + "_" + std::to_string(++counter) + "_" +
               std::to_string(micros) + "@example.com");
}

bool WaitForCompletion(const hearth::FutureBase& future, const char* what, int expected_error) {
  if (future.status() == hearth::kFutureStatusInvalid) {
    RecordFailure(__FILE__, __LINE__, std::string(what) + ": the future is invalid");
    return false;
  }
  if (!future.Wait(kOperationTimeoutMs)) {
    RecordFailure(__FILE__, __LINE__, std::string(what) + ": did not complete in time");
    return false;
  }
  if (future.error() != expected_error) {
    const char* message = future.error_message();
    RecordFailure(__FILE__, __LINE__,
                  std::string(what) + ": expected error " + std::to_string(expected_error) + " (" +
                      hearth::auth::AuthErrorName(expected_error) + "), got " + std::to_string(future.error()) + " (" +
                      hearth::auth::AuthErrorName(future.error()) + "): " + (message ? message : "(null)"));
    return false;
  }
  return true;
}

void WaitForCompletionOrInvalidStatus(const hearth::FutureBase& future, const char* what) {
  if (future.status() == hearth::kFutureStatusInvalid) return;
  if (!future.Wait(kOperationTimeoutMs)) RecordFailure(__FILE__, __LINE__, std::string(what) + ": did not complete in time");
}

hearth::auth::User CreateUser(hearth::auth::Auth* auth, const std::string& email, const char* password) {
  hearth::Future<hearth::auth::AuthResult> future = auth->CreateUserWithEmailAndPassword(email.c_str(), password);
  REQUIRE(WaitForCompletion(future, "CreateUserWithEmailAndPassword"));
  REQUIRE(future.result() != nullptr);
  REQUIRE(future.result()->user.is_valid());
  return future.result()->user;
}

hearth::auth::User SignIn(hearth::auth::Auth* auth, const std::string& email, const char* password) {
  hearth::Future<hearth::auth::AuthResult> future = auth->SignInWithEmailAndPassword(email.c_str(), password);
  REQUIRE(WaitForCompletion(future, "SignInWithEmailAndPassword"));
  REQUIRE(future.result() != nullptr);
  REQUIRE(future.result()->user.is_valid());
  return future.result()->user;
}

hearth::auth::User SignInAnonymously(hearth::auth::Auth* auth) {
  hearth::Future<hearth::auth::AuthResult> future = auth->SignInAnonymously();
  REQUIRE(WaitForCompletion(future, "SignInAnonymously"));
  REQUIRE(future.result() != nullptr);
  REQUIRE(future.result()->user.is_valid());
  return future.result()->user;
}

std::string JwtPayload(const std::string& token) {
  const size_t first = token.find('.');
  const size_t second = first == std::string::npos ? std::string::npos : token.find('.', first + 1);
  if (second == std::string::npos) return "";
  const std::string part = token.substr(first + 1, second - first - 1);
  std::string out;
  uint32_t bits = 0;
  int count = 0;
  for (char c : part) {
    int value;
    if (c >= 'A' && c <= 'Z') value = c - 'A';
    else if (c >= 'a' && c <= 'z') value = c - 'a' + 26;
    else if (c >= '0' && c <= '9') value = c - '0' + 52;
    else if (c == '-' || c == '+') value = 62;
    else if (c == '_' || c == '/') value = 63;
    else if (c == '=') break;
    else return "";
    bits = (bits << 6) | static_cast<uint32_t>(value);
    count += 6;
    if (count >= 8) {
      count -= 8;
      out.push_back(static_cast<char>((bits >> count) & 0xFF));
    }
  }
  return out;
}

}  // namespace hearth_test

// ---- runner ----------------------------------------------------------------------------------------

namespace {

// Prints the summary and exits if a test runs longer than kTestTimeoutMs.
class Watchdog {
 public:
  Watchdog() : thread_([this] { Run(); }) {}
  ~Watchdog() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }
  void Start(const char* name, int passed, int failed) {
    std::lock_guard<std::mutex> lock(mutex_);
    name_ = name;
    passed_ = passed;
    failed_ = failed;
    deadline_ = hearth_test::NowMs() + hearth_test::kTestTimeoutMs;
    wake_.notify_all();
  }
  void Stop() {
    std::lock_guard<std::mutex> lock(mutex_);
    name_ = nullptr;
  }

 private:
  void Run() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!stop_) {
      wake_.wait_for(lock, std::chrono::milliseconds(200));
      if (name_ && hearth_test::NowMs() > deadline_) {
        std::printf("FAIL %s (timed out after %lld ms: hung)\n", name_, static_cast<long long>(hearth_test::kTestTimeoutMs));
        std::printf("%d passed, %d failed\n", passed_, failed_ + 1);
        std::fflush(stdout);
        _exit(1);
      }
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  const char* name_ = nullptr;
  int passed_ = 0, failed_ = 0;
  int64_t deadline_ = 0;
  std::thread thread_;
};

}  // namespace

int main(int argc, char** argv) {
  using namespace hearth_test;
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  const char* filter = argc > 1 ? argv[1] : nullptr;
  if (!std::getenv("FIREBASE_AUTH_EMULATOR_HOST")) {
    std::printf("FIREBASE_AUTH_EMULATOR_HOST is not set: every emulator test will fail "
                "(run through scripts/with-emulator)\n");
  }
  int passed = 0, failed = 0;
  Watchdog watchdog;
  for (const TestCase& test : Tests()) {
    if (filter && !std::strstr(test.name, filter)) continue;
    {
      std::lock_guard<std::mutex> lock(failures_mutex);
      failures.clear();
    }
    watchdog.Start(test.name, passed, failed);
    const int64_t started = NowMs();
    try {
      if (test.needs_emulator) WipeEmulatorAccounts();
      test.body();
    } catch (const TestAborted&) {
      // The failure is already recorded.
    } catch (const std::exception& error) {
      RecordFailure(__FILE__, __LINE__, std::string("uncaught exception: ") + error.what());
    } catch (...) {
      RecordFailure(__FILE__, __LINE__, "uncaught exception");
    }
    watchdog.Stop();
    const long long elapsed = static_cast<long long>(NowMs() - started);
    std::vector<std::string> messages;
    {
      std::lock_guard<std::mutex> lock(failures_mutex);
      messages = failures;
    }
    if (messages.empty()) {
      ++passed;
      std::printf("PASS %s (%lld ms)\n", test.name, elapsed);
    } else {
      ++failed;
      std::printf("FAIL %s (%lld ms)\n", test.name, elapsed);
      for (const std::string& message : messages) std::printf("    %s\n", message.c_str());
    }
  }
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 && passed > 0 ? 0 : 1;
}

namespace hearth_test {

int ListeningSocketThatNeverAnswers() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return 0;
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  if (bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 || listen(fd, 64) != 0 ||
      getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    close(fd);
    return 0;
  }
  return ntohs(address.sin_port);  // the socket stays open: the kernel accepts, nobody answers
}

}  // namespace hearth_test
