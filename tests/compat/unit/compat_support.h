// Support for the compatibility layer's own tests: firebase::App fixtures on the emulator, stdout
// capture, child processes for what aborts, and scoped environment and working directory. Built
// with the C++ suite's harness (tests/cpp/harness.h: HEARTH_TEST, CHECK, the emulator helpers).
#ifndef HEARTH_TESTS_COMPAT_UNIT_COMPAT_SUPPORT_H
#define HEARTH_TESTS_COMPAT_UNIT_COMPAT_SUPPORT_H

#include "firebase/app.h"
#include "firebase/auth.h"
#include "firebase/auth/credential.h"
#include "firebase/auth/types.h"
#include "firebase/auth/user.h"
#include "firebase/future.h"
#include "firebase/log.h"
#include "firebase/util.h"
#include "firebase/variant.h"
#include "hearth_compat.h"

#include "harness.h"

#include <functional>
#include <string>

namespace compat_test {

// The emulator project's options, as a Firebase app has them (API key, app id, project id).
firebase::AppOptions Options();

// A firebase::App with its Auth on the emulator (no persistence), deleted at the end of the scope.
class CompatApp {
 public:
  explicit CompatApp(const char* name = nullptr);
  ~CompatApp();
  CompatApp(const CompatApp&) = delete;
  CompatApp& operator=(const CompatApp&) = delete;

  firebase::App* app() const { return app_; }
  firebase::auth::Auth* auth() const { return auth_; }
  void DeleteAuth();
  void DeleteApp();

 private:
  firebase::App* app_ = nullptr;
  firebase::auth::Auth* auth_ = nullptr;
};

// Polls the future until it is complete (as Firebase code does) and checks its error; false, with a
// recorded failure, when it is invalid, times out or ends with another error.
bool WaitFor(const firebase::FutureBase& future, const char* what, int expected_error = firebase::auth::kAuthErrorNone);

// What `body` writes to stdout (fd 1), which goes nowhere else meanwhile.
std::string CaptureStdout(const std::function<void()>& body);

// Runs `body` in a forked child; what it wrote to stdout and how it ended.
struct ChildOutcome {
  bool exited = false;
  int exit_code = -1;
  int signal = 0;
  std::string out;
};
ChildOutcome RunInChild(const std::function<void()>& body);

// Sets (value non-null) or unsets an environment variable for the scope.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value);
  ~ScopedEnv();
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  std::string name_;
  std::string previous_;
  bool had_previous_ = false;
};

// A fresh directory made the working directory for the scope (removed afterwards).
class ScopedWorkingDirectory {
 public:
  ScopedWorkingDirectory();
  ~ScopedWorkingDirectory();
  ScopedWorkingDirectory(const ScopedWorkingDirectory&) = delete;
  ScopedWorkingDirectory& operator=(const ScopedWorkingDirectory&) = delete;
  const std::string& path() const { return path_; }
  void Write(const std::string& name, const std::string& content) const;

 private:
  std::string path_;
  std::string previous_;
};

// A google-services.json for the emulator's project.
std::string GoogleServicesJson(const std::string& api_key = "config-api-key");

}  // namespace compat_test

#endif  // HEARTH_TESTS_COMPAT_UNIT_COMPAT_SUPPORT_H
