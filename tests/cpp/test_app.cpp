// hearth::App and AppOptions: creation, names, emulator routing, sessions across app restarts.
#include "harness.h"

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <mutex>

using hearth::App;
using hearth::AppOptions;
using hearth::Future;
using hearth::auth::Auth;
using hearth::auth::AuthResult;
using hearth::auth::User;
using namespace hearth_test;

namespace {

// A loopback port nobody listens on (bound, then closed).
uint16_t ClosedPort() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return 0;
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  uint16_t port = 0;
  if (bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
      getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0) {
    port = ntohs(address.sin_port);
  }
  close(fd);
  return port;
}

// Session storage in memory, recording how Hearth uses it.
class MemoryStorage : public hearth::SessionStorage {
 public:
  bool Load(const std::string& key, std::string* data) override {
    std::lock_guard<std::mutex> lock(mutex_);
    ++loads_;
    keys_.push_back(key);
    if (fail_loads_) return false;
    auto it = data_.find(key);
    if (it != data_.end()) *data = it->second;
    return true;
  }
  bool Save(const std::string& key, const std::string& data) override {
    std::lock_guard<std::mutex> lock(mutex_);
    ++saves_;
    keys_.push_back(key);
    RecordThread();
    data_[key] = data;
    return true;
  }
  bool Erase(const std::string& key) override {
    std::lock_guard<std::mutex> lock(mutex_);
    ++erases_;
    keys_.push_back(key);
    data_.erase(key);
    return true;
  }

  void set_app(App* app) { app_ = app; }
  void set_fail_loads(bool fail) {
    std::lock_guard<std::mutex> lock(mutex_);
    fail_loads_ = fail;
  }
  int loads() {
    std::lock_guard<std::mutex> lock(mutex_);
    return loads_;
  }
  int saves() {
    std::lock_guard<std::mutex> lock(mutex_);
    return saves_;
  }
  int erases() {
    std::lock_guard<std::mutex> lock(mutex_);
    return erases_;
  }
  int off_loop_calls() {
    std::lock_guard<std::mutex> lock(mutex_);
    return off_loop_calls_;
  }
  size_t stored() {
    std::lock_guard<std::mutex> lock(mutex_);
    return data_.size();
  }
  std::vector<std::string> keys() {
    std::lock_guard<std::mutex> lock(mutex_);
    return keys_;
  }
  std::string Contents() {
    std::lock_guard<std::mutex> lock(mutex_);
    std::string all;
    for (const auto& entry : data_) all += entry.second;
    return all;
  }

 private:
  // Saves run on the loop thread.
  void RecordThread() {
    App* app = app_.load();
    if (!app || !app->is_loop_thread()) ++off_loop_calls_;
  }

  std::mutex mutex_;
  std::map<std::string, std::string> data_;
  std::vector<std::string> keys_;
  std::atomic<App*> app_{nullptr};
  bool fail_loads_ = false;
  int loads_ = 0, saves_ = 0, erases_ = 0, off_loop_calls_ = 0;
};

