#include "compat_support.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace compat_test {

using namespace hearth_test;

firebase::AppOptions Options() {
  firebase::AppOptions options;
  options.set_api_key("fake-api-key");
  options.set_app_id("1:1234567890:android:0123456789abcdef");
  options.set_project_id(ProjectId().c_str());
  return options;
}

CompatApp::CompatApp(const char* name) {
  RequireEmulator();
  firebase::SetLogLevel(firebase::kLogLevelError);
  hearth::compat::SetDefaultHearthOptions(EmulatorOptions());
  app_ = firebase::App::Create(Options(), name ? name : firebase::kDefaultAppName);
  if (!app_) {
    RecordFailure(__FILE__, __LINE__, "firebase::App::Create failed");
    throw TestAborted();
  }
  firebase::InitResult init = firebase::kInitResultFailedMissingDependency;
  auth_ = firebase::auth::Auth::GetAuth(app_, &init);
  if (!auth_ || init != firebase::kInitResultSuccess) {
    RecordFailure(__FILE__, __LINE__, "firebase::auth::Auth::GetAuth failed");
    DeleteApp();
    throw TestAborted();
  }
}

CompatApp::~CompatApp() {
  DeleteAuth();
  DeleteApp();
}

void CompatApp::DeleteAuth() {
  delete auth_;
  auth_ = nullptr;
}

void CompatApp::DeleteApp() {
  delete app_;
  app_ = nullptr;
}

bool WaitFor(const firebase::FutureBase& future, const char* what, int expected_error) {
  if (future.status() == firebase::kFutureStatusInvalid) {
    RecordFailure(__FILE__, __LINE__, std::string(what) + ": the Future is invalid");
    return false;
  }
  const int64_t deadline = NowMs() + kOperationTimeoutMs;
  while (future.status() == firebase::kFutureStatusPending) {
    if (NowMs() > deadline) {
      RecordFailure(__FILE__, __LINE__, std::string(what) + ": timed out");
      return false;
    }
    SleepMs(2);
  }
  if (future.error() != expected_error) {
    RecordFailure(__FILE__, __LINE__,
                  std::string(what) + ": error " + std::to_string(future.error()) + " (" +
                      (future.error_message() ? future.error_message() : "") + "), expected " +
                      std::to_string(expected_error));
    return false;
  }
  return true;
}

std::string CaptureStdout(const std::function<void()>& body) {
  std::fflush(stdout);
  char path[] = "/tmp/hearth-compat-stdout-XXXXXX";
  const int file = mkstemp(path);
  const int saved = dup(1);
  dup2(file, 1);
  body();
  std::fflush(stdout);
  dup2(saved, 1);
  close(saved);
  close(file);
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  unlink(path);
  return text.str();
}

ChildOutcome RunInChild(const std::function<void()>& body) {
  ChildOutcome outcome;
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) return outcome;
  std::fflush(stdout);
  const pid_t pid = fork();
  if (pid == 0) {
    close(pipe_fds[0]);
    dup2(pipe_fds[1], 1);
    body();
    std::fflush(stdout);
    _exit(0);
  }
  close(pipe_fds[1]);
  char buffer[4096];
  ssize_t got;
  while ((got = read(pipe_fds[0], buffer, sizeof buffer)) > 0) outcome.out.append(buffer, static_cast<size_t>(got));
  close(pipe_fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  outcome.exited = WIFEXITED(status);
  outcome.exit_code = outcome.exited ? WEXITSTATUS(status) : -1;
  outcome.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  return outcome;
}

ScopedEnv::ScopedEnv(const char* name, const char* value) : name_(name) {
  if (const char* previous = std::getenv(name)) {
    had_previous_ = true;
    previous_ = previous;
  }
  if (value) {
    setenv(name, value, 1);
  } else {
    unsetenv(name);
  }
}

ScopedEnv::~ScopedEnv() {
  if (had_previous_) {
    setenv(name_.c_str(), previous_.c_str(), 1);
  } else {
    unsetenv(name_.c_str());
  }
}

ScopedWorkingDirectory::ScopedWorkingDirectory() {
  char buffer[4096];
  if (getcwd(buffer, sizeof buffer)) previous_ = buffer;
  char path[] = "/tmp/hearth-compat-cwd-XXXXXX";
  if (mkdtemp(path)) path_ = path;
  if (path_.empty() || chdir(path_.c_str()) != 0) {
    RecordFailure(__FILE__, __LINE__, "could not make a working directory");
    throw TestAborted();
  }
}

ScopedWorkingDirectory::~ScopedWorkingDirectory() {
  if (!previous_.empty() && chdir(previous_.c_str()) != 0) std::perror("chdir");
  const std::string command = "rm -rf '" + path_ + "'";
  if (std::system(command.c_str()) != 0) std::perror("rm");
}

void ScopedWorkingDirectory::Write(const std::string& name, const std::string& content) const {
  std::ofstream out(path_ + "/" + name, std::ios::binary);
  out << content;
}

std::string GoogleServicesJson(const std::string& api_key) {
  const std::string project = ProjectId();
  return "{\"project_info\":{\"project_number\":\"1234567890\",\"firebase_url\":\"https://" + project +
         ".firebaseio.com\",\"project_id\":\"" + project + "\",\"storage_bucket\":\"" + project +
         ".appspot.com\"},\"client\":[{\"client_info\":{\"mobilesdk_app_id\":\"1:1234567890:android:abc\","
         "\"android_client_info\":{\"package_name\":\"com.example.app\"}},\"api_key\":[{\"current_key\":\"" +
         api_key + "\"}],\"services\":{\"analytics_service\":{\"status\":1,\"analytics_property\":{\"tracking_id\":"
         "\"UA-1-1\"}}}}],\"configuration_version\":\"1\"}";
}

}  // namespace compat_test