class TempDir {
 public:
  TempDir() {
    char pattern[] = "/tmp/hearth-cpp-XXXXXX";
    const char* made = mkdtemp(pattern);
    if (made) path_ = made;
  }
  ~TempDir() {
    std::error_code ignored;
    if (!path_.empty()) std::filesystem::remove_all(path_, ignored);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace

HEARTH_TEST(testCreatingAnAppWithoutAnApiKeyFails) {
  AppOptions options;
  options.set_persistence(hearth::kPersistenceNone);
  int error = 0;
  App* app = App::Create(options, "no-api-key", &error);
  CHECK(app == nullptr);
  CHECK_NE(error, 0);
  delete app;
  // The name is free again.
  CHECK(App::GetInstance("no-api-key") == nullptr);
  options.set_api_key(nullptr);
  error = 0;
  CHECK(App::Create(options, "no-api-key", &error) == nullptr);
  CHECK_NE(error, 0);
}

HEARTH_TEST(testGetAuthWithoutAnAppFails) {
  hearth::InitResult init = hearth::kInitResultSuccess;
  CHECK(Auth::GetAuth(nullptr, &init) == nullptr);
  CHECK_EQ(init, hearth::kInitResultFailedMissingDependency);
  CHECK(Auth::GetAuth(nullptr) == nullptr);
}

HEARTH_EMULATOR_TEST(testAppNamesAreUniqueAndFoundByGetInstance) {
  TestApp named("named-app");
  TestApp unnamed;
  CHECK_EQ(std::string(named.app()->name()), std::string("named-app"));
  CHECK(App::GetInstance("named-app") == named.app());
  CHECK(App::GetInstance() == unnamed.app());
  CHECK(App::GetInstance(hearth::kDefaultAppName) == unnamed.app());
  CHECK_EQ(std::string(named.app()->options().api_key()), std::string("fake-api-key"));

  int error = 0;
  App* duplicate = App::Create(EmulatorOptions(), "named-app", &error);
  CHECK(duplicate == nullptr);
  CHECK_EQ(error, hearth::auth::kAuthErrorInvalidArgument);
  delete duplicate;

  // The options' app name is used when Create is given none.
  AppOptions options = EmulatorOptions();
  options.set_app_name("from-options");
  App* from_options = App::Create(options);
  REQUIRE(from_options != nullptr);
  CHECK_EQ(std::string(from_options->name()), std::string("from-options"));
  CHECK(App::GetInstance("from-options") == from_options);
  delete from_options;
  CHECK(App::GetInstance("from-options") == nullptr);

  named.Destroy();
  CHECK(App::GetInstance("named-app") == nullptr);
  CHECK(App::GetInstance() == unnamed.app());
}

HEARTH_EMULATOR_TEST(testUseEmulatorRoutesEveryRequest) {
  TestApp fixture;
  Auth* auth = fixture.auth();
  const EmulatorAddress emulator = RequireEmulator();
  const uint16_t closed = ClosedPort();
  REQUIRE(closed != 0);
  CHECK_EQ(auth->UseEmulator("127.0.0.1", closed), hearth::auth::kAuthErrorNone);
  Future<AuthResult> unreachable = auth->SignInAnonymously();
  CHECK(WaitForCompletion(unreachable, "SignInAnonymously (nobody listening)",
                          hearth::auth::kAuthErrorNetworkRequestFailed));
  CHECK(!auth->current_user().is_valid());

  CHECK_EQ(auth->UseEmulator(emulator.host, emulator.port), hearth::auth::kAuthErrorNone);
  const User user = SignInAnonymously(auth);
  // Token refresh goes to the emulator too.
  CHECK(WaitForCompletion(user.GetToken(true), "GetToken(true)"));

  CHECK_EQ(auth->UseEmulator("127.0.0.1", 70000), hearth::auth::kAuthErrorInvalidArgument);
  // A rejected call changes nothing.
  CHECK(WaitForCompletion(user.GetToken(true), "GetToken(true) after a rejected UseEmulator"));
}

HEARTH_EMULATOR_TEST(testTheEmulatorHostVariableRoutesANewApp) {
  RequireEmulator();
  App* app = App::Create(EmulatorOptions());
  REQUIRE(app != nullptr);
  Auth* auth = Auth::GetAuth(app);
  // No UseEmulator call: FIREBASE_AUTH_EMULATOR_HOST is enough.
  Future<AuthResult> future = auth->SignInAnonymously();
  CHECK(WaitForCompletion(future, "SignInAnonymously"));
  delete app;
}

HEARTH_EMULATOR_TEST(testSessionStorageRestoresTheUserAcrossRestarts) {
  MemoryStorage storage;
  auto with_storage = [&storage](AppOptions& options) { options.set_session_storage(&storage); };
  std::string uid;
  {
    TestApp first("stored-session", with_storage);
    storage.set_app(first.app());
    CHECK_EQ(storage.loads(), 1);  // synchronously, during App::Create
    CHECK(!first.auth()->current_user().is_valid());
    uid = SignInAnonymously(first.auth()).uid();
    CHECK(WaitUntil([&] { return storage.stored() == 1; }));
    CHECK(storage.saves() >= 1);
    storage.set_app(nullptr);
  }
  // What was stored is this user's session.
  CHECK(storage.Contents().find(uid) != std::string::npos);
  {
    TestApp second("stored-session", with_storage);
    storage.set_app(second.app());
    CHECK_EQ(storage.loads(), 2);
    // Right from the first call, before any loop turn.
    const User restored = second.auth()->current_user();
    REQUIRE(restored.is_valid());
    CHECK_EQ(restored.uid(), uid);
    CHECK(restored.is_anonymous());
    CHECK(WaitForCompletion(restored.GetToken(true), "GetToken(true) of the restored user"));
    second.auth()->SignOut();
    // Erased before SignOut returns.
    CHECK(storage.erases() >= 1);
    CHECK_EQ(storage.stored(), size_t{0});
    storage.set_app(nullptr);
  }
  {
    TestApp third("stored-session", with_storage);
    CHECK(!third.auth()->current_user().is_valid());
  }
  CHECK_EQ(storage.off_loop_calls(), 0);
  // One key for the one app name and API key.
  const std::vector<std::string> keys = storage.keys();
  REQUIRE(!keys.empty());
  for (const std::string& key : keys) CHECK_EQ(key, keys.front());
  CHECK(!keys.front().empty());
}

HEARTH_EMULATOR_TEST(testAFailingSessionStorageLoadsAsSignedOut) {
  MemoryStorage storage;
  auto with_storage = [&storage](AppOptions& options) { options.set_session_storage(&storage); };
  {
    TestApp first("failing-storage", with_storage);
    SignInAnonymously(first.auth());
    CHECK(WaitUntil([&] { return storage.stored() == 1; }));
  }
  storage.set_fail_loads(true);
  TestApp second("failing-storage", with_storage);
  CHECK(!second.auth()->current_user().is_valid());
  // The app works normally.
  SignInAnonymously(second.auth());
}

// The C++ SDK's TestAuthPersistenceWithAnonymousSignin and ...WithEmailSignin (skipped on Linux there:
// Hearth's file store needs no keyring).
HEARTH_EMULATOR_TEST(TestAuthPersistenceWithAnonymousSignin) {
  TempDir dir;
  REQUIRE(!dir.path().empty());
  auto in_dir = [&dir](AppOptions& options) {
    options.set_persistence(hearth::kPersistenceFile);
    options.set_persistence_dir(dir.path().c_str());
  };
  std::string uid;
  {
    TestApp first(nullptr, in_dir);
    uid = SignInAnonymously(first.auth()).uid();
    CHECK(first.auth()->current_user().is_anonymous());
  }
  TestApp second(nullptr, in_dir);
  const User user = second.auth()->current_user();
  REQUIRE(user.is_valid());
  CHECK(user.is_anonymous());
  CHECK_EQ(user.uid(), uid);
  CHECK(WaitForCompletion(user.Delete(), "Delete"));
}

HEARTH_EMULATOR_TEST(TestAuthPersistenceWithEmailSignin) {
  TempDir dir;
  REQUIRE(!dir.path().empty());
  auto in_dir = [&dir](AppOptions& options) {
    options.set_persistence(hearth::kPersistenceFile);
    options.set_persistence_dir(dir.path().c_str());
  };
  const std::string email = NewEmail();
  std::string prev_provider_id;
  std::vector<std::string> prev_provider_data_ids;
  {
    TestApp first(nullptr, in_dir);
    CreateUser(first.auth(), email);
    const User user = first.auth()->current_user();
    CHECK(!user.is_anonymous());
    prev_provider_id = user.provider_id();
    for (const auto& info : user.provider_data()) prev_provider_data_ids.push_back(info.provider_id());
  }
  TestApp second(nullptr, in_dir);
  const User user = second.auth()->current_user();
  REQUIRE(user.is_valid());
  CHECK(!user.is_anonymous());
  CHECK_EQ(user.email(), email);
  // The provider IDs are the same as they were before.
  CHECK_EQ(user.provider_id(), prev_provider_id);
  std::vector<std::string> loaded_provider_data_ids;
  for (const auto& info : user.provider_data()) loaded_provider_data_ids.push_back(info.provider_id());
  CHECK_EQ(loaded_provider_data_ids, prev_provider_data_ids);
  CHECK(WaitForCompletion(user.Delete(), "Delete"));
}

HEARTH_EMULATOR_TEST(testWithoutPersistenceARestartedAppIsSignedOut) {
  {
    TestApp first;
    SignInAnonymously(first.auth());
  }
  TestApp second;
  CHECK(!second.auth()->current_user().is_valid());
}
