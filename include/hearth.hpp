/*
 * hearth.hpp — header-only C++17 wrapper over hearth.h whose usage matches the Firebase C++ SDK.
 *
 * Porting: code written against firebase::App / firebase::auth (v11+ API, User by value) compiles against
 * hearth::App / hearth::auth with the namespace changed. Link with -lhearth -luv.
 *
 *   hearth::AppOptions options;
 *   options.set_api_key("...");
 *   hearth::App* app = hearth::App::Create(options);
 *   hearth::auth::Auth* auth = hearth::auth::Auth::GetAuth(app);
 *   auth->SignInAnonymously().OnCompletion([](const hearth::Future<hearth::auth::AuthResult>& f) {
 *     if (f.error() == hearth::auth::kAuthErrorNone) printf("%s\n", f.result()->user.uid().c_str());
 *   });
 *   ...
 *   delete app;   // also deletes its Auth
 *
 * Where Hearth differs from the Firebase C++ SDK (on purpose):
 * - Threads. Every callback (OnCompletion, listeners, SessionStorage::Save/Erase) runs on the app's loop
 *   thread, never inside the call that registered it: a callback set on a finished future runs on the
 *   next loop turn. No lock is held while a callback runs, so callbacks may call any Hearth function,
 *   including blocking-free operations on the same Auth (the C++ SDK deadlocks there).
 * - User is an immutable snapshot. It does not follow later sign-ins; call Auth::current_user() again to
 *   see changes (profile updates, reloads, sign-out). Operations on a snapshot act on the signed-in user
 *   with the same uid and fail with kAuthErrorNoSignedInUser when that user is gone. Operations on an
 *   invalid User return an invalid Future (error() == -1), as in the C++ SDK.
 * - A callback given to OnCompletion runs even when every copy of the Future has been destroyed (as the
 *   C++ SDK does through its LastResult references). Deleting the App completes its pending operations
 *   with kAuthErrorCancelled, and their callbacks run then: with Hearth's own loop before `delete app`
 *   returns, with a host loop on its next turn (the C library's rule: every callback registered runs
 *   once). Copies of one Future share one callback slot; a Future from *LastResult() has its own.
 * - Futures, Users and Credentials may outlive the App.
 * - Provider sign-in (SignInWithProvider, LinkWithProvider, ReauthenticateWithProvider) works on a
 *   desktop (the C++ SDK's desktop build answers kAuthErrorUnimplemented): set the UI delegate and
 *   redirect target first with Auth::SetProviderFlowOptions.
 * - Phone number sign-in works on a desktop (the C++ SDK's desktop PhoneAuthProvider fails with
 *   kAuthErrorApiNotAvailable). PhoneAuthProvider::Listener callbacks run on the loop thread;
 *   OnVerificationCompleted is never called (a desktop neither reads SMS nor verifies instantly), and
 *   OnCodeAutoRetrievalTimeOut runs timeout_milliseconds after the code was sent. App verification shows
 *   reCAPTCHA through the provider flow's UI delegate (see Auth::SetAppVerificationDisabledForTesting).
 * - Multi-factor authentication (SMS and TOTP second factors), which the C++ SDK lacks, shaped after the
 *   Apple and JS SDKs: MultiFactorResolver::FromFuture on kAuthErrorSecondFactorRequired, User::multi_factor(),
 *   PhoneMultiFactorGenerator, TotpMultiFactorGenerator, TotpSecret.
 * - AuthResult::credential holds the identity provider's credential the server returned, and a FAILED
 *   link or sign-in whose identity belongs to another account still has a result():
 *   additional_user_info.updated_credential signs in to that account (the SDK's documented recipe).
 * - Extras: App options for the libuv loop, persistence and timeouts; Future::Wait; is_new_user and email
 *   in AdditionalUserInfo; Credential::id_token/access_token/secret; FacebookAuthProvider's Limited
 *   Login, AppleAuthProvider (with the user's name), Nonce; provider flow options, Auth::HandleUrl,
 *   CancelProviderFlow and GetCredentialWithProvider (the provider's page for a credential only, the
 *   Apple SDK's getCredentialWith); PhoneAuthProvider::VerifyPhoneNumber as a Future; Hearth's own error codes
 *   (kAuthErrorInvalidArgument and up, from 1000).
 * - Logging: SetLogLevel / GetLogLevel as in firebase/log.h, but nothing is printed until SetLogCallback
 *   installs a std::function (called on the thread that logs; secrets are never in the messages).
 * - Exceptions thrown by callbacks cannot cross the C ABI: they are caught and dropped.
 */
#ifndef HEARTH_HPP
#define HEARTH_HPP

#include "hearth.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

namespace hearth {

class App;
class FutureBase;
template <typename T>
class Future;

namespace auth {
class Auth;
class User;
class MultiFactor;
class AuthStateListener;
class IdTokenListener;
}  // namespace auth

namespace detail {
class ProviderArgument;
struct FutureAccess;
struct PhoneListenerState;
}  // namespace detail

/// Status of a Future, with firebase::FutureStatus's values.
enum FutureStatus {
  kFutureStatusComplete = HEARTH_FUTURE_COMPLETE,
  kFutureStatusPending = HEARTH_FUTURE_PENDING,
  kFutureStatusInvalid = HEARTH_FUTURE_INVALID
};

/// Result of Auth::GetAuth, as firebase::InitResult.
enum InitResult { kInitResultSuccess = 0, kInitResultFailedMissingDependency };

/// Future::Wait's "no timeout".
constexpr int64_t kWaitTimeoutInfinite = -1;

/// Name of the app created without a name.
constexpr const char* kDefaultAppName = "[DEFAULT]";

// -------------------------------------------------------------------------------------------------
// Internals shared by the public types. Not part of the API.
// -------------------------------------------------------------------------------------------------
namespace detail {

// Marks constructors that take ownership of a C reference.
struct AdoptTag {};
constexpr AdoptTag kAdopt{};

inline std::string CopyString(const char* text) { return text ? std::string(text) : std::string(); }

// The calling thread's last synchronous failure of the wrapper (LastErrorCode / LastErrorMessage): a
// failed C call's hearth_last_error_*, or the wrapper's own refusal of an argument.
struct LastErrorRecord {
  int code = HEARTH_ERROR_NONE;
  std::string message;
};
inline LastErrorRecord& ThreadLastError() {
  thread_local LastErrorRecord record;
  return record;
}
// Records a refusal of the wrapper's own; returns `code`.
inline int SetLastError(int code, std::string message) {
  LastErrorRecord& record = ThreadLastError();
  record.code = code;
  record.message = std::move(message);
  return code;
}
// Records the failure a C call just reported (its hearth_last_error_*); returns `code`.
inline int TakeCLastError(int code) {
  return SetLastError(code, CopyString(hearth_last_error_message()));
}

// What users and futures need of their app after the App object may be gone: the C handles, cleared
// (under the mutex) before the app is destroyed.
struct AppCore {
  std::mutex mutex;
  hearth_app* app = nullptr;
  hearth_auth* auth = nullptr;
};
using AppCorePtr = std::shared_ptr<AppCore>;

// Builds the typed result of a finished future (specialized per result type further down).
template <typename T>
struct FutureReader;

// One C future reference shared by all copies of a Future, plus its lazily built typed result.
class FutureHandle {
 public:
  using Reader = std::shared_ptr<const void> (*)(const hearth_future*, const AppCorePtr&);

  FutureHandle(hearth_future* future, AppCorePtr core, Reader reader, std::string error_message = std::string())
      : future_(future), core_(std::move(core)), reader_(reader), error_message_(std::move(error_message)) {}
  ~FutureHandle() { hearth_future_release(future_); }
  FutureHandle(const FutureHandle&) = delete;
  FutureHandle& operator=(const FutureHandle&) = delete;

  hearth_future* future() const { return future_; }
  const AppCore* core() const { return core_.get(); }
  const AppCorePtr& app_core() const { return core_; }

  // The failure's message: the wrapper's own, when it refused an argument before Hearth saw it.
  const char* ErrorMessage() const {
    const char* message = hearth_future_error_message(future_);
    if (error_message_.empty() || !message || hearth_future_error(future_) <= 0) return message;
    return error_message_.c_str();
  }

  // The typed result once the future is complete (a default value when it failed), else nullptr.
  const void* Result() {
    if (hearth_future_status(future_) != HEARTH_FUTURE_COMPLETE) return nullptr;
    std::lock_guard<std::mutex> lock(mutex_);
    if (!result_ && reader_) result_ = reader_(future_, core_);
    return result_.get();
  }

  // Firebase's one callback slot per Future (shared by its copies): OnCompletion bumps the generation,
  // and a C callback whose generation is no longer current runs nothing of the host's. Atomic, so a
  // firing callback never takes a lock another thread may hold while calling into Hearth.
  std::atomic<uint64_t> callback_generation{0};
  // Serializes OnCompletion calls on copies of one Future (never taken by a firing callback).
  std::mutex callback_mutex;

 private:
  hearth_future* const future_;
  const AppCorePtr core_;
  const Reader reader_;
  const std::string error_message_;
  std::mutex mutex_;
  std::shared_ptr<const void> result_;
};
using FutureHandlePtr = std::shared_ptr<FutureHandle>;

// One OnCompletion, as the user_data of its C completion callback, which Hearth calls exactly once (when
// the operation completes; as kAuthErrorCancelled if the App is deleted first), and which deletes it.
// It keeps the Future's shared reference alive until then, as the C++ SDK keeps a completed Future's
// callback running after every copy is gone.
struct PendingCompletion {
  FutureHandlePtr handle;
  uint64_t generation;
  std::function<void(const FutureHandlePtr&)> invoke;
};

inline void OnFutureComplete(hearth_future* /*future*/, void* user_data) {
  std::unique_ptr<PendingCompletion> pending(static_cast<PendingCompletion*>(user_data));
  // A later OnCompletion replaced this one: only the most recent callback runs.
  if (pending->handle->callback_generation.load() != pending->generation) return;
  try {
    pending->invoke(pending->handle);
  } catch (...) {
    // An exception must not unwind into the C library's loop.
  }
}

inline void SetCompletion(const FutureHandlePtr& handle, std::function<void(const FutureHandlePtr&)> invoke) {
  if (!handle || !invoke) return;
  auto pending = std::make_unique<PendingCompletion>(PendingCompletion{handle, 0, std::move(invoke)});
  // Held across the C call so that concurrent OnCompletion calls on copies agree on the latest one.
  std::lock_guard<std::mutex> lock(handle->callback_mutex);
  const uint64_t previous = handle->callback_generation.load();
  pending->generation = previous + 1;
  // Current before Hearth has it: on Hearth's own loop thread it may run before the call returns.
  handle->callback_generation.store(pending->generation);
  if (hearth_future_add_callback(handle->future(), &OnFutureComplete, pending.get()) != HEARTH_ERROR_NONE) {
    // Refused (the App is gone): the earlier callback stays the one that runs.
    handle->callback_generation.store(previous);
    return;
  }
  pending.release();  // Hearth owns it now, until OnFutureComplete
}

}  // namespace detail

/// Hearth extra: the calling thread's last synchronous failure in the wrapper, as hearth.h's
/// hearth_last_error_code / hearth_last_error_message: App::Create returning nullptr, a provider's
/// GetCredential returning an invalid Credential, an AuthError other than kAuthErrorNone from
/// Auth::UseEmulator, set_tenant_id, SetProviderFlowOptions, SetAppVerificationDisabledForTesting or
/// PhoneAuthProvider::VerifyPhoneNumber. The next such failure on the thread replaces it; successes
/// leave it alone. Operations that return a Future report their failure in the Future instead.
inline int LastErrorCode() { return detail::ThreadLastError().code; }
/// One English sentence naming the cause ("" when nothing has failed on this thread).
inline std::string LastErrorMessage() { return detail::ThreadLastError().message; }

// -------------------------------------------------------------------------------------------------
// Futures (firebase::FutureBase / firebase::Future<T>)
// -------------------------------------------------------------------------------------------------

/// Type-independent part of a Future: status, error, completion callbacks, release.
/// Copies share one reference to the operation (and one callback slot); the reference is released when
/// the last copy is destroyed or released.
class FutureBase {
 public:
  typedef void (*CompletionCallback)(const FutureBase& result_data, void* user_data);

  FutureBase() = default;
  FutureBase(const FutureBase&) = default;
  FutureBase& operator=(const FutureBase&) = default;
  FutureBase(FutureBase&& other) noexcept : handle_(std::move(other.handle_)) {}
  FutureBase& operator=(FutureBase&& other) noexcept {
    handle_ = std::move(other.handle_);
    return *this;
  }
  virtual ~FutureBase() = default;

  /// Drops this copy's reference; this Future becomes invalid. The operation goes on, and a callback
  /// set with OnCompletion still runs.
  void Release() { handle_.reset(); }

  FutureStatus status() const {
    return handle_ ? static_cast<FutureStatus>(hearth_future_status(handle_->future())) : kFutureStatusInvalid;
  }

  /// The error code (an auth::AuthError value) once complete; 0 on success; -1 for an invalid Future.
  int error() const { return handle_ ? hearth_future_error(handle_->future()) : -1; }

  /// The error message: the server's detail where there is one; "" on success or while pending; nullptr
  /// for an invalid Future. Valid as long as this Future (or a copy) is.
  const char* error_message() const { return handle_ ? handle_->ErrorMessage() : nullptr; }

  /// The typed result as void*, nullptr until complete (and always for Future<void>).
  const void* result_void() const { return handle_ ? handle_->Result() : nullptr; }

  /// Sets the completion callback of this Future and its copies (a later call replaces an earlier one).
  /// It runs once, on the loop thread, after the operation completes (on the next loop turn if it
  /// already has), also when the App is deleted first (the operation then completes with
  /// kAuthErrorCancelled). Nothing happens for an invalid Future, or once its App has been deleted.
  void OnCompletion(CompletionCallback callback, void* user_data) const {
    if (!callback) return;
    detail::SetCompletion(handle_, [callback, user_data](const detail::FutureHandlePtr& handle) {
      callback(FutureBase(handle), user_data);
    });
  }

  void OnCompletion(std::function<void(const FutureBase&)> callback) const {
    if (!callback) return;
    detail::SetCompletion(handle_, [callback = std::move(callback)](const detail::FutureHandlePtr& handle) {
      callback(FutureBase(handle));
    });
  }

  /// Hearth extra: blocks until complete or until timeout_milliseconds pass (kWaitTimeoutInfinite = no
  /// limit). True when complete. On the loop thread (inside a callback, or in the thread that runs a
  /// host loop) it returns false at once instead of deadlocking.
  bool Wait(int64_t timeout_milliseconds = kWaitTimeoutInfinite) const {
    return handle_ && hearth_future_wait(handle_->future(), timeout_milliseconds) == 0;
  }

  /// True when both are copies of the same Future (or both invalid).
  bool operator==(const FutureBase& other) const { return handle_ == other.handle_; }
  bool operator!=(const FutureBase& other) const { return handle_ != other.handle_; }

  /// The C handle (borrowed; valid as long as this Future), for mixing with hearth.h. NULL if invalid.
  hearth_future* c_future() const { return handle_ ? handle_->future() : nullptr; }

  /// Internal: wraps a shared C reference.
  explicit FutureBase(detail::FutureHandlePtr handle) : handle_(std::move(handle)) {}

 protected:
  friend struct detail::FutureAccess;
  detail::FutureHandlePtr handle_;
};

/// The result of an asynchronous operation, as firebase::Future<T>.
template <typename T>
class Future : public FutureBase {
 public:
  typedef void (*TypedCompletionCallback)(const Future<T>& result_data, void* user_data);

  Future() = default;
  explicit Future(detail::FutureHandlePtr handle) : FutureBase(std::move(handle)) {}

  /// The result, or nullptr until the operation is complete. A failed operation has a default result
  /// (an invalid User, an empty string...). Valid as long as this Future (or a copy) is.
  const T* result() const { return static_cast<const T*>(result_void()); }

  void OnCompletion(TypedCompletionCallback callback, void* user_data) const {
    if (!callback) return;
    detail::SetCompletion(handle_, [callback, user_data](const detail::FutureHandlePtr& handle) {
      callback(Future<T>(handle), user_data);
    });
  }

  void OnCompletion(std::function<void(const Future<T>&)> callback) const {
    if (!callback) return;
    detail::SetCompletion(handle_, [callback = std::move(callback)](const detail::FutureHandlePtr& handle) {
      callback(Future<T>(handle));
    });
  }

  void OnCompletion(FutureBase::CompletionCallback callback, void* user_data) const {
    FutureBase::OnCompletion(callback, user_data);
  }
};

namespace detail {

// Wraps a new C future reference (NULL gives an invalid Future).
// error_message replaces the C future's message when it fails (for arguments the wrapper refused).
template <typename T>
Future<T> AdoptFuture(hearth_future* future, const AppCorePtr& core, std::string error_message = std::string()) {
  if (!future) return Future<T>();
  FutureHandle* handle = nullptr;
  try {
    handle = new FutureHandle(future, core, &FutureReader<T>::Read, std::move(error_message));
  } catch (...) {
    hearth_future_release(future);
    throw;
  }
  return Future<T>(FutureHandlePtr(handle));
}

// What wrapper types built from a future need of it.
struct FutureAccess {
  static AppCorePtr Core(const FutureBase& future) { return future.handle_ ? future.handle_->app_core() : nullptr; }
};

// A new C reference to an operation, for results borrowed from it: Hearth's borrowed views (sessions,
// secrets, resolvers) live as long as the reference they were taken from, so a wrapper object that may
// outlive its Future keeps a reference of its own. Null for an invalid handle.
inline std::shared_ptr<hearth_future> RetainFuture(const hearth_future* future) {
  hearth_future* copy = future ? hearth_future_retain(future) : nullptr;
  return copy ? std::shared_ptr<hearth_future>(copy, &hearth_future_release) : nullptr;
}

template <>
struct FutureReader<void> {
  static std::shared_ptr<const void> Read(const hearth_future*, const AppCorePtr&) { return nullptr; }
};

template <>
struct FutureReader<std::string> {
  static std::shared_ptr<const void> Read(const hearth_future* future, const AppCorePtr&) {
    return std::make_shared<const std::string>(CopyString(hearth_future_string(future)));
  }
};

}  // namespace detail

// -------------------------------------------------------------------------------------------------
// Logging (firebase::SetLogLevel / firebase::GetLogLevel, and the callback that receives the messages)
// -------------------------------------------------------------------------------------------------

/// Severity of a log message, least to most severe; the values of hearth_log_level. Firebase's
/// kLogLevelVerbose and kLogLevelAssert are accepted for porting (as kLogLevelDebug and kLogLevelError).
enum LogLevel : int {
  kLogLevelDebug = HEARTH_LOG_DEBUG,      ///< every HTTP request: method, URL without query values, outcome, time
  kLogLevelInfo = HEARTH_LOG_INFO,        ///< apps created and destroyed, sign-ins and sign-outs, successes
  kLogLevelWarning = HEARTH_LOG_WARNING,  ///< failed operations, sessions the server ended
  kLogLevelError = HEARTH_LOG_ERROR,      ///< Hearth could not do its own work (a session not saved)
  kLogLevelOff = HEARTH_LOG_OFF,          ///< Hearth extra: no messages at all
  kLogLevelVerbose = kLogLevelDebug,
  kLogLevelAssert = kLogLevelError
};

/// Receives one log message: its level and one line of UTF-8 text (no trailing newline), valid during
/// the call. Messages never contain passwords, tokens, verification or action codes, API keys or URL
/// query values.
using LogCallback = std::function<void(LogLevel level, const char* message)>;

namespace detail {

// The process-wide log settings behind SetLogLevel / SetLogCallback. Hearth calls one C callback
// (DeliverLog) that runs the current std::function from a shared_ptr copy: a callback replaced while
// it runs (even from inside itself) is destroyed only when that call has returned.
struct LogState {
  std::mutex mutex;  // guards the three fields below; never held while Hearth or a host callback runs
  std::shared_ptr<const LogCallback> callback;
  LogLevel level = kLogLevelInfo;
  uint64_t changes = 0;
  // Serializes handing the settings to Hearth, except from inside a callback: hearth_log_set_callback
  // waits for callbacks running on other threads, and one of those may be setting the log itself.
  std::mutex apply_mutex;
};

// Intentionally never destroyed: a loop thread may log while static destructors run.
inline LogState& Log() {
  static LogState* state = new LogState();
  return *state;
}

inline bool& InsideLogCallback() {
  thread_local bool inside = false;
  return inside;
}

inline void DeliverLog(void*, hearth_log_level level, const char* message) {
  std::shared_ptr<const LogCallback> callback;
  {
    std::lock_guard<std::mutex> lock(Log().mutex);
    callback = Log().callback;
  }
  if (!callback) return;
  InsideLogCallback() = true;
  try {
    (*callback)(static_cast<LogLevel>(level), message ? message : "");
  } catch (...) {
    // An exception cannot cross the C ABI; a failing log sink must not stop Hearth.
  }
  InsideLogCallback() = false;
}

// Hands the current settings to Hearth. Concurrent changes may reach hearth_log_set_callback in
// either order, so this repeats until what Hearth got is what LogState says.
inline void ApplyLogSettings() {
  LogState& state = Log();
  std::unique_lock<std::mutex> serial(state.apply_mutex, std::defer_lock);
  if (!InsideLogCallback()) serial.lock();
  for (;;) {
    uint64_t seen;
    hearth_log_level level = HEARTH_LOG_OFF;
    {
      std::lock_guard<std::mutex> lock(state.mutex);
      seen = state.changes;
      if (state.callback) level = static_cast<hearth_log_level>(state.level);
    }
    hearth_log_set_callback(level, level == HEARTH_LOG_OFF ? nullptr : &DeliverLog, nullptr);
    std::lock_guard<std::mutex> lock(state.mutex);
    if (state.changes == seen) return;
  }
}

}  // namespace detail

/// Sets the least severe level delivered to the LogCallback, as firebase::SetLogLevel (default
/// kLogLevelInfo; kLogLevelOff delivers nothing). Unlike Firebase, Hearth prints nothing by itself: the
/// level matters once SetLogCallback has installed a callback. Messages below the level are never built,
/// so a quiet level costs nothing. Values outside LogLevel are ignored. Any thread may call it.
inline void SetLogLevel(LogLevel level) {
  if (level < kLogLevelDebug || level > kLogLevelOff) return;
  {
    std::lock_guard<std::mutex> lock(detail::Log().mutex);
    detail::Log().level = level;
    ++detail::Log().changes;
  }
  detail::ApplyLogSettings();
}

/// The level set by SetLogLevel (kLogLevelInfo until then), as firebase::GetLogLevel.
inline LogLevel GetLogLevel() {
  std::lock_guard<std::mutex> lock(detail::Log().mutex);
  return detail::Log().level;
}

/// Sends Hearth's messages at GetLogLevel() and above, from every App, to `callback`; an empty callback
/// (nullptr) turns logging off again, which is the default. One callback per process: a later call
/// replaces it (use this or hearth_log_set_callback, not both).
///
/// The callback runs on the thread that logs, usually an app's loop thread, on several threads at once
/// when several apps are busy: it must be thread-safe. It may call Hearth (those calls log nothing) and
/// SetLogCallback / SetLogLevel, also from inside itself. Exceptions it throws are dropped.
///
/// Lifetime: the wrapper keeps its own copy of `callback`. When SetLogCallback returns, the previous
/// callback is no longer running on another thread, is never called again, and has been destroyed
/// (if it is replaced from inside itself, it is destroyed when that call returns), so whatever it
/// captured may be freed then.
inline void SetLogCallback(LogCallback callback) {
  std::shared_ptr<const LogCallback> installed;
  if (callback) installed = std::make_shared<const LogCallback>(std::move(callback));
  std::shared_ptr<const LogCallback> previous;
  {
    std::lock_guard<std::mutex> lock(detail::Log().mutex);
    previous = std::move(detail::Log().callback);
    detail::Log().callback = std::move(installed);
    ++detail::Log().changes;
  }
  detail::ApplyLogSettings();
  // Destroyed here, outside every lock, unless a call running on this thread still holds it.
  previous.reset();
}

// -------------------------------------------------------------------------------------------------
// App (firebase::App / firebase::AppOptions)
// -------------------------------------------------------------------------------------------------

/// Where the signed-in session is kept between runs.
enum Persistence {
  kPersistenceFile = HEARTH_PERSISTENCE_FILE,          ///< default: a 0600 JSON file
  kPersistenceNone = HEARTH_PERSISTENCE_NONE,          ///< memory only
  kPersistenceCallbacks = HEARTH_PERSISTENCE_CALLBACKS ///< a SessionStorage (set_session_storage)
};

/// Host storage for the session (engines with their own save data or keystore). Load runs on the
/// thread that calls App::Create; Save and Erase run on the loop thread, except that Auth::SignOut
/// erases on its caller's thread (so the sign-out is stored when it returns). Calls never overlap.
/// Return false on failure. Must outlive every App that uses it.
class SessionStorage {
 public:
  virtual ~SessionStorage() = default;
  /// Stores the saved session in *data; leaves it empty when nothing is stored.
  virtual bool Load(const std::string& key, std::string* data) = 0;
  virtual bool Save(const std::string& key, const std::string& data) = 0;
  virtual bool Erase(const std::string& key) = 0;
};

/// App configuration, as firebase::AppOptions, plus Hearth's loop, persistence and transport settings.
class AppOptions {
 public:
  AppOptions() = default;

  void set_api_key(const char* api_key) { api_key_ = detail::CopyString(api_key); }
  const char* api_key() const { return api_key_.c_str(); }
  void set_app_id(const char* app_id) { app_id_ = detail::CopyString(app_id); }
  const char* app_id() const { return app_id_.c_str(); }
  void set_project_id(const char* project_id) { project_id_ = detail::CopyString(project_id); }
  const char* project_id() const { return project_id_.c_str(); }

  /// Hearth extras.
  void set_auth_domain(const char* auth_domain) { auth_domain_ = detail::CopyString(auth_domain); }
  const char* auth_domain() const { return auth_domain_.c_str(); }
  /// The app's name (default kDefaultAppName); App::Create's name argument overrides it.
  void set_app_name(const char* app_name) { app_name_ = detail::CopyString(app_name); }
  const char* app_name() const { return app_name_.c_str(); }
  /// The host's libuv loop (the host runs it; Hearth creates no threads). nullptr: Hearth runs its own
  /// loop thread.
  void set_loop(struct uv_loop_s* loop) { loop_ = loop; }
  struct uv_loop_s* loop() const { return loop_; }
  void set_persistence(Persistence persistence) { persistence_ = persistence; }
  Persistence persistence() const { return persistence_; }
  /// kPersistenceFile: the directory (default $XDG_DATA_HOME/hearth or ~/.local/share/hearth).
  void set_persistence_dir(const char* dir) { persistence_dir_ = detail::CopyString(dir); }
  const char* persistence_dir() const { return persistence_dir_.c_str(); }
  /// Selects kPersistenceCallbacks with this storage (nullptr selects kPersistenceNone).
  void set_session_storage(SessionStorage* storage) {
    session_storage_ = storage;
    persistence_ = storage ? kPersistenceCallbacks : kPersistenceNone;
  }
  SessionStorage* session_storage() const { return session_storage_; }
  /// Per HTTP request; 0 = 30000.
  void set_request_timeout_ms(int64_t timeout_ms) { request_timeout_ms_ = timeout_ms; }
  int64_t request_timeout_ms() const { return request_timeout_ms_; }
  /// PEM bundle for TLS verification ("" = the system store).
  void set_ca_bundle_path(const char* path) { ca_bundle_path_ = detail::CopyString(path); }
  const char* ca_bundle_path() const { return ca_bundle_path_.c_str(); }

 private:
  std::string api_key_, app_id_, project_id_, auth_domain_, app_name_, persistence_dir_, ca_bundle_path_;
  struct uv_loop_s* loop_ = nullptr;
  Persistence persistence_ = kPersistenceFile;
  SessionStorage* session_storage_ = nullptr;
  int64_t request_timeout_ms_ = 0;
};

namespace detail {

inline const char* OptionalString(const char* text) { return text && *text ? text : nullptr; }

inline int StorageLoad(void* user_data, const char* key, hearth_storage_reply* reply) {
  try {
    std::string data;
    if (!static_cast<SessionStorage*>(user_data)->Load(CopyString(key), &data)) return 1;
    return data.empty() ? 0 : hearth_storage_reply_set(reply, data.data(), data.size());
  } catch (...) {
    return 1;
  }
}

inline int StorageSave(void* user_data, const char* key, const char* data, size_t length) {
  try {
    const std::string bytes = data ? std::string(data, length) : std::string();
    return static_cast<SessionStorage*>(user_data)->Save(CopyString(key), bytes) ? 0 : 1;
  } catch (...) {
    return 1;
  }
}

inline int StorageErase(void* user_data, const char* key) {
  try {
    return static_cast<SessionStorage*>(user_data)->Erase(CopyString(key)) ? 0 : 1;
  } catch (...) {
    return 1;
  }
}

// Live apps by name, for App::GetInstance. Never destroyed: apps may be deleted during static destruction.
struct AppDirectory {
  std::mutex mutex;
  std::map<std::string, App*> apps;
};
inline AppDirectory& Apps() {
  static AppDirectory* directory = new AppDirectory();
  return *directory;
}

}  // namespace detail

/// One configured app, as firebase::App. Create with App::Create, destroy with delete (which deletes its
/// Auth, cancels its in-flight operations — their OnCompletion callbacks run with kAuthErrorCancelled —
/// and returns without waiting on the network). With a host loop, run the loop once more after deleting
/// the app, before uv_loop_close: the cancelled operations' callbacks run then.
class App {
 public:
  /// Creates an app; nullptr on failure (e.g. no API key, or an app with this name exists), with the
  /// error code (an auth::AuthError value) in *error_out when given.
  static App* Create(const AppOptions& options, const char* name = nullptr, int* error_out = nullptr);

  /// The live app with this name (default kDefaultAppName), or nullptr.
  static App* GetInstance(const char* name = nullptr) {
    detail::AppDirectory& directory = detail::Apps();
    std::lock_guard<std::mutex> lock(directory.mutex);
    auto it = directory.apps.find(name ? name : kDefaultAppName);
    return it == directory.apps.end() ? nullptr : it->second;
  }

  ~App();
  App(const App&) = delete;
  App& operator=(const App&) = delete;

  const char* name() const { return name_.c_str(); }
  const AppOptions& options() const { return options_; }

  /// Hearth extras: the C handle (borrowed), and whether the calling thread is the app's loop thread.
  hearth_app* c_app() const { return app_; }
  bool is_loop_thread() const { return hearth_app_is_loop_thread(app_) == 1; }

 private:
  App(hearth_app* app, const AppOptions& options, std::string name)
      : app_(app), options_(options), name_(std::move(name)), core_(std::make_shared<detail::AppCore>()) {
    core_->app = app;
    core_->auth = hearth_auth_get(app);
  }

  friend class auth::Auth;
  hearth_app* const app_;
  const AppOptions options_;
  const std::string name_;
  const detail::AppCorePtr core_;
  std::mutex auth_mutex_;
  auth::Auth* auth_ = nullptr;  // guarded by auth_mutex_
};

// -------------------------------------------------------------------------------------------------
// Auth types (firebase::auth)
// -------------------------------------------------------------------------------------------------
namespace auth {

/// Error codes: firebase::auth::AuthError's names and values, plus Hearth's own codes from 1000.
enum AuthError {
  kAuthErrorNone = HEARTH_ERROR_NONE,
  kAuthErrorUnimplemented = HEARTH_ERROR_UNIMPLEMENTED,
  kAuthErrorFailure = HEARTH_ERROR_FAILURE,
  kAuthErrorInvalidCustomToken = HEARTH_ERROR_INVALID_CUSTOM_TOKEN,
  kAuthErrorCustomTokenMismatch = HEARTH_ERROR_CUSTOM_TOKEN_MISMATCH,
  kAuthErrorInvalidCredential = HEARTH_ERROR_INVALID_CREDENTIAL,
  kAuthErrorUserDisabled = HEARTH_ERROR_USER_DISABLED,
  kAuthErrorAccountExistsWithDifferentCredentials = HEARTH_ERROR_ACCOUNT_EXISTS_WITH_DIFFERENT_CREDENTIALS,
  kAuthErrorOperationNotAllowed = HEARTH_ERROR_OPERATION_NOT_ALLOWED,
  kAuthErrorEmailAlreadyInUse = HEARTH_ERROR_EMAIL_ALREADY_IN_USE,
  kAuthErrorRequiresRecentLogin = HEARTH_ERROR_REQUIRES_RECENT_LOGIN,
  kAuthErrorCredentialAlreadyInUse = HEARTH_ERROR_CREDENTIAL_ALREADY_IN_USE,
  kAuthErrorInvalidEmail = HEARTH_ERROR_INVALID_EMAIL,
  kAuthErrorWrongPassword = HEARTH_ERROR_WRONG_PASSWORD,
  kAuthErrorTooManyRequests = HEARTH_ERROR_TOO_MANY_REQUESTS,
  kAuthErrorUserNotFound = HEARTH_ERROR_USER_NOT_FOUND,
  kAuthErrorProviderAlreadyLinked = HEARTH_ERROR_PROVIDER_ALREADY_LINKED,
  kAuthErrorNoSuchProvider = HEARTH_ERROR_NO_SUCH_PROVIDER,
  kAuthErrorInvalidUserToken = HEARTH_ERROR_INVALID_USER_TOKEN,
  kAuthErrorUserTokenExpired = HEARTH_ERROR_USER_TOKEN_EXPIRED,
  kAuthErrorNetworkRequestFailed = HEARTH_ERROR_NETWORK_REQUEST_FAILED,
  kAuthErrorInvalidApiKey = HEARTH_ERROR_INVALID_API_KEY,
  kAuthErrorAppNotAuthorized = HEARTH_ERROR_APP_NOT_AUTHORIZED,
  kAuthErrorUserMismatch = HEARTH_ERROR_USER_MISMATCH,
  kAuthErrorWeakPassword = HEARTH_ERROR_WEAK_PASSWORD,
  kAuthErrorNoSignedInUser = HEARTH_ERROR_NO_SIGNED_IN_USER,
  kAuthErrorApiNotAvailable = HEARTH_ERROR_API_NOT_AVAILABLE,
  kAuthErrorExpiredActionCode = HEARTH_ERROR_EXPIRED_ACTION_CODE,
  kAuthErrorInvalidActionCode = HEARTH_ERROR_INVALID_ACTION_CODE,
  kAuthErrorInvalidMessagePayload = HEARTH_ERROR_INVALID_MESSAGE_PAYLOAD,
  kAuthErrorInvalidPhoneNumber = HEARTH_ERROR_INVALID_PHONE_NUMBER,
  kAuthErrorMissingPhoneNumber = HEARTH_ERROR_MISSING_PHONE_NUMBER,
  kAuthErrorInvalidRecipientEmail = HEARTH_ERROR_INVALID_RECIPIENT_EMAIL,
  kAuthErrorInvalidSender = HEARTH_ERROR_INVALID_SENDER,
  kAuthErrorInvalidVerificationCode = HEARTH_ERROR_INVALID_VERIFICATION_CODE,
  kAuthErrorInvalidVerificationId = HEARTH_ERROR_INVALID_VERIFICATION_ID,
  kAuthErrorMissingVerificationCode = HEARTH_ERROR_MISSING_VERIFICATION_CODE,
  kAuthErrorMissingVerificationId = HEARTH_ERROR_MISSING_VERIFICATION_ID,
  kAuthErrorMissingEmail = HEARTH_ERROR_MISSING_EMAIL,
  kAuthErrorMissingPassword = HEARTH_ERROR_MISSING_PASSWORD,
  kAuthErrorQuotaExceeded = HEARTH_ERROR_QUOTA_EXCEEDED,
  kAuthErrorRetryPhoneAuth = HEARTH_ERROR_RETRY_PHONE_AUTH,
  kAuthErrorSessionExpired = HEARTH_ERROR_SESSION_EXPIRED,
  kAuthErrorAppNotVerified = HEARTH_ERROR_APP_NOT_VERIFIED,
  kAuthErrorAppVerificationFailed = HEARTH_ERROR_APP_VERIFICATION_FAILED,
  kAuthErrorCaptchaCheckFailed = HEARTH_ERROR_CAPTCHA_CHECK_FAILED,
  kAuthErrorInvalidAppCredential = HEARTH_ERROR_INVALID_APP_CREDENTIAL,
  kAuthErrorMissingAppCredential = HEARTH_ERROR_MISSING_APP_CREDENTIAL,
  kAuthErrorInvalidClientId = HEARTH_ERROR_INVALID_CLIENT_ID,
  kAuthErrorInvalidContinueUri = HEARTH_ERROR_INVALID_CONTINUE_URI,
  kAuthErrorMissingContinueUri = HEARTH_ERROR_MISSING_CONTINUE_URI,
  kAuthErrorKeychainError = HEARTH_ERROR_KEYCHAIN_ERROR,
  kAuthErrorMissingAppToken = HEARTH_ERROR_MISSING_APP_TOKEN,
  kAuthErrorMissingIosBundleId = HEARTH_ERROR_MISSING_IOS_BUNDLE_ID,
  kAuthErrorNotificationNotForwarded = HEARTH_ERROR_NOTIFICATION_NOT_FORWARDED,
  kAuthErrorUnauthorizedDomain = HEARTH_ERROR_UNAUTHORIZED_DOMAIN,
  kAuthErrorWebContextAlreadyPresented = HEARTH_ERROR_WEB_CONTEXT_ALREADY_PRESENTED,
  kAuthErrorWebContextCancelled = HEARTH_ERROR_WEB_CONTEXT_CANCELLED,
  kAuthErrorDynamicLinkNotActivated = HEARTH_ERROR_DYNAMIC_LINK_NOT_ACTIVATED,
  kAuthErrorCancelled = HEARTH_ERROR_CANCELLED,
  kAuthErrorInvalidProviderId = HEARTH_ERROR_INVALID_PROVIDER_ID,
  kAuthErrorWebInternalError = HEARTH_ERROR_WEB_INTERNAL_ERROR,
  kAuthErrorWebStorateUnsupported = HEARTH_ERROR_WEB_STORAGE_UNSUPPORTED,  // sic, as in the C++ SDK
  kAuthErrorWebStorageUnsupported = HEARTH_ERROR_WEB_STORAGE_UNSUPPORTED,
  kAuthErrorTenantIdMismatch = HEARTH_ERROR_TENANT_ID_MISMATCH,
  kAuthErrorUnsupportedTenantOperation = HEARTH_ERROR_UNSUPPORTED_TENANT_OPERATION,
  kAuthErrorInvalidLinkDomain = HEARTH_ERROR_INVALID_LINK_DOMAIN,
  kAuthErrorRejectedCredential = HEARTH_ERROR_REJECTED_CREDENTIAL,
  kAuthErrorPhoneNumberNotFound = HEARTH_ERROR_PHONE_NUMBER_NOT_FOUND,
  kAuthErrorInvalidTenantId = HEARTH_ERROR_INVALID_TENANT_ID,
  kAuthErrorMissingClientIdentifier = HEARTH_ERROR_MISSING_CLIENT_IDENTIFIER,
  kAuthErrorMissingMultiFactorSession = HEARTH_ERROR_MISSING_MULTI_FACTOR_SESSION,
  kAuthErrorMissingMultiFactorInfo = HEARTH_ERROR_MISSING_MULTI_FACTOR_INFO,
  kAuthErrorInvalidMultiFactorSession = HEARTH_ERROR_INVALID_MULTI_FACTOR_SESSION,
  kAuthErrorMultiFactorInfoNotFound = HEARTH_ERROR_MULTI_FACTOR_INFO_NOT_FOUND,
  kAuthErrorAdminRestrictedOperation = HEARTH_ERROR_ADMIN_RESTRICTED_OPERATION,
  kAuthErrorUnverifiedEmail = HEARTH_ERROR_UNVERIFIED_EMAIL,
  kAuthErrorSecondFactorAlreadyEnrolled = HEARTH_ERROR_SECOND_FACTOR_ALREADY_ENROLLED,
  kAuthErrorMaximumSecondFactorCountExceeded = HEARTH_ERROR_MAXIMUM_SECOND_FACTOR_COUNT_EXCEEDED,
  kAuthErrorUnsupportedFirstFactor = HEARTH_ERROR_UNSUPPORTED_FIRST_FACTOR,
  kAuthErrorEmailChangeNeedsVerification = HEARTH_ERROR_EMAIL_CHANGE_NEEDS_VERIFICATION,
  // Hearth's own codes.
  kAuthErrorInvalidArgument = HEARTH_ERROR_INVALID_ARGUMENT,
  kAuthErrorInvalidHandle = HEARTH_ERROR_INVALID_HANDLE,
  kAuthErrorSecondFactorRequired = HEARTH_ERROR_SECOND_FACTOR_REQUIRED,
  kAuthErrorTimedOut = HEARTH_ERROR_TIMED_OUT,
  kAuthErrorWouldDeadlock = HEARTH_ERROR_WOULD_DEADLOCK,
  kAuthErrorAppDestroyed = HEARTH_ERROR_APP_DESTROYED,
  kAuthErrorLoopFailure = HEARTH_ERROR_LOOP_FAILURE,
  kAuthErrorPersistenceFailure = HEARTH_ERROR_PERSISTENCE_FAILURE
};

/// The name of an error code ("HEARTH_ERROR_WRONG_PASSWORD") and a generic English sentence for it.
inline const char* AuthErrorName(int error) { return hearth_error_name(error); }
inline const char* AuthErrorMessage(int error) { return hearth_error_message(error); }

/// A credential to sign in with, as firebase::auth::Credential. Copies share one immutable credential.
class Credential {
 public:
  Credential() = default;
  Credential(detail::AdoptTag, hearth_credential* credential) : credential_(credential) {}
  Credential(const Credential& other) : credential_(other.credential_ ? hearth_credential_retain(other.credential_) : nullptr) {}
  Credential(Credential&& other) noexcept : credential_(other.credential_) { other.credential_ = nullptr; }
  Credential& operator=(const Credential& other) {
    if (this != &other) {
      hearth_credential* copy = other.credential_ ? hearth_credential_retain(other.credential_) : nullptr;
      hearth_credential_release(credential_);
      credential_ = copy;
    }
    return *this;
  }
  Credential& operator=(Credential&& other) noexcept {
    if (this != &other) {
      hearth_credential_release(credential_);
      credential_ = other.credential_;
      other.credential_ = nullptr;
    }
    return *this;
  }
  virtual ~Credential() { hearth_credential_release(credential_); }

  /// The provider id ("password", ...); "" for an invalid credential.
  std::string provider() const { return Text(hearth_credential_provider); }
  bool is_valid() const { return credential_ && hearth_credential_is_valid(credential_) == 1; }

  /// Hearth extras: the identity provider's tokens the credential carries (those the app gave, or
  /// those the server returned in AuthResult::credential); "" when absent.
  std::string id_token() const { return Text(hearth_credential_id_token); }
  std::string access_token() const { return Text(hearth_credential_access_token); }
  /// The OAuth 1.0 token secret (Twitter).
  std::string secret() const { return Text(hearth_credential_secret); }

  /// The C handle (borrowed), for mixing with hearth.h.
  const hearth_credential* c_credential() const { return credential_; }

 private:
  std::string Text(const char* (*field)(const hearth_credential*)) const {
    return credential_ ? detail::CopyString(field(credential_)) : std::string();
  }

  hearth_credential* credential_ = nullptr;
};

}  // namespace auth

namespace detail {
// Adopts a new C credential reference from a constructor; NULL (an argument Hearth refused) gives an
// invalid Credential and records why (LastErrorMessage).
inline auth::Credential AdoptCredential(hearth_credential* credential) {
  if (!credential) {
    TakeCLastError(hearth_last_error_code());
    return auth::Credential();
  }
  return auth::Credential(kAdopt, credential);
}
// A new reference to a borrowed C credential (an invalid Credential for NULL: a result without one,
// which is no failure of the caller's).
inline auth::Credential RetainCredential(const hearth_credential* credential) {
  hearth_credential* copy = credential ? hearth_credential_retain(credential) : nullptr;
  return copy ? auth::Credential(kAdopt, copy) : auth::Credential();
}
}  // namespace detail

namespace auth {

/// Email and password credentials, as firebase::auth::EmailAuthProvider.
class EmailAuthProvider {
 public:
  static constexpr const char* kProviderId = "password";
  /// An invalid Credential when either argument is NULL or not valid UTF-8.
  static Credential GetCredential(const char* email, const char* password) {
    return detail::AdoptCredential(hearth_credential_create_email(email, password));
  }
  /// Hearth extra (EmailAuthProvider.credentialWithLink of Firebase's other SDKs; the C++ SDK has no
  /// email links): the credential of the address a sign-in link was sent to and the link, for
  /// SignInWithCredential, User::LinkWithCredential and User::Reauthenticate. Its provider() is
  /// "password". An invalid Credential when an argument is NULL or not valid UTF-8, or `link` is not an
  /// email action link (LastErrorMessage() says which).
  static Credential GetCredentialWithLink(const char* email, const char* link) {
    return detail::AdoptCredential(hearth_credential_create_email_link(email, link));
  }
};

/// Hearth extra (ActionCodeSettings of Firebase's other SDKs; the C++ SDK has none): where an email
/// action link leads and which apps may open it. An empty string leaves a field out, except `url`,
/// which every request with settings needs (kAuthErrorInvalidContinueUri when it is empty).
struct ActionCodeSettings {
  /// The continue URL: where the action page sends the browser afterwards; for a sign-in link, the URL
  /// the link is handed to (a custom scheme the app registered, or a page of the app's).
  std::string url;
  /// The app completes the action itself; sign-in links require it.
  bool handle_code_in_app = false;
  std::string ios_bundle_id;
  std::string android_package_name;
  bool android_install_app = false;
  std::string android_minimum_version;
  /// The Firebase Hosting domain of the link.
  std::string link_domain;
  /// Deprecated with Firebase Dynamic Links.
  std::string dynamic_link_domain;
};

/// Hearth extra: what an email action code does (Firebase's ActionCodeOperation).
enum ActionCodeOperation {
  kActionCodeOperationUnknown = HEARTH_ACTION_CODE_OPERATION_UNKNOWN,
  kActionCodeOperationPasswordReset = HEARTH_ACTION_CODE_OPERATION_PASSWORD_RESET,
  kActionCodeOperationVerifyEmail = HEARTH_ACTION_CODE_OPERATION_VERIFY_EMAIL,
  kActionCodeOperationRecoverEmail = HEARTH_ACTION_CODE_OPERATION_RECOVER_EMAIL,
  kActionCodeOperationEmailSignIn = HEARTH_ACTION_CODE_OPERATION_EMAIL_SIGN_IN,
  kActionCodeOperationVerifyAndChangeEmail = HEARTH_ACTION_CODE_OPERATION_VERIFY_AND_CHANGE_EMAIL,
  kActionCodeOperationRevertSecondFactorAddition = HEARTH_ACTION_CODE_OPERATION_REVERT_SECOND_FACTOR_ADDITION
};

/// Hearth extra: what Auth::CheckActionCode tells (Firebase's ActionCodeInfo).
struct ActionCodeInfo {
  ActionCodeOperation operation = kActionCodeOperationUnknown;
  /// The account's address; for a verify-before-update code the new one. "" when the server does not
  /// say (a sign-in code does not reveal its address).
  std::string email;
  /// For a verify-before-update code the address being replaced; for a recover-email code the address
  /// the account had changed to. "" otherwise.
  std::string previous_email;
};

}  // namespace auth

namespace detail {
// ActionCodeSettings as the C struct; its strings point into `settings`, which must outlive it.
class CActionCodeSettings {
 public:
  explicit CActionCodeSettings(const auth::ActionCodeSettings& settings) {
    hearth_action_code_settings_init(&c_);
    c_.url = settings.url.c_str();
    c_.handle_code_in_app = settings.handle_code_in_app ? 1 : 0;
    c_.ios_bundle_id = Optional(settings.ios_bundle_id);
    c_.android_package_name = Optional(settings.android_package_name);
    c_.android_install_app = settings.android_install_app ? 1 : 0;
    c_.android_minimum_version = Optional(settings.android_minimum_version);
    c_.link_domain = Optional(settings.link_domain);
    c_.dynamic_link_domain = Optional(settings.dynamic_link_domain);
  }
  const hearth_action_code_settings* get() const { return &c_; }

 private:
  static const char* Optional(const std::string& text) { return text.empty() ? nullptr : text.c_str(); }
  hearth_action_code_settings c_;
};
}  // namespace detail

namespace auth {

// Identity-provider credentials, as the C++ SDK's *AuthProvider classes. Each GetCredential gives an
// invalid Credential when a required argument is NULL or an argument is not valid UTF-8; empty tokens
// are accepted here and refused when the credential is used (kAuthErrorInvalidCredential).

/// Google ("google.com"): an ID token and/or an access token (NULL for the one you do not have).
class GoogleAuthProvider {
 public:
  static constexpr const char* kProviderId = "google.com";
  static Credential GetCredential(const char* id_token, const char* access_token) {
    return detail::AdoptCredential(hearth_credential_create_google(id_token, access_token));
  }
};

/// Facebook ("facebook.com").
class FacebookAuthProvider {
 public:
  static constexpr const char* kProviderId = "facebook.com";
  /// A classic Facebook Login access token.
  static Credential GetCredential(const char* access_token) {
    return detail::AdoptCredential(hearth_credential_create_facebook(access_token));
  }
  /// Hearth extra: Facebook Limited Login, whose authentication token is an OIDC ID token bound to the
  /// nonce the app requested it with. Pass the RAW nonce (Facebook got its SHA-256; see Nonce).
  static Credential GetLimitedLoginCredential(const char* id_token, const char* raw_nonce) {
    return detail::AdoptCredential(hearth_credential_create_facebook_limited_login(id_token, raw_nonce));
  }
};

/// Twitter ("twitter.com"): OAuth 1.0a token and secret.
class TwitterAuthProvider {
 public:
  static constexpr const char* kProviderId = "twitter.com";
  static Credential GetCredential(const char* token, const char* secret) {
    return detail::AdoptCredential(hearth_credential_create_twitter(token, secret));
  }
};

/// GitHub ("github.com"): an OAuth access token.
class GitHubAuthProvider {
 public:
  static constexpr const char* kProviderId = "github.com";
  static Credential GetCredential(const char* token) { return detail::AdoptCredential(hearth_credential_create_github(token)); }
};

/// Google Play Games ("playgames.google.com"): a server auth code.
class PlayGamesAuthProvider {
 public:
  static constexpr const char* kProviderId = "playgames.google.com";
  static Credential GetCredential(const char* server_auth_code) {
    return detail::AdoptCredential(hearth_credential_create_play_games(server_auth_code));
  }
};

/// Game Center ("gc.apple.com"). Only the id: Game Center credentials come from Apple's GameKit,
/// which desktop hosts outside Apple platforms do not have.
class GameCenterAuthProvider {
 public:
  static constexpr const char* kProviderId = "gc.apple.com";
};

/// Microsoft ("microsoft.com"): sign in through FederatedOAuthProvider, or with
/// OAuthProvider::GetCredential(kProviderId, ...).
class MicrosoftAuthProvider {
 public:
  static constexpr const char* kProviderId = "microsoft.com";
};

/// Yahoo ("yahoo.com"): as Microsoft.
class YahooAuthProvider {
 public:
  static constexpr const char* kProviderId = "yahoo.com";
};

/// A phone number credential ("phone"), as firebase::auth::PhoneAuthCredential: a verification id and
/// the SMS code the user typed (PhoneAuthProvider::GetCredential). Use it wherever a Credential goes
/// (sign in, link, reauthenticate), with User::UpdatePhoneNumberCredential, or as a second factor
/// (PhoneMultiFactorGenerator::GetAssertion).
class PhoneAuthCredential : public Credential {
 public:
  PhoneAuthCredential() = default;
  /// Internal: adopts a new C reference.
  PhoneAuthCredential(detail::AdoptTag tag, hearth_credential* credential) : Credential(tag, credential) {}

  /// The SMS code the system read by itself: Android only in the C++ SDK; always "" on a desktop.
  std::string sms_code() const { return std::string(); }
};

// -------------------------------------------------------------------------------------------------
// Multi-factor authentication (Hearth extra: the C++ SDK has no MFA API). Shaped after the Firebase
// Apple and JS SDKs, in this SDK's style: a sign-in that needs a second factor fails with
// kAuthErrorSecondFactorRequired, MultiFactorResolver::FromFuture gives the hints, a session and
// ResolveSignIn; User::multi_factor() enrolls and unenrolls factors.
// -------------------------------------------------------------------------------------------------

/// One enrolled second factor, or a hint naming one during a sign-in (a value; it keeps what it was
/// read from alive). Invalid when default-constructed: accessors give "" and 0.
class MultiFactorInfo {
 public:
  MultiFactorInfo() = default;
  /// Internal: `info` is borrowed from `owner`.
  MultiFactorInfo(std::shared_ptr<const void> owner, const hearth_multi_factor_info* info)
      : owner_(info ? std::move(owner) : nullptr), info_(owner_ ? info : nullptr) {}

  bool is_valid() const { return info_ != nullptr; }
  /// The enrollment id (what Unenroll and TotpMultiFactorGenerator::GetAssertionForSignIn take).
  std::string uid() const { return Text(hearth_multi_factor_info_uid); }
  /// PhoneMultiFactorGenerator::kFactorId ("phone") or TotpMultiFactorGenerator::kFactorId ("totp").
  std::string factor_id() const { return Text(hearth_multi_factor_info_factor_id); }
  std::string display_name() const { return Text(hearth_multi_factor_info_display_name); }
  /// Phone factors: the number, masked ("+*******4567") in sign-in hints; "" for TOTP.
  std::string phone_number() const { return Text(hearth_multi_factor_info_phone_number); }
  /// When it was enrolled, UTC milliseconds since the Unix epoch; 0 when unknown.
  uint64_t enrollment_timestamp() const { return info_ ? hearth_multi_factor_info_enrollment_timestamp(info_) : 0; }

  /// The C handle (borrowed; valid as long as this object), for mixing with hearth.h.
  const hearth_multi_factor_info* c_info() const { return info_; }

 private:
  std::string Text(const char* (*field)(const hearth_multi_factor_info*)) const {
    return info_ ? detail::CopyString(field(info_)) : std::string();
  }

  std::shared_ptr<const void> owner_;
  const hearth_multi_factor_info* info_ = nullptr;
};

/// Proof of the first factor, for enrolling a second one (User::multi_factor().GetSession()) or for
/// texting an enrolled phone during a sign-in (MultiFactorResolver::session()). A value; invalid when
/// default-constructed.
class MultiFactorSession {
 public:
  MultiFactorSession() = default;
  /// Internal: `session` is borrowed from `owner`.
  MultiFactorSession(std::shared_ptr<const void> owner, const hearth_multi_factor_session* session,
                     detail::AppCorePtr core)
      : owner_(session ? std::move(owner) : nullptr), session_(owner_ ? session : nullptr), core_(std::move(core)) {}

  bool is_valid() const { return session_ != nullptr; }

  /// The C handle (borrowed; valid as long as this object), for mixing with hearth.h.
  const hearth_multi_factor_session* c_session() const { return session_; }

 private:
  friend class TotpMultiFactorGenerator;
  std::shared_ptr<const void> owner_;
  const hearth_multi_factor_session* session_ = nullptr;
  detail::AppCorePtr core_;
};

/// A second factor, proven: what MultiFactor::Enroll and MultiFactorResolver::ResolveSignIn take.
/// Copies share one assertion. Invalid when a generator refused its arguments.
class MultiFactorAssertion {
 public:
  MultiFactorAssertion() = default;
  /// Internal: adopts a new C reference (NULL gives an invalid assertion).
  MultiFactorAssertion(detail::AdoptTag, hearth_multi_factor_assertion* assertion, const char* factor_id)
      : assertion_(assertion ? std::shared_ptr<hearth_multi_factor_assertion>(assertion, &hearth_multi_factor_assertion_release)
                             : nullptr),
        factor_id_(assertion ? factor_id : "") {}

  bool is_valid() const { return assertion_ != nullptr; }
  /// "phone" or "totp"; "" when invalid.
  std::string factor_id() const { return factor_id_; }

  /// The C handle (borrowed), for mixing with hearth.h. NULL if invalid.
  const hearth_multi_factor_assertion* c_assertion() const { return assertion_.get(); }

 private:
  std::shared_ptr<hearth_multi_factor_assertion> assertion_;
  std::string factor_id_;
};

/// Second factors proven by an SMS code (Firebase's PhoneMultiFactorGenerator).
class PhoneMultiFactorGenerator {
 public:
  static constexpr const char* kFactorId = "phone";
  /// From the credential of a verification that used a MultiFactorSession (PhoneAuthOptions's
  /// multi_factor_session): enrolling (with phone_number) or signing in (with multi_factor_hint).
  /// Invalid for an invalid credential.
  static MultiFactorAssertion GetAssertion(const PhoneAuthCredential& credential) {
    const hearth_credential* c_credential = credential.c_credential();
    return MultiFactorAssertion(detail::kAdopt, c_credential ? hearth_multi_factor_assertion_create_phone(c_credential) : nullptr,
                                kFactorId);
  }
};

/// The secret of a TOTP factor being enrolled: show it (or its QR code) to the user's authenticator
/// app, then enroll with a code the app shows. A value; invalid when default-constructed.
class TotpSecret {
 public:
  TotpSecret() = default;
  /// Internal: `secret` is borrowed from `owner`.
  TotpSecret(std::shared_ptr<const void> owner, const hearth_totp_secret* secret)
      : owner_(secret ? std::move(owner) : nullptr), secret_(owner_ ? secret : nullptr) {}

  bool is_valid() const { return secret_ != nullptr; }
  /// The shared secret, base32.
  std::string shared_secret_key() const {
    return secret_ ? detail::CopyString(hearth_totp_secret_shared_secret_key(secret_)) : std::string();
  }
  /// Digits per code (6).
  int code_length() const { return secret_ ? hearth_totp_secret_code_length(secret_) : 0; }
  /// Seconds each code is valid (30).
  int code_interval_seconds() const { return secret_ ? hearth_totp_secret_period_seconds(secret_) : 0; }
  /// "SHA1", "SHA256" or "SHA512".
  std::string hashing_algorithm() const {
    return secret_ ? detail::CopyString(hearth_totp_secret_algorithm(secret_)) : std::string();
  }
  /// The otpauth:// URI to show as a QR code ("" for NULL or invalid UTF-8 arguments).
  std::string GenerateQrCodeUrl(const char* account_name, const char* issuer) const {
    char* url = secret_ ? hearth_totp_secret_qr_code_url(secret_, account_name, issuer) : nullptr;
    std::string result = detail::CopyString(url);
    hearth_free(url);
    return result;
  }
  /// Hearth extra: the code an authenticator app shows at unix_time_seconds (RFC 6238); "" if invalid.
  std::string GenerateCode(int64_t unix_time_seconds) const;

  /// The C handle (borrowed; valid as long as this object), for mixing with hearth.h.
  const hearth_totp_secret* c_secret() const { return secret_; }

 private:
  std::shared_ptr<const void> owner_;
  const hearth_totp_secret* secret_ = nullptr;
};

/// Second factors proven by an authenticator app's time-based one-time password (Firebase's
/// TotpMultiFactorGenerator).
class TotpMultiFactorGenerator {
 public:
  static constexpr const char* kFactorId = "totp";

  /// Starts a TOTP enrollment with a session from User::multi_factor().GetSession() (an invalid Future
  /// for an invalid session; kAuthErrorAppDestroyed once the App is deleted).
  static Future<TotpSecret> GenerateSecret(const MultiFactorSession& session);
  /// Enrolling: the secret being enrolled and a code the user's authenticator shows. Invalid for an
  /// invalid secret, or a NULL / invalid UTF-8 code.
  static MultiFactorAssertion GetAssertionForEnrollment(const TotpSecret& secret, const char* one_time_password) {
    const hearth_totp_secret* c_secret = secret.c_secret();
    return MultiFactorAssertion(
        detail::kAdopt, c_secret ? hearth_multi_factor_assertion_create_totp_enrollment(c_secret, one_time_password) : nullptr,
        kFactorId);
  }
  /// Signing in: the hint's enrollment id (MultiFactorInfo::uid()) and a code.
  static MultiFactorAssertion GetAssertionForSignIn(const char* enrollment_id, const char* one_time_password) {
    return MultiFactorAssertion(detail::kAdopt, hearth_multi_factor_assertion_create_totp_sign_in(enrollment_id, one_time_password),
                                kFactorId);
  }

  /// Hearth extra: RFC 6238, the code an authenticator app shows at unix_time_seconds for a base32
  /// shared secret. "" for invalid arguments (bad base32, unknown algorithm, digits outside 1..9,
  /// interval <= 0, negative time).
  static std::string GenerateCode(const char* shared_secret_key, int64_t unix_time_seconds, int code_length = 6,
                                  int code_interval_seconds = 30, const char* hashing_algorithm = "SHA1") {
    if (code_length <= 0 || code_length > 9) return std::string();
    char code[16] = {0};
    const int rc = hearth_totp_code_generate(shared_secret_key, hashing_algorithm, code_length, code_interval_seconds,
                                             unix_time_seconds, code, sizeof code);
    return rc == HEARTH_ERROR_NONE ? std::string(code) : std::string();
  }
};

inline std::string TotpSecret::GenerateCode(int64_t unix_time_seconds) const {
  if (!secret_) return std::string();
  return TotpMultiFactorGenerator::GenerateCode(hearth_totp_secret_shared_secret_key(secret_), unix_time_seconds,
                                                code_length(), code_interval_seconds(),
                                                hearth_totp_secret_algorithm(secret_));
}

/// What a phone verification shows the user with: UIParent in the C++ SDK (an Android Activity, a
/// UIView). Ignored on a desktop: the reCAPTCHA page of app verification goes through the UI delegate of
/// Auth::SetProviderFlowOptions.
typedef void* UIParent;

struct PhoneAuthOptions;

/// Phone number sign-in ("phone"), as firebase::auth::PhoneAuthProvider, working on a desktop:
///   1. VerifyPhoneNumber texts a code; the Listener's OnCodeSent gets the verification id (store it: it
///      stays valid if the app is closed while the user reads the SMS).
///   2. GetCredential(verification_id, the code the user typed).
///   3. Sign in, link, reauthenticate, or User::UpdatePhoneNumberCredential with it.
/// App verification: Firebase wants proof that a real app asks (reCAPTCHA on a desktop). Hearth shows
/// the reCAPTCHA page through the UI delegate of Auth::SetProviderFlowOptions; with
/// Auth::SetAppVerificationDisabledForTesting(true) (the default against the emulator) it shows nothing
/// and Firebase then accepts only the project's fictional test numbers.
class PhoneAuthProvider {
 public:
  static constexpr const char* kProviderId = "phone";

  /// Forces a new SMS for a number whose code is still fresh (a "Resend code" button). From
  /// Listener::OnCodeSent; copyable; equal when it names the same sent code. A default token is ignored
  /// by VerifyPhoneNumber.
  class ForceResendingToken {
   public:
    ForceResendingToken() = default;
    /// Internal: wraps the C resend token (hearth_future_phone_resend_token).
    ForceResendingToken(detail::AdoptTag, const char* token) : token_(detail::CopyString(token)) {}

    bool operator==(const ForceResendingToken& other) const { return token_ == other.token_; }
    bool operator!=(const ForceResendingToken& other) const { return token_ != other.token_; }

    /// Hearth extra: false for a default token.
    bool is_valid() const { return !token_.empty(); }
    /// Hearth extra: the opaque token text, for hearth_phone_auth_options.force_resending_token.
    const char* c_token() const { return token_.c_str(); }

   private:
    std::string token_;
  };

  /// Told how a VerifyPhoneNumber goes, as firebase::auth::PhoneAuthProvider::Listener. Every callback
  /// runs on the app's loop thread, never inside VerifyPhoneNumber. Exactly one of OnCodeSent and
  /// OnVerificationFailed runs; after OnCodeSent, OnCodeAutoRetrievalTimeOut runs once
  /// timeout_milliseconds have passed. OnVerificationCompleted is never called on a desktop (no
  /// automatic SMS retrieval, no instant verification): the user types the code. Destroying a listener
  /// stops its callbacks (waiting for one running on another thread); deleting the App does too.
  class Listener {
   public:
    Listener();
    Listener(const Listener&) = delete;
    Listener& operator=(const Listener&) = delete;
    virtual ~Listener();

    /// Android's automatic verification; never called by Hearth.
    virtual void OnVerificationCompleted(PhoneAuthCredential credential) = 0;
    /// The verification failed; `error` describes why (invalid or missing number, too many requests,
    /// app verification failed or cancelled, network...).
    virtual void OnVerificationFailed(const std::string& error) = 0;
    /// The SMS was sent (or a fresh one was already on its way: then the same verification id).
    virtual void OnCodeSent(const std::string& /*verification_id*/,
                            const ForceResendingToken& /*force_resending_token*/) {}
    /// timeout_milliseconds passed after the code was sent: offer to resend it.
    virtual void OnCodeAutoRetrievalTimeOut(const std::string& /*verification_id*/) {}
    /// Hearth extra: the failure with its code. By default it calls OnVerificationFailed(message).
    virtual void OnVerificationFailedWithError(AuthError /*error*/, const std::string& message) {
      OnVerificationFailed(message);
    }

   private:
    friend class PhoneAuthProvider;
    // Shared with every verification it listens to: the destructor turns its calls off.
    std::shared_ptr<detail::PhoneListenerState> state_;
  };

  /// Hearth extra: what the Future form of VerifyPhoneNumber completes with.
  struct VerificationResult {
    std::string verification_id;
    ForceResendingToken force_resending_token;
  };

  /// Texts a verification code (see the class comment). The number must be E.164 ("+16505554567";
  /// spaces, dashes, dots and parentheses are ignored); a malformed one fails with
  /// kAuthErrorInvalidPhoneNumber (an empty one with kAuthErrorMissingPhoneNumber) before any request.
  /// While a code sent to the number is fresher than timeout_milliseconds, asking again sends no SMS and
  /// gives the same verification id (even when that code was used meanwhile), unless
  /// options.force_resending_token is set.
  /// Hearth extra: returns kAuthErrorInvalidArgument, and calls nothing, for a null listener or the
  /// provider of a null Auth; otherwise kAuthErrorNone, or the code of a failure found during the call
  /// (e.g. invalid UTF-8), which the listener is told too, on the loop thread.
  AuthError VerifyPhoneNumber(const PhoneAuthOptions& options, Listener* listener);
  /// Hearth extra: the same as a Future (invalid for the provider of a null Auth).
  Future<VerificationResult> VerifyPhoneNumber(const PhoneAuthOptions& options);
  Future<VerificationResult> VerifyPhoneNumberLastResult() const;

  /// The credential for a verification id and the code the user typed. Invalid when an argument is
  /// NULL or not valid UTF-8 (empty ones fail when used: kAuthErrorMissingVerificationId / Code).
  PhoneAuthCredential GetCredential(const char* verification_id, const char* verification_code) const {
    hearth_credential* credential = hearth_credential_create_phone(verification_id, verification_code);
    return credential ? PhoneAuthCredential(detail::kAdopt, credential) : PhoneAuthCredential();
  }

  /// The provider of `auth` (owned by it). For a null Auth, an inert provider whose operations fail.
  static PhoneAuthProvider& GetInstance(Auth* auth);

 private:
  friend class Auth;
  PhoneAuthProvider(hearth_auth* auth, detail::AppCorePtr core) : auth_(auth), core_(std::move(core)) {}
  ~PhoneAuthProvider() = default;
  PhoneAuthProvider(const PhoneAuthProvider&) = delete;
  PhoneAuthProvider& operator=(const PhoneAuthProvider&) = delete;

  // Fills `out` (whose strings point into `options`); false with the reason when the wrapper refuses.
  static bool ToC(const PhoneAuthOptions& options, hearth_phone_auth_options* out, std::string* problem);

  hearth_auth* const auth_;  // nullptr for the inert provider
  const detail::AppCorePtr core_;
};

/// How to verify a phone number, as firebase::auth::PhoneAuthOptions.
struct PhoneAuthOptions {
  PhoneAuthOptions() : force_resending_token(nullptr), timeout_milliseconds(0), ui_parent(nullptr) {}

  /// From an earlier OnCodeSent of this number: send a new SMS now. nullptr or a default token: none.
  PhoneAuthProvider::ForceResendingToken* force_resending_token;
  /// E.164. Not needed to sign in with a second factor (multi_factor_hint).
  std::string phone_number;
  /// How long a sent code counts as fresh (no second SMS for the same number), and when
  /// Listener::OnCodeAutoRetrievalTimeOut runs. 0 = 60000. (The C++ SDK's range and meaning are
  /// Android's: there 0 turns automatic SMS retrieval off, which a desktop never does anyway.)
  uint32_t timeout_milliseconds;
  /// Ignored on a desktop (see UIParent).
  UIParent ui_parent;
  /// Hearth extras. Enrolling a phone second factor: User::multi_factor().GetSession() with
  /// phone_number. Signing in with one: MultiFactorResolver::session() with the hint to text.
  MultiFactorSession multi_factor_session;
  MultiFactorInfo multi_factor_hint;
};

/// Any OAuth 2.0 / OpenID Connect provider ("microsoft.com", "yahoo.com", "apple.com", "oidc.<name>",
/// ...), as firebase::auth::OAuthProvider. Like the C++ SDK's, it has no kProviderId.
class OAuthProvider {
 public:
  /// id_token and/or access_token (NULL for the one you do not have).
  static Credential GetCredential(const char* provider_id, const char* id_token, const char* access_token) {
    return detail::AdoptCredential(hearth_credential_create_oauth(provider_id, id_token, access_token));
  }
  /// With the RAW nonce the ID token was requested with (the token carries its SHA-256). For
  /// "apple.com" this is Sign in with Apple; access_token (Apple's authorization code) may be nullptr.
  static Credential GetCredential(const char* provider_id, const char* id_token, const char* raw_nonce,
                                  const char* access_token) {
    return detail::AdoptCredential(hearth_credential_create_oauth_with_nonce(provider_id, id_token, raw_nonce, access_token));
  }
};

/// Hearth extra: Sign in with Apple ("apple.com") with what OAuthProvider::GetCredential cannot carry:
/// the user's name, which Apple sends only on the first authorization (Firebase stores it).
class AppleAuthProvider {
 public:
  static constexpr const char* kProviderId = "apple.com";
  /// id_token and raw_nonce are required; authorization_code, given_name and family_name may be nullptr.
  static Credential GetCredential(const char* id_token, const char* raw_nonce, const char* authorization_code = nullptr,
                                  const char* given_name = nullptr, const char* family_name = nullptr) {
    return detail::AdoptCredential(
        hearth_credential_create_apple(id_token, raw_nonce, authorization_code, given_name, family_name));
  }
};

/// Hearth extra: nonces for providers that bind their ID token to a request (Apple, Facebook Limited
/// Login, OpenID Connect). Send `sha256` to the provider and give `raw` to GetCredential.
struct Nonce {
  /// 32 characters of [0-9A-Za-z-._].
  std::string raw;
  /// SHA-256 of raw as 64 lowercase hex digits.
  std::string sha256;

  /// A fresh cryptographically random nonce. Both fields are empty if the system's random source fails.
  static Nonce Generate() {
    char raw_nonce[HEARTH_NONCE_SIZE] = {0};
    char hash[HEARTH_SHA256_HEX_SIZE] = {0};
    Nonce nonce;
    if (hearth_nonce_generate(raw_nonce, hash) == HEARTH_ERROR_NONE) {
      nonce.raw = raw_nonce;
      nonce.sha256 = hash;
    }
    return nonce;
  }

  /// SHA-256 of text's bytes as 64 lowercase hex digits; "" when text is not valid UTF-8 or holds a NUL
  /// (Hearth takes NUL-terminated strings, so it could not hash all of it).
  static std::string Sha256Hex(const std::string& text) {
    if (text.find('\0') != std::string::npos) return std::string();
    char hash[HEARTH_SHA256_HEX_SIZE] = {0};
    return hearth_nonce_hash(text.c_str(), hash) == HEARTH_ERROR_NONE ? std::string(hash) : std::string();
  }
};

/// One identity provider linked to a user (a value; firebase's UserInfoInterface).
class UserInfoInterface {
 public:
  UserInfoInterface() = default;
  UserInfoInterface(std::string uid, std::string email, std::string display_name, std::string photo_url,
                    std::string provider_id, std::string phone_number)
      : uid_(std::move(uid)), email_(std::move(email)), display_name_(std::move(display_name)),
        photo_url_(std::move(photo_url)), provider_id_(std::move(provider_id)), phone_number_(std::move(phone_number)) {}
  UserInfoInterface(const UserInfoInterface&) = default;
  UserInfoInterface(UserInfoInterface&&) = default;
  UserInfoInterface& operator=(const UserInfoInterface&) = default;
  UserInfoInterface& operator=(UserInfoInterface&&) = default;
  virtual ~UserInfoInterface() = default;

  /// The user's id at the provider (rawId).
  virtual std::string uid() const { return uid_; }
  virtual std::string email() const { return email_; }
  virtual std::string display_name() const { return display_name_; }
  virtual std::string photo_url() const { return photo_url_; }
  virtual std::string provider_id() const { return provider_id_; }
  virtual std::string phone_number() const { return phone_number_; }

 private:
  std::string uid_, email_, display_name_, photo_url_, provider_id_, phone_number_;
};

/// Account timestamps, UTC milliseconds since the Unix epoch (0 when unknown).
struct UserMetadata {
  UserMetadata() : last_sign_in_timestamp(0), creation_timestamp(0) {}
  uint64_t last_sign_in_timestamp;
  uint64_t creation_timestamp;
};

struct AuthResult;

/// Names the identity provider of a provider sign-in flow, as firebase::auth::FederatedProviderData.
struct FederatedProviderData {
  /// "microsoft.com", "apple.com", "twitter.com", "oidc.<name>", ...
  std::string provider_id;
};

/// Provider id, OAuth scopes and custom parameters of a provider sign-in flow, as
/// firebase::auth::FederatedOAuthProviderData.
struct FederatedOAuthProviderData : FederatedProviderData {
  FederatedOAuthProviderData() {}
  explicit FederatedOAuthProviderData(const std::string& provider) { this->provider_id = provider; }
  FederatedOAuthProviderData(const std::string& provider, std::vector<std::string> scopes,
                             std::map<std::string, std::string> custom_parameters) {
    this->provider_id = provider;
    this->scopes = std::move(scopes);
    this->custom_parameters = std::move(custom_parameters);
  }

  /// The rights of access requested ("email", "mail.read", ...).
  std::vector<std::string> scopes;
  /// Passed to the provider's page (Microsoft "tenant", "prompt", "login_hint"; Twitter "lang"; Apple
  /// "locale"; ...). The names the flow sets itself (client_id, redirect_uri, response_mode,
  /// response_type, scope, state) are refused: the operation fails with kAuthErrorInvalidArgument.
  std::map<std::string, std::string> custom_parameters;
};

/// A provider to sign in, link or reauthenticate with through its own page (Auth::SignInWithProvider,
/// User::LinkWithProvider, User::ReauthenticateWithProvider), as firebase::auth::FederatedAuthProvider.
/// On a desktop Hearth shows the page through the UI delegate of Auth::SetProviderFlowOptions.
class FederatedAuthProvider {
 public:
  virtual ~FederatedAuthProvider() = default;

 protected:
  FederatedAuthProvider() = default;
  FederatedAuthProvider(const FederatedAuthProvider&) = default;
  FederatedAuthProvider& operator=(const FederatedAuthProvider&) = default;

 private:
  friend class hearth::detail::ProviderArgument;
  // A new C provider describing this one for a single operation, or nullptr with the reason in *problem.
  virtual hearth_oauth_provider* NewCProvider(std::string* problem) const = 0;
};

/// An OAuth provider sign-in flow, as firebase::auth::FederatedOAuthProvider.
class FederatedOAuthProvider : public FederatedAuthProvider {
 public:
  FederatedOAuthProvider() = default;
  explicit FederatedOAuthProvider(const FederatedOAuthProviderData& provider_data) : provider_data_(provider_data) {}
  ~FederatedOAuthProvider() override = default;
  FederatedOAuthProvider(const FederatedOAuthProvider&) = default;
  FederatedOAuthProvider& operator=(const FederatedOAuthProvider&) = default;

  void SetProviderData(const FederatedOAuthProviderData& provider_data) { provider_data_ = provider_data; }

  /// Hearth extra.
  const FederatedOAuthProviderData& provider_data() const { return provider_data_; }

 private:
  hearth_oauth_provider* NewCProvider(std::string* problem) const override {
    hearth_oauth_provider* provider = hearth_oauth_provider_create(provider_data_.provider_id.c_str());
    if (!provider) {
      *problem = "The provider id is not valid UTF-8.";
      return nullptr;
    }
    for (const std::string& scope : provider_data_.scopes) {
      if (hearth_oauth_provider_add_scope(provider, scope.c_str()) != HEARTH_ERROR_NONE) {
        *problem = "The scope \"" + scope + "\" was refused: a scope is a non-empty UTF-8 string.";
        hearth_oauth_provider_release(provider);
        return nullptr;
      }
    }
    for (const auto& parameter : provider_data_.custom_parameters) {
      if (hearth_oauth_provider_set_custom_parameter(provider, parameter.first.c_str(), parameter.second.c_str()) !=
          HEARTH_ERROR_NONE) {
        *problem = "The custom parameter \"" + parameter.first +
                   "\" was refused: client_id, redirect_uri, response_mode, response_type, scope and state are set "
                   "by the sign-in flow itself; a name is non-empty UTF-8 without control characters, a value "
                   "UTF-8.";
        hearth_oauth_provider_release(provider);
        return nullptr;
      }
    }
    return provider;
  }

  FederatedOAuthProviderData provider_data_;
};

}  // namespace auth

namespace detail {

// The C provider of one operation; released when the operation has been started (Hearth copies it).
class ProviderArgument {
 public:
  explicit ProviderArgument(const auth::FederatedAuthProvider* provider);
  ~ProviderArgument() { hearth_oauth_provider_release(provider_); }
  ProviderArgument(const ProviderArgument&) = delete;
  ProviderArgument& operator=(const ProviderArgument&) = delete;

  // NULL when there is no provider or it was refused: Hearth then fails the operation with
  // kAuthErrorInvalidArgument, and problem() says why.
  const hearth_oauth_provider* get() const { return provider_; }
  const std::string& problem() const { return problem_; }

 private:
  hearth_oauth_provider* provider_ = nullptr;
  std::string problem_;
};

}  // namespace detail

namespace auth {

/// A snapshot of a user (see the top of this file for how it differs from the C++ SDK's live handle).
/// Default-constructed and signed-out Users are invalid: accessors give "", false, 0 and operations give
/// invalid Futures.
class User {
 public:
  /// Parameters of UpdateUserProfile: NULL leaves a field unchanged, "" deletes it.
  struct UserProfile {
    UserProfile() : display_name(nullptr), photo_url(nullptr) {}
    const char* display_name;
    const char* photo_url;
  };

  User() = default;
  User(detail::AdoptTag, hearth_user* user, detail::AppCorePtr core) : user_(user), core_(std::move(core)) {}
  User(const User& other) : user_(other.user_ ? hearth_user_retain(other.user_) : nullptr), core_(other.core_) {}
  User(User&& other) noexcept : user_(other.user_), core_(std::move(other.core_)) { other.user_ = nullptr; }
  User& operator=(const User& other) {
    if (this != &other) {
      hearth_user* copy = other.user_ ? hearth_user_retain(other.user_) : nullptr;
      hearth_user_release(user_);
      user_ = copy;
      core_ = other.core_;
    }
    return *this;
  }
  User& operator=(User&& other) noexcept {
    if (this != &other) {
      hearth_user_release(user_);
      user_ = other.user_;
      other.user_ = nullptr;
      core_ = std::move(other.core_);
    }
    return *this;
  }
  ~User() { hearth_user_release(user_); }

  bool is_valid() const { return user_ != nullptr; }

  std::string uid() const { return Text(hearth_user_uid); }
  std::string email() const { return Text(hearth_user_email); }
  std::string display_name() const { return Text(hearth_user_display_name); }
  std::string photo_url() const { return Text(hearth_user_photo_url); }
  /// "Firebase", as in the C++ SDK.
  std::string provider_id() const { return Text(hearth_user_provider_id); }
  std::string phone_number() const { return Text(hearth_user_phone_number); }
  bool is_email_verified() const { return user_ && hearth_user_is_email_verified(user_) == 1; }
  bool is_anonymous() const { return user_ && hearth_user_is_anonymous(user_) == 1; }
  /// Hearth extra (Firebase's User.tenantId): the Identity Platform tenant the user belongs to; "" for
  /// the project's own users.
  std::string tenant_id() const { return Text(hearth_user_tenant_id); }

  UserMetadata metadata() const {
    UserMetadata metadata;
    if (user_) {
      metadata.last_sign_in_timestamp = hearth_user_last_sign_in_timestamp(user_);
      metadata.creation_timestamp = hearth_user_creation_timestamp(user_);
    }
    return metadata;
  }

  std::vector<UserInfoInterface> provider_data() const {
    std::vector<UserInfoInterface> providers;
    const size_t count = user_ ? hearth_user_provider_data_count(user_) : 0;
    for (size_t i = 0; i < count; ++i) {
      const hearth_user_info* info = hearth_user_provider_data_at(user_, i);
      if (!info) continue;
      providers.emplace_back(detail::CopyString(hearth_user_info_uid(info)), detail::CopyString(hearth_user_info_email(info)),
                             detail::CopyString(hearth_user_info_display_name(info)),
                             detail::CopyString(hearth_user_info_photo_url(info)),
                             detail::CopyString(hearth_user_info_provider_id(info)),
                             detail::CopyString(hearth_user_info_phone_number(info)));
    }
    return providers;
  }

  /// The ID token: the cached one unless it expires within 5 minutes or force_refresh is set.
  Future<std::string> GetToken(bool force_refresh) const {
    return detail::AdoptFuture<std::string>(user_ ? hearth_user_get_token(user_, force_refresh ? 1 : 0) : nullptr, core_);
  }
  Future<std::string> GetTokenLastResult() const { return LastResult<std::string>(HEARTH_OP_USER_GET_TOKEN); }

  /// Reloads the profile from the server; take auth->current_user() afterwards to see it.
  Future<void> Reload() const { return detail::AdoptFuture<void>(user_ ? hearth_user_reload(user_) : nullptr, core_); }
  Future<void> ReloadLastResult() const { return LastResult<void>(HEARTH_OP_USER_RELOAD); }

  Future<void> UpdateUserProfile(const UserProfile& profile) const {
    return detail::AdoptFuture<void>(
        user_ ? hearth_user_update_user_profile(user_, profile.display_name, profile.photo_url) : nullptr, core_);
  }
  Future<void> UpdateUserProfileLastResult() const { return LastResult<void>(HEARTH_OP_USER_UPDATE_USER_PROFILE); }

  Future<void> UpdatePassword(const char* password) const {
    return detail::AdoptFuture<void>(user_ ? hearth_user_update_password(user_, password) : nullptr, core_);
  }
  Future<void> UpdatePasswordLastResult() const { return LastResult<void>(HEARTH_OP_USER_UPDATE_PASSWORD); }

  /// Sets the email without verifying the new address first (Firebase's deprecated UpdateEmail; prefer
  /// SendEmailVerificationBeforeUpdatingEmail). kAuthErrorMissingEmail for "", kAuthErrorInvalidEmail,
  /// kAuthErrorEmailAlreadyInUse, kAuthErrorRequiresRecentLogin; kAuthErrorOperationNotAllowed where the
  /// project has email enumeration protection. The new address starts unverified.
  Future<void> UpdateEmail(const char* email) const {
    return detail::AdoptFuture<void>(user_ ? hearth_user_update_email(user_, email) : nullptr, core_);
  }
  Future<void> UpdateEmailLastResult() const { return LastResult<void>(HEARTH_OP_USER_UPDATE_EMAIL); }

  Future<void> SendEmailVerification() const {
    return detail::AdoptFuture<void>(user_ ? hearth_user_send_email_verification(user_, nullptr) : nullptr, core_);
  }
  /// Hearth extra: with action code settings (the link continues to the app, or hands it the code).
  Future<void> SendEmailVerification(const ActionCodeSettings& settings) const {
    detail::CActionCodeSettings c_settings(settings);
    return detail::AdoptFuture<void>(user_ ? hearth_user_send_email_verification(user_, c_settings.get()) : nullptr,
                                     core_);
  }
  Future<void> SendEmailVerificationLastResult() const {
    return LastResult<void>(HEARTH_OP_USER_SEND_EMAIL_VERIFICATION);
  }

  Future<void> SendEmailVerificationBeforeUpdatingEmail(const char* email) const {
    return detail::AdoptFuture<void>(
        user_ ? hearth_user_send_email_verification_before_updating_email(user_, email, nullptr) : nullptr, core_);
  }
  /// Hearth extra: with action code settings.
  Future<void> SendEmailVerificationBeforeUpdatingEmail(const char* email, const ActionCodeSettings& settings) const {
    detail::CActionCodeSettings c_settings(settings);
    return detail::AdoptFuture<void>(
        user_ ? hearth_user_send_email_verification_before_updating_email(user_, email, c_settings.get()) : nullptr,
        core_);
  }
  Future<void> SendEmailVerificationBeforeUpdatingEmailLastResult() const {
    return LastResult<void>(HEARTH_OP_USER_SEND_EMAIL_VERIFICATION_BEFORE_UPDATING_EMAIL);
  }

  /// Deletes the account and signs out.
  Future<void> Delete() const { return detail::AdoptFuture<void>(user_ ? hearth_user_delete(user_) : nullptr, core_); }
  Future<void> DeleteLastResult() const { return LastResult<void>(HEARTH_OP_USER_DELETE); }

  /// Links a credential, so the account is reachable through that provider too (an anonymous user stops
  /// being anonymous). Fails with kAuthErrorProviderAlreadyLinked when the user has that provider, and
  /// with kAuthErrorCredentialAlreadyInUse or kAuthErrorEmailAlreadyInUse when the identity belongs to
  /// another account: then result()->additional_user_info.updated_credential signs in to that account.
  Future<AuthResult> LinkWithCredential(const Credential& credential) const;
  Future<AuthResult> LinkWithCredentialLastResult() const;

  /// Links a provider through its page (see Auth::SetProviderFlowOptions); errors as LinkWithCredential.
  Future<AuthResult> LinkWithProvider(FederatedAuthProvider* provider) const;
  /// Hearth extra.
  Future<AuthResult> LinkWithProviderLastResult() const;

  /// Unlinks a provider ("google.com", "password", ...); unlinking "password" removes the email, "phone"
  /// the phone number. Fails with kAuthErrorNoSuchProvider when that provider is not linked.
  Future<AuthResult> Unlink(const char* provider) const;
  Future<AuthResult> UnlinkLastResult() const;

  /// Signs in again with a credential of this user before sensitive operations (password change,
  /// deletion) that fail with kAuthErrorRequiresRecentLogin otherwise. A credential of another account
  /// fails with kAuthErrorUserMismatch, and this user stays signed in.
  Future<void> Reauthenticate(const Credential& credential) const {
    return detail::AdoptFuture<void>(user_ ? hearth_user_reauthenticate(user_, credential.c_credential()) : nullptr,
                                     core_);
  }
  Future<void> ReauthenticateLastResult() const { return LastResult<void>(HEARTH_OP_USER_REAUTHENTICATE); }

  /// Reauthenticate, with the auth result.
  Future<AuthResult> ReauthenticateAndRetrieveData(const Credential& credential) const;
  Future<AuthResult> ReauthenticateAndRetrieveDataLastResult() const;

  /// Reauthenticates through the provider's page (see Auth::SetProviderFlowOptions);
  /// kAuthErrorUserMismatch when another account signs in there.
  Future<AuthResult> ReauthenticateWithProvider(FederatedAuthProvider* provider) const;
  /// Hearth extra.
  Future<AuthResult> ReauthenticateWithProviderLastResult() const;

  /// Replaces the user's phone number with the one the credential proves; the result is the updated
  /// user. A number another account owns fails with kAuthErrorCredentialAlreadyInUse (a Future<User>
  /// has no AdditionalUserInfo: the updated credential is hearth_auth_result_updated_credential of
  /// hearth_future_auth_result(c_future())).
  Future<User> UpdatePhoneNumberCredential(const PhoneAuthCredential& credential) const;
  Future<User> UpdatePhoneNumberCredentialLastResult() const;

  /// Hearth extra: the user's second factors (enrolled_factors() from this snapshot; GetSession, Enroll
  /// and Unenroll act on the signed-in user with this uid).
  MultiFactor multi_factor() const;

  /// Same validity and uid.
  bool operator==(const User& other) const { return is_valid() == other.is_valid() && uid() == other.uid(); }
  bool operator!=(const User& other) const { return !(*this == other); }

  /// The C snapshot (borrowed), for mixing with hearth.h. NULL if invalid.
  const hearth_user* c_user() const { return user_; }

 private:
  std::string Text(const char* (*field)(const hearth_user*)) const {
    return user_ ? detail::CopyString(field(user_)) : std::string();
  }

  template <typename T>
  Future<T> LastResult(hearth_operation operation) const {
    if (!core_) return Future<T>();
    hearth_future* future = nullptr;
    {
      // The lock keeps the app from being destroyed during the call.
      std::lock_guard<std::mutex> lock(core_->mutex);
      if (core_->auth) future = hearth_auth_last_result(core_->auth, operation);
    }
    return detail::AdoptFuture<T>(future, core_);
  }

  friend class MultiFactor;
  hearth_user* user_ = nullptr;
  detail::AppCorePtr core_;
};

using UserProfile = User::UserProfile;

/// Hearth extra: a user's second factors (Firebase's MultiFactor / multiFactor(user)), from
/// User::multi_factor(). Enrolling needs a verified email (kAuthErrorUnverifiedEmail otherwise).
class MultiFactor {
 public:
  MultiFactor() = default;
  explicit MultiFactor(User user) : user_(std::move(user)) {}

  /// The enrolled factors of the snapshot it came from (take a new User to see changes).
  std::vector<MultiFactorInfo> enrolled_factors() const;
  /// A session proving the first factor, for PhoneAuthOptions::multi_factor_session (with the phone
  /// number to enroll) or TotpMultiFactorGenerator::GenerateSecret.
  Future<MultiFactorSession> GetSession() const;
  /// Enrolls a proven second factor under display_name (nullptr: none); the result is the updated
  /// user. Errors: kAuthErrorSecondFactorAlreadyEnrolled, kAuthErrorMaximumSecondFactorCountExceeded,
  /// kAuthErrorUnverifiedEmail, kAuthErrorUnsupportedFirstFactor, kAuthErrorInvalidVerificationCode, ...
  Future<User> Enroll(const MultiFactorAssertion& assertion, const char* display_name = nullptr) const;
  /// Removes an enrolled factor; the result is the updated user. kAuthErrorMultiFactorInfoNotFound
  /// when it is not enrolled.
  Future<User> Unenroll(const MultiFactorInfo& factor) const;
  Future<User> Unenroll(const char* enrollment_id) const;

 private:
  User user_;
};

/// Data from the identity provider about a sign-in (firebase's AdditionalUserInfo, plus is_new_user,
/// profile_json and email). profile maps the top-level fields of the IdP profile: strings unescaped,
/// other values as their JSON text.
struct AdditionalUserInfo {
  std::string provider_id;
  /// The IdP user name: GitHub login, Twitter screen name.
  std::string user_name;
  std::map<std::string, std::string> profile;
  /// For a FAILED link or sign-in whose identity belongs to another account
  /// (kAuthErrorCredentialAlreadyInUse, kAuthErrorEmailAlreadyInUse,
  /// kAuthErrorAccountExistsWithDifferentCredentials): a credential that signs in to that account.
  /// Invalid otherwise.
  Credential updated_credential;
  /// Hearth extras: whether this sign-in created the user; the IdP profile as JSON text; the email the
  /// server reported with a conflict ("" when none).
  bool is_new_user = false;
  std::string profile_json = "{}";
  std::string email;
};

/// The result of a sign-in, link or reauthentication, as firebase::auth::AuthResult. A failed operation
/// whose identity belongs to another account still has one (with an invalid user): see
/// AdditionalUserInfo::updated_credential.
struct AuthResult {
  AdditionalUserInfo additional_user_info;
  /// The identity provider's credential the server returned (access token, ID token, secret: see
  /// Credential's Hearth extras); invalid when there is none (password, anonymous, custom token).
  Credential credential;
  User user;
};

/// Hearth extra: how provider sign-in flows (SignInWithProvider, LinkWithProvider,
/// ReauthenticateWithProvider) reach the user on a desktop. Hearth opens the provider's page through
/// open_url and receives the redirect on a one-shot loopback receiver on 127.0.0.1, or, with a
/// redirect_uri of a custom URL scheme the host registered, through Auth::HandleUrl.
struct ProviderFlowOptions {
  /// Required: shows the URL to the user (system browser, in-engine web view) and returns true, or
  /// false to cancel the flow (kAuthErrorWebContextCancelled; so does an exception). Runs on the loop
  /// thread and must not block: with the loopback receiver, the redirect arrives on that same loop.
  std::function<bool(const std::string& url)> open_url;
  /// "": the loopback receiver. Else a URI of a custom scheme (e.g. "com.example.game:/oauth"); hand
  /// every URL the host is opened with to Auth::HandleUrl.
  std::string redirect_uri;
  /// The loopback receiver's port; 0 = a random free port. A port in use fails the flow with
  /// kAuthErrorInvalidArgument.
  uint16_t loopback_port = 0;
  /// The whole flow, after which it fails with kAuthErrorWebContextCancelled; 0 = 5 minutes.
  int64_t timeout_ms = 0;
  /// true: always take the production path (accounts:createAuthUri and the provider's page), also
  /// against the emulator, whose createAuthUri serves a fake consent page. false: the emulator's own
  /// handler page when using the emulator.
  bool use_create_auth_uri = false;
};

struct FetchProvidersResult {
  std::vector<std::string> providers;
};

/// Hearth extra: finishes a sign-in that failed with kAuthErrorSecondFactorRequired (Firebase's
/// MultiFactorResolver / getMultiFactorResolver). A value; it keeps what it needs of the failed Future.
class MultiFactorResolver {
 public:
  MultiFactorResolver() = default;

  /// The resolver of a sign-in (any Future: SignInWithEmailAndPassword, SignInWithCredential,
  /// SignInWithProvider, ...) that failed with kAuthErrorSecondFactorRequired; invalid otherwise.
  static MultiFactorResolver FromFuture(const FutureBase& failed);

  bool is_valid() const { return resolver_ != nullptr; }
  /// The user's second factors (phone numbers masked).
  std::vector<MultiFactorInfo> hints() const;
  /// The session to text a phone hint with (PhoneAuthOptions::multi_factor_session, with the hint in
  /// multi_factor_hint).
  MultiFactorSession session() const;
  /// Finishes the sign-in with a proven second factor. Auth-state listeners are told once, when it
  /// succeeds. Errors: kAuthErrorInvalidVerificationCode, kAuthErrorSessionExpired,
  /// kAuthErrorInvalidMultiFactorSession, kAuthErrorMultiFactorInfoNotFound, ...; kAuthErrorAppDestroyed
  /// once the App is deleted. An invalid Future for an invalid resolver.
  Future<AuthResult> ResolveSignIn(const MultiFactorAssertion& assertion) const;

  /// The C handle (borrowed; valid as long as this object), for mixing with hearth.h.
  const hearth_multi_factor_resolver* c_resolver() const { return resolver_; }

 private:
  std::shared_ptr<hearth_future> owner_;
  const hearth_multi_factor_resolver* resolver_ = nullptr;
  detail::AppCorePtr core_;
};

/// Told when the signed-in user changes (and once after being added). Runs on the loop thread. The
/// destructor removes the listener from every Auth; delete a listener only when no callback of it can be
/// running on another thread, or remove it first (removal waits for a running callback to return).
class AuthStateListener {
 public:
  AuthStateListener() = default;
  AuthStateListener(const AuthStateListener&) = delete;
  AuthStateListener& operator=(const AuthStateListener&) = delete;
  virtual ~AuthStateListener();
  virtual void OnAuthStateChanged(Auth* auth) = 0;

 private:
  friend class Auth;
  std::vector<Auth*> auths_;  // the Auths it is added to (guarded by detail::ListenerGraphMutex())
};

/// Told when the ID token changes (sign-in, refresh, sign-out; and once after being added).
class IdTokenListener {
 public:
  IdTokenListener() = default;
  IdTokenListener(const IdTokenListener&) = delete;
  IdTokenListener& operator=(const IdTokenListener&) = delete;
  virtual ~IdTokenListener();
  virtual void OnIdTokenChanged(Auth* auth) = 0;

 private:
  friend class Auth;
  std::vector<Auth*> auths_;  // the Auths it is added to (guarded by detail::ListenerGraphMutex())
};

/// The app's authentication, as firebase::auth::Auth. One per App; deleted with the App (or by delete,
/// after which GetAuth makes a new one).
class Auth {
 public:
  /// The app's Auth (created on first use). nullptr, and kInitResultFailedMissingDependency, for a null app.
  static Auth* GetAuth(App* app, InitResult* init_result_out = nullptr);

  ~Auth();
  Auth(const Auth&) = delete;
  Auth& operator=(const Auth&) = delete;

  App& app() { return *app_; }

  /// A snapshot of the signed-in user; invalid when signed out.
  User current_user() const {
    hearth_user* user = hearth_auth_current_user(auth_);
    return user ? User(detail::kAdopt, user, core_) : User(detail::kAdopt, nullptr, core_);
  }

  /// Signs in a new anonymous user; completes with the current user if it is already anonymous.
  Future<AuthResult> SignInAnonymously() { return Adopt<AuthResult>(hearth_auth_sign_in_anonymously(auth_)); }
  Future<AuthResult> SignInAnonymouslyLastResult() const {
    return Adopt<AuthResult>(hearth_auth_last_result(auth_, HEARTH_OP_AUTH_SIGN_IN_ANONYMOUSLY));
  }

  Future<AuthResult> CreateUserWithEmailAndPassword(const char* email, const char* password) {
    return Adopt<AuthResult>(hearth_auth_create_user_with_email_and_password(auth_, email, password));
  }
  Future<AuthResult> CreateUserWithEmailAndPasswordLastResult() const {
    return Adopt<AuthResult>(hearth_auth_last_result(auth_, HEARTH_OP_AUTH_CREATE_USER_WITH_EMAIL_AND_PASSWORD));
  }

  Future<AuthResult> SignInWithEmailAndPassword(const char* email, const char* password) {
    return Adopt<AuthResult>(hearth_auth_sign_in_with_email_and_password(auth_, email, password));
  }
  Future<AuthResult> SignInWithEmailAndPasswordLastResult() const {
    return Adopt<AuthResult>(hearth_auth_last_result(auth_, HEARTH_OP_AUTH_SIGN_IN_WITH_EMAIL_AND_PASSWORD));
  }

  Future<AuthResult> SignInWithCustomToken(const char* custom_token) {
    return Adopt<AuthResult>(hearth_auth_sign_in_with_custom_token(auth_, custom_token));
  }
  Future<AuthResult> SignInWithCustomTokenLastResult() const {
    return Adopt<AuthResult>(hearth_auth_last_result(auth_, HEARTH_OP_AUTH_SIGN_IN_WITH_CUSTOM_TOKEN));
  }

  Future<User> SignInWithCredential(const Credential& credential) {
    return Adopt<User>(hearth_auth_sign_in_with_credential(auth_, credential.c_credential()));
  }
  Future<User> SignInWithCredentialLastResult() const {
    return Adopt<User>(hearth_auth_last_result(auth_, HEARTH_OP_AUTH_SIGN_IN_WITH_CREDENTIAL));
  }

  Future<AuthResult> SignInAndRetrieveDataWithCredential(const Credential& credential) {
    return Adopt<AuthResult>(hearth_auth_sign_in_and_retrieve_data_with_credential(auth_, credential.c_credential()));
  }
  Future<AuthResult> SignInAndRetrieveDataWithCredentialLastResult() const {
    return Adopt<AuthResult>(hearth_auth_last_result(auth_, HEARTH_OP_AUTH_SIGN_IN_AND_RETRIEVE_DATA_WITH_CREDENTIAL));
  }

  Future<void> SendPasswordResetEmail(const char* email) {
    return Adopt<void>(hearth_auth_send_password_reset_email(auth_, email, nullptr));
  }
  /// Hearth extra: with action code settings (the link continues to the app, or hands it the code).
  Future<void> SendPasswordResetEmail(const char* email, const ActionCodeSettings& settings) {
    detail::CActionCodeSettings c_settings(settings);
    return Adopt<void>(hearth_auth_send_password_reset_email(auth_, email, c_settings.get()));
  }
  Future<void> SendPasswordResetEmailLastResult() const {
    return Adopt<void>(hearth_auth_last_result(auth_, HEARTH_OP_AUTH_SEND_PASSWORD_RESET_EMAIL));
  }

  // Email actions (Hearth extras: Firebase's other SDKs have them, its C++ SDK does not). See "Email
  // actions" in hearth.h for the desktop flow: the app keeps the email it sends a link to, offers the
  // URL it is opened with to HandleUrl, then IsSignInWithEmailLink and SignInWithEmailLink.

  /// Mails `email` a link that signs in to its account (created on first use). `settings` needs url
  /// and handle_code_in_app (kAuthErrorInvalidArgument otherwise, as in Firebase).
  Future<void> SendSignInLinkToEmail(const char* email, const ActionCodeSettings& settings) {
    detail::CActionCodeSettings c_settings(settings);
    return Adopt<void>(hearth_auth_send_sign_in_link_to_email(auth_, email, c_settings.get()));
  }
  Future<void> SendSignInLinkToEmailLastResult() const {
    return Adopt<void>(hearth_auth_last_result(auth_, HEARTH_OP_AUTH_SEND_SIGN_IN_LINK_TO_EMAIL));
  }

  /// Whether `link` is an email sign-in link (also wrapped in a Dynamic Link or Hosting link, or pasted
  /// with whitespace around it).
  bool IsSignInWithEmailLink(const char* link) const {
    return link && hearth_auth_is_sign_in_with_email_link(auth_, link) == 1;
  }
  bool IsSignInWithEmailLink(const std::string& link) const { return IsSignInWithEmailLink(link.c_str()); }

  /// Signs in with the address the link was sent to and the link; the account is created on first
  /// use. Errors: kAuthErrorInvalidArgument (not an email action link), kAuthErrorInvalidEmail (not
  /// the link's address), kAuthErrorInvalidActionCode (used, unknown or not a sign-in code),
  /// kAuthErrorExpiredActionCode, kAuthErrorUserDisabled, kAuthErrorSecondFactorRequired,
  /// kAuthErrorTenantIdMismatch (the link names another tenant than tenant_id(); no request is sent).
  Future<AuthResult> SignInWithEmailLink(const char* email, const char* link) {
    return Adopt<AuthResult>(hearth_auth_sign_in_with_email_link(auth_, email, link));
  }
  Future<AuthResult> SignInWithEmailLinkLastResult() const {
    return Adopt<AuthResult>(hearth_auth_last_result(auth_, HEARTH_OP_AUTH_SIGN_IN_WITH_EMAIL_LINK));
  }

  /// Uses a code that verifies an address, changes it (verify before update) or takes it back.
  Future<void> ApplyActionCode(const char* code) { return Adopt<void>(hearth_auth_apply_action_code(auth_, code)); }
  Future<void> ApplyActionCodeLastResult() const {
    return Adopt<void>(hearth_auth_last_result(auth_, HEARTH_OP_AUTH_APPLY_ACTION_CODE));
  }

  /// What a code is for and which addresses it concerns, without using it.
  Future<ActionCodeInfo> CheckActionCode(const char* code) {
    return Adopt<ActionCodeInfo>(hearth_auth_check_action_code(auth_, code));
  }
  Future<ActionCodeInfo> CheckActionCodeLastResult() const {
    return Adopt<ActionCodeInfo>(hearth_auth_last_result(auth_, HEARTH_OP_AUTH_CHECK_ACTION_CODE));
  }

  /// The address a password reset code was sent to, without using the code.
  Future<std::string> VerifyPasswordResetCode(const char* code) {
    return Adopt<std::string>(hearth_auth_verify_password_reset_code(auth_, code));
  }
  Future<std::string> VerifyPasswordResetCodeLastResult() const {
    return Adopt<std::string>(hearth_auth_last_result(auth_, HEARTH_OP_AUTH_VERIFY_PASSWORD_RESET_CODE));
  }

  /// Sets a new password with a password reset code, which is used up.
  Future<void> ConfirmPasswordReset(const char* code, const char* new_password) {
    return Adopt<void>(hearth_auth_confirm_password_reset(auth_, code, new_password));
  }
  Future<void> ConfirmPasswordResetLastResult() const {
    return Adopt<void>(hearth_auth_last_result(auth_, HEARTH_OP_AUTH_CONFIRM_PASSWORD_RESET));
  }

  /// The sign-in methods of an email (empty under email enumeration protection).
  Future<FetchProvidersResult> FetchProvidersForEmail(const char* email) {
    return Adopt<FetchProvidersResult>(hearth_auth_fetch_providers_for_email(auth_, email));
  }
  Future<FetchProvidersResult> FetchProvidersForEmailLastResult() const {
    return Adopt<FetchProvidersResult>(hearth_auth_last_result(auth_, HEARTH_OP_AUTH_FETCH_PROVIDERS_FOR_EMAIL));
  }

  /// Signs in through the provider's page (see SetProviderFlowOptions). One provider flow at a time:
  /// a second fails with kAuthErrorWebContextAlreadyPresented. An unknown provider id fails with
  /// kAuthErrorInvalidProviderId. CancelProviderFlow, the timeout, the UI delegate's refusal and a
  /// Cancel on the provider's page end it with kAuthErrorWebContextCancelled; deleting the App with
  /// kAuthErrorCancelled.
  Future<AuthResult> SignInWithProvider(FederatedAuthProvider* provider);
  /// Hearth extra.
  Future<AuthResult> SignInWithProviderLastResult() const {
    return Adopt<AuthResult>(hearth_auth_last_result(auth_, HEARTH_OP_AUTH_SIGN_IN_WITH_PROVIDER));
  }

  /// Hearth extra (the Apple SDK's OAuthProvider.getCredentialWith): runs the provider's page like
  /// SignInWithProvider and completes with the Credential it yields, signing nobody in. Sign in, link or
  /// reauthenticate with it afterwards (SignInAndRetrieveDataWithCredential, User::LinkWithCredential,
  /// User::ReauthenticateAndRetrieveData). The Credential's provider() is the provider's id; it carries
  /// the provider's answer, not its tokens (id_token() and access_token() are ""). Errors as for
  /// SignInWithProvider.
  Future<Credential> GetCredentialWithProvider(FederatedAuthProvider* provider);
  Future<Credential> GetCredentialWithProviderLastResult() const {
    return Adopt<Credential>(hearth_auth_last_result(auth_, HEARTH_OP_AUTH_GET_CREDENTIAL_WITH_PROVIDER));
  }

  /// Hearth extra: the UI delegate and redirect target of provider flows (the C++ SDK has no desktop
  /// flow). Applies to flows started afterwards. Returns kAuthErrorInvalidArgument without open_url, or
  /// for a negative timeout.
  AuthError SetProviderFlowOptions(const ProviderFlowOptions& options);

  /// Hearth extra, for hosts with a custom URL scheme: offers a URL the host was opened with. True when
  /// it was the redirect of the pending provider flow (Hearth took it); false when it is not Hearth's
  /// (another scheme or path, another flow's state, no flow pending), and always for an email sign-in
  /// link (complete those with SignInWithEmailLink).
  bool HandleUrl(const char* url) { return url && hearth_auth_handle_url(auth_, url) == 1; }
  bool HandleUrl(const std::string& url) { return HandleUrl(url.c_str()); }

  /// Hearth extra: cancels the pending provider flow, if any (kAuthErrorWebContextCancelled).
  void CancelProviderFlow() { hearth_auth_cancel_provider_flow(auth_); }

  /// Signs out (listeners are told on the loop thread) and erases the persisted session.
  void SignOut() { hearth_auth_sign_out(auth_); }

  /// Hearth extra, as FirebaseAuthSettings' setAppVerificationDisabledForTesting: true sends phone
  /// verifications without app verification (Firebase then accepts only its fictional test numbers);
  /// false runs the reCAPTCHA page through the UI delegate of SetProviderFlowOptions. Default: true
  /// against the emulator, else false.
  AuthError SetAppVerificationDisabledForTesting(bool disabled) {
    return Checked(hearth_auth_set_app_verification_disabled_for_testing(auth_, disabled ? 1 : 0));
  }

  /// The language code sent as X-Firebase-Locale; "" when none is set.
  std::string language_code() const {
    char* code = hearth_auth_language_code(auth_);
    std::string result = detail::CopyString(code);
    hearth_free(code);
    return result;
  }
  /// NULL or "" clears it.
  void set_language_code(const char* language_code) {
    hearth_auth_set_language_code(auth_, language_code ? language_code : "");
  }
  /// Goes back to the default language: Firebase's own (no X-Firebase-Locale), as the C++ SDK's desktop
  /// build does (mobile SDKs take the device's locale).
  void UseAppLanguage() { set_language_code(nullptr); }

  /// Hearth extra (Firebase's Auth.tenantId; the C++ SDK has no tenants): the Identity Platform tenant
  /// users sign in to; "" for none, the project's own users (see "Tenants" in hearth.h).
  std::string tenant_id() const {
    char* tenant = hearth_auth_tenant_id(auth_);
    std::string result = detail::CopyString(tenant);
    hearth_free(tenant);
    return result;
  }
  /// Sets the tenant users sign in to from now on; nullptr: none (the default). The signed-in user stays.
  /// Returns kAuthErrorInvalidArgument for "" or invalid UTF-8 (the tenant stays as it was).
  AuthError set_tenant_id(const char* tenant_id) { return Checked(hearth_auth_set_tenant_id(auth_, tenant_id)); }

  /// Hearth extra (Firebase's updateCurrentUser): makes a user signed in to another Auth of the same
  /// project (an App with the same API key) this Auth's current user too, taking over its session.
  /// kAuthErrorTenantIdMismatch when its tenant is not this Auth's tenant_id(),
  /// kAuthErrorInvalidUserToken for an App with another API key, kAuthErrorNoSignedInUser when the
  /// user is no longer signed in to its own Auth. The current user stays on an error.
  Future<void> UpdateCurrentUser(const User& user) {
    return Adopt<void>(hearth_auth_update_current_user(auth_, user.c_user()));
  }
  Future<void> UpdateCurrentUserLastResult() const {
    return Adopt<void>(hearth_auth_last_result(auth_, HEARTH_OP_AUTH_UPDATE_CURRENT_USER));
  }

  /// Routes every endpoint (token refresh included) to the Auth emulator at http://host:port.
  /// Hearth extra: returns kAuthErrorInvalidArgument for a port above 65535 or an invalid host.
  AuthError UseEmulator(std::string host, uint32_t port) {
    if (port > 65535) {
      return static_cast<AuthError>(detail::SetLastError(
          kAuthErrorInvalidArgument, "Auth::UseEmulator: port " + std::to_string(port) + " is above 65535."));
    }
    return Checked(hearth_auth_use_emulator(auth_, host.c_str(), static_cast<uint16_t>(port)));
  }

  /// Adding a listener twice has no effect. Removing waits for a running call of it on another thread.
  void AddAuthStateListener(AuthStateListener* listener);
  void RemoveAuthStateListener(AuthStateListener* listener);
  void AddIdTokenListener(IdTokenListener* listener);
  void RemoveIdTokenListener(IdTokenListener* listener);

  /// The C handle (borrowed), for mixing with hearth.h.
  hearth_auth* c_auth() const { return auth_; }

 private:
  friend class hearth::App;
  Auth(App* app, detail::AppCorePtr core) : app_(app), core_(std::move(core)), auth_(core_->auth) {}

  template <typename T>
  Future<T> Adopt(hearth_future* future) const {
    return detail::AdoptFuture<T>(future, core_);
  }

  // A C call's status as an AuthError, its failure recorded for LastErrorMessage().
  static AuthError Checked(hearth_error status) {
    if (status != HEARTH_ERROR_NONE) detail::TakeCLastError(status);
    return static_cast<AuthError>(status);
  }

  friend class PhoneAuthProvider;
  App* app_;  // nullptr once the App has let go of this Auth
  const detail::AppCorePtr core_;
  hearth_auth* const auth_;
  std::mutex phone_auth_provider_mutex_;
  PhoneAuthProvider* phone_auth_provider_ = nullptr;  // guarded by phone_auth_provider_mutex_

  // The listeners added to this Auth, with their C listener ids (guarded by
  // detail::ListenerGraphMutex()). Exactly one of the two pointers is set.
  struct ListenerEntry {
    AuthStateListener* auth_state;
    IdTokenListener* id_token;
    uint64_t c_id;
  };
  std::vector<ListenerEntry> listeners_;
  static ListenerEntry MakeEntry(AuthStateListener* listener, uint64_t c_id) { return {listener, nullptr, c_id}; }
  static ListenerEntry MakeEntry(IdTokenListener* listener, uint64_t c_id) { return {nullptr, listener, c_id}; }
  static bool Holds(const ListenerEntry& entry, const AuthStateListener* listener) { return entry.auth_state == listener; }
  static bool Holds(const ListenerEntry& entry, const IdTokenListener* listener) { return entry.id_token == listener; }
  template <typename L>
  void AddListener(L* listener);
  template <typename L>
  void RemoveListener(L* listener);
  // Takes `listener` out of this Auth's bookkeeping (under the graph mutex); its C id, or 0.
  template <typename L>
  uint64_t ForgetListener(L* listener);
  static void RemoveCListener(hearth_auth* auth, bool auth_state, uint64_t c_id);
  // A listener's destructor: removes it from every Auth it was added to.
  template <typename L>
  static void RemoveFromEveryAuth(L* listener);
  friend class AuthStateListener;
  friend class IdTokenListener;
};

}  // namespace auth

// -------------------------------------------------------------------------------------------------
// Internals that need the auth types.
// -------------------------------------------------------------------------------------------------
namespace detail {

// Minimal reader for one JSON object's top-level fields: strings are unescaped, any other value is kept
// as its JSON text. Malformed input yields false (and the caller an empty map), never a crash.
class FlatJsonObjectReader {
 public:
  explicit FlatJsonObjectReader(const std::string& text) : at_(text.data()), end_(text.data() + text.size()) {}

  bool Read(std::map<std::string, std::string>* fields) {
    SkipSpace();
    if (!Consume('{')) return false;
    SkipSpace();
    if (!Consume('}')) {
      for (;;) {
        SkipSpace();
        std::string key;
        if (!ReadString(&key)) return false;
        SkipSpace();
        if (!Consume(':')) return false;
        SkipSpace();
        std::string value;
        if (at_ < end_ && *at_ == '"') {
          if (!ReadString(&value)) return false;
        } else {
          const char* start = at_;
          if (!SkipNonString()) return false;
          value.assign(start, at_);
        }
        (*fields)[key] = std::move(value);
        SkipSpace();
        if (Consume(',')) continue;
        if (Consume('}')) break;
        return false;
      }
    }
    SkipSpace();
    return at_ == end_;
  }

 private:
  void SkipSpace() {
    while (at_ < end_ && (*at_ == ' ' || *at_ == '\t' || *at_ == '\n' || *at_ == '\r')) ++at_;
  }

  bool Consume(char c) {
    if (at_ < end_ && *at_ == c) {
      ++at_;
      return true;
    }
    return false;
  }

  static int HexValue(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }

  bool ReadHex4(uint32_t* value) {
    if (end_ - at_ < 4) return false;
    uint32_t result = 0;
    for (int i = 0; i < 4; ++i) {
      const int digit = HexValue(at_[i]);
      if (digit < 0) return false;
      result = (result << 4) | static_cast<uint32_t>(digit);
    }
    at_ += 4;
    *value = result;
    return true;
  }

  static void AppendUtf8(uint32_t code_point, std::string* out) {
    if (code_point < 0x80) {
      out->push_back(static_cast<char>(code_point));
    } else if (code_point < 0x800) {
      out->push_back(static_cast<char>(0xC0 | (code_point >> 6)));
      out->push_back(static_cast<char>(0x80 | (code_point & 0x3F)));
    } else if (code_point < 0x10000) {
      out->push_back(static_cast<char>(0xE0 | (code_point >> 12)));
      out->push_back(static_cast<char>(0x80 | ((code_point >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (code_point & 0x3F)));
    } else {
      out->push_back(static_cast<char>(0xF0 | (code_point >> 18)));
      out->push_back(static_cast<char>(0x80 | ((code_point >> 12) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | ((code_point >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (code_point & 0x3F)));
    }
  }

  // Reads a string literal at at_; `out` may be nullptr to skip it.
  bool ReadString(std::string* out) {
    if (!Consume('"')) return false;
    while (at_ < end_) {
      const char c = *at_++;
      if (c == '"') return true;
      if (static_cast<unsigned char>(c) < 0x20) return false;
      if (c != '\\') {
        if (out) out->push_back(c);
        continue;
      }
      if (at_ >= end_) return false;
      const char escape = *at_++;
      char plain = 0;
      switch (escape) {
        case '"': plain = '"'; break;
        case '\\': plain = '\\'; break;
        case '/': plain = '/'; break;
        case 'b': plain = '\b'; break;
        case 'f': plain = '\f'; break;
        case 'n': plain = '\n'; break;
        case 'r': plain = '\r'; break;
        case 't': plain = '\t'; break;
        case 'u': {
          uint32_t code_point = 0;
          if (!ReadHex4(&code_point)) return false;
          if (code_point >= 0xDC00 && code_point <= 0xDFFF) return false;
          if (code_point >= 0xD800 && code_point <= 0xDBFF) {
            uint32_t low = 0;
            if (!Consume('\\') || !Consume('u') || !ReadHex4(&low) || low < 0xDC00 || low > 0xDFFF) return false;
            code_point = 0x10000 + ((code_point - 0xD800) << 10) + (low - 0xDC00);
          }
          if (out) AppendUtf8(code_point, out);
          continue;
        }
        default:
          return false;
      }
      if (out) out->push_back(plain);
    }
    return false;
  }

  // Skips a number, literal, object or array (nesting tracked without recursion).
  bool SkipNonString() {
    if (at_ >= end_) return false;
    if (*at_ != '{' && *at_ != '[') {
      const char* start = at_;
      while (at_ < end_ && *at_ != ',' && *at_ != '}' && *at_ != ']' && *at_ != ' ' && *at_ != '\t' && *at_ != '\n' &&
             *at_ != '\r') {
        ++at_;
      }
      const char first = *start;
      return at_ > start && (first == '-' || (first >= '0' && first <= '9') || first == 't' || first == 'f' || first == 'n');
    }
    std::vector<char> closers;
    while (at_ < end_) {
      const char c = *at_;
      if (c == '"') {
        if (!ReadString(nullptr)) return false;
        continue;
      }
      ++at_;
      if (c == '{') {
        closers.push_back('}');
      } else if (c == '[') {
        closers.push_back(']');
      } else if (c == '}' || c == ']') {
        if (closers.empty() || closers.back() != c) return false;
        closers.pop_back();
        if (closers.empty()) return true;
      }
    }
    return false;
  }

  const char* at_;
  const char* end_;
};

inline std::map<std::string, std::string> ParseProfile(const std::string& json) {
  std::map<std::string, std::string> fields;
  if (!FlatJsonObjectReader(json).Read(&fields)) fields.clear();
  return fields;
}

inline auth::User CopyUser(const hearth_user* user, const AppCorePtr& core) {
  hearth_user* copy = user ? hearth_user_retain(user) : nullptr;
  return auth::User(kAdopt, copy, core);
}

template <>
struct FutureReader<auth::User> {
  static std::shared_ptr<const void> Read(const hearth_future* future, const AppCorePtr& core) {
    return std::make_shared<const auth::User>(CopyUser(hearth_future_user(future), core));
  }
};

template <>
struct FutureReader<auth::AuthResult> {
  static std::shared_ptr<const void> Read(const hearth_future* future, const AppCorePtr& core) {
    auto result = std::make_shared<auth::AuthResult>();
    const hearth_auth_result* data = hearth_future_auth_result(future);
    if (data) {
      result->user = CopyUser(hearth_auth_result_user(data), core);
      auth::AdditionalUserInfo& info = result->additional_user_info;
      info.provider_id = CopyString(hearth_auth_result_provider_id(data));
      info.user_name = CopyString(hearth_auth_result_user_name(data));
      const char* profile = hearth_auth_result_profile_json(data);
      info.profile_json = profile && *profile ? profile : "{}";
      info.profile = ParseProfile(info.profile_json);
      info.is_new_user = hearth_auth_result_is_new_user(data) == 1;
      info.updated_credential = RetainCredential(hearth_auth_result_updated_credential(data));
      info.email = CopyString(hearth_auth_result_email(data));
      result->credential = RetainCredential(hearth_auth_result_credential(data));
    }
    return std::shared_ptr<const auth::AuthResult>(std::move(result));
  }
};

template <>
struct FutureReader<auth::Credential> {
  static std::shared_ptr<const void> Read(const hearth_future* future, const AppCorePtr&) {
    return std::make_shared<const auth::Credential>(RetainCredential(hearth_future_credential(future)));
  }
};

template <>
struct FutureReader<auth::ActionCodeInfo> {
  static std::shared_ptr<const void> Read(const hearth_future* future, const AppCorePtr&) {
    auto result = std::make_shared<auth::ActionCodeInfo>();
    const hearth_action_code_info* info = hearth_future_action_code_info(future);
    if (info) {
      result->operation = static_cast<auth::ActionCodeOperation>(hearth_action_code_info_operation(info));
      result->email = CopyString(hearth_action_code_info_email(info));
      result->previous_email = CopyString(hearth_action_code_info_previous_email(info));
    }
    return std::shared_ptr<const auth::ActionCodeInfo>(std::move(result));
  }
};

template <>
struct FutureReader<auth::FetchProvidersResult> {
  static std::shared_ptr<const void> Read(const hearth_future* future, const AppCorePtr&) {
    auto result = std::make_shared<auth::FetchProvidersResult>();
    const size_t count = hearth_future_string_count(future);
    for (size_t i = 0; i < count; ++i) {
      const char* provider = hearth_future_string_at(future, i);
      if (provider) result->providers.emplace_back(provider);
    }
    return std::shared_ptr<const auth::FetchProvidersResult>(std::move(result));
  }
};

// The bookkeeping of which listener is added to which Auth (Auth::listeners_ and each listener's auths_),
// so that removing by listener, deleting a listener and deleting an Auth each find the other side, as in
// the C++ SDK. Never held while Hearth runs: a C removal waits for a running callback, which may itself
// add or remove listeners.
inline std::mutex& ListenerGraphMutex() {
  static std::mutex* mutex = new std::mutex();  // never destroyed: listeners may outlive static destruction
  return *mutex;
}

// One listener added to one Auth: the user_data of its C listener. Hearth calls OnListenerEvent until the
// listener is removed and then, once, ReleaseListenerLink; a removal that returned (off the loop thread)
// has waited for a running call, so the listener and the Auth are alive whenever it runs.
struct ListenerLink {
  void* listener;
  auth::Auth* auth;
  void (*notify)(void* listener, auth::Auth* auth);
};

inline void OnListenerEvent(hearth_auth* /*auth*/, void* user_data) {
  const ListenerLink* link = static_cast<const ListenerLink*>(user_data);
  try {
    link->notify(link->listener, link->auth);
  } catch (...) {
    // An exception must not unwind into the C library's loop.
  }
}

inline void ReleaseListenerLink(void* user_data) { delete static_cast<ListenerLink*>(user_data); }

// What a PhoneAuthProvider::Listener shares with the verifications it listens to: its pointer, cleared
// by its destructor, which waits for a call running on another thread (not for one on its own thread:
// a listener deleting itself from its callback).
struct PhoneListenerState {
  std::mutex mutex;
  std::condition_variable idle;
  auth::PhoneAuthProvider::Listener* listener = nullptr;
  int calls_in_progress = 0;
  std::thread::id calling_thread;
};

// One verification with a listener: the user_data of its C listener, which Hearth releases once, after
// the verification's last call (ReleasePhoneCall); or, for a verification refused at once, of the
// hearth_app_post that tells the listener (DeliverPhoneFailure), which deletes it.
struct PhoneCall {
  std::shared_ptr<PhoneListenerState> state;
  int failure = HEARTH_ERROR_NONE;
  std::string failure_message;

  template <typename F>
  void Invoke(F&& call) const {
    std::unique_lock<std::mutex> lock(state->mutex);
    auth::PhoneAuthProvider::Listener* listener = state->listener;
    if (!listener) return;
    ++state->calls_in_progress;
    state->calling_thread = std::this_thread::get_id();
    lock.unlock();
    try {
      call(listener);
    } catch (...) {
      // An exception must not unwind into the C library's loop.
    }
    lock.lock();
    --state->calls_in_progress;
    state->idle.notify_all();
  }
};

inline void ReleasePhoneCall(void* user_data) { delete static_cast<PhoneCall*>(user_data); }

inline void DeliverPhoneFailure(void* user_data, hearth_error /*status: told either way*/) {
  const std::unique_ptr<PhoneCall> call(static_cast<PhoneCall*>(user_data));
  const auth::AuthError error = static_cast<auth::AuthError>(call->failure);
  call->Invoke([error, &call](auth::PhoneAuthProvider::Listener* listener) {
    listener->OnVerificationFailedWithError(error, call->failure_message);
  });
}

inline void OnPhoneCodeSent(void* user_data, const char* verification_id, const char* force_resending_token) {
  const std::string id = CopyString(verification_id);
  const auth::PhoneAuthProvider::ForceResendingToken token(kAdopt, force_resending_token);
  static_cast<const PhoneCall*>(user_data)->Invoke(
      [&id, &token](auth::PhoneAuthProvider::Listener* listener) { listener->OnCodeSent(id, token); });
}

inline void OnPhoneVerificationFailed(void* user_data, hearth_error error, const char* message) {
  std::string text = CopyString(message);
  if (text.empty()) text = CopyString(hearth_error_message(error));
  static_cast<const PhoneCall*>(user_data)->Invoke([error, &text](auth::PhoneAuthProvider::Listener* listener) {
    listener->OnVerificationFailedWithError(static_cast<auth::AuthError>(error), text);
  });
}

inline void OnPhoneCodeAutoRetrievalTimeOut(void* user_data, const char* verification_id) {
  const std::string id = CopyString(verification_id);
  static_cast<const PhoneCall*>(user_data)->Invoke(
      [&id](auth::PhoneAuthProvider::Listener* listener) { listener->OnCodeAutoRetrievalTimeOut(id); });
}

template <>
struct FutureReader<auth::MultiFactorSession> {
  static std::shared_ptr<const void> Read(const hearth_future* future, const AppCorePtr& core) {
    std::shared_ptr<hearth_future> owner = RetainFuture(future);
    const hearth_multi_factor_session* session = owner ? hearth_future_multi_factor_session(owner.get()) : nullptr;
    return std::make_shared<const auth::MultiFactorSession>(owner, session, core);
  }
};

template <>
struct FutureReader<auth::TotpSecret> {
  static std::shared_ptr<const void> Read(const hearth_future* future, const AppCorePtr&) {
    std::shared_ptr<hearth_future> owner = RetainFuture(future);
    const hearth_totp_secret* secret = owner ? hearth_future_totp_secret(owner.get()) : nullptr;
    return std::make_shared<const auth::TotpSecret>(owner, secret);
  }
};

template <>
struct FutureReader<auth::PhoneAuthProvider::VerificationResult> {
  static std::shared_ptr<const void> Read(const hearth_future* future, const AppCorePtr&) {
    auto result = std::make_shared<auth::PhoneAuthProvider::VerificationResult>();
    result->verification_id = CopyString(hearth_future_string(future));
    const char* token = hearth_future_phone_resend_token(future);
    if (token) result->force_resending_token = auth::PhoneAuthProvider::ForceResendingToken(kAdopt, token);
    return std::shared_ptr<const auth::PhoneAuthProvider::VerificationResult>(std::move(result));
  }
};

// What differs between the two kinds of listener.
template <typename L>
struct ListenerKind;

template <>
struct ListenerKind<auth::AuthStateListener> {
  static constexpr bool kAuthState = true;
  static void Notify(void* listener, auth::Auth* auth) {
    static_cast<auth::AuthStateListener*>(listener)->OnAuthStateChanged(auth);
  }
  static uint64_t Add(hearth_auth* auth, ListenerLink* link) {
    return hearth_auth_add_auth_state_listener(auth, &OnListenerEvent, &ReleaseListenerLink, link);
  }
};

template <>
struct ListenerKind<auth::IdTokenListener> {
  static constexpr bool kAuthState = false;
  static void Notify(void* listener, auth::Auth* auth) {
    static_cast<auth::IdTokenListener*>(listener)->OnIdTokenChanged(auth);
  }
  static uint64_t Add(hearth_auth* auth, ListenerLink* link) {
    return hearth_auth_add_id_token_listener(auth, &OnListenerEvent, &ReleaseListenerLink, link);
  }
};

}  // namespace detail

// -------------------------------------------------------------------------------------------------
// Out-of-line definitions.
// -------------------------------------------------------------------------------------------------

inline App* App::Create(const AppOptions& options, const char* name, int* error_out) {
  if (error_out) *error_out = HEARTH_ERROR_NONE;
  std::string app_name = name && *name ? name : (*options.app_name() ? options.app_name() : kDefaultAppName);
  detail::AppDirectory& directory = detail::Apps();
  {
    // The name is reserved (mapped to nullptr) while the app is created, so two threads cannot create
    // apps with the same name, and no lock is held while hearth_app_create runs SessionStorage::Load.
    std::lock_guard<std::mutex> lock(directory.mutex);
    if (directory.apps.count(app_name) != 0) {
      const int code = detail::SetLastError(HEARTH_ERROR_INVALID_ARGUMENT,
                                            "App::Create: an app named \"" + app_name + "\" exists already.");
      if (error_out) *error_out = code;
      return nullptr;
    }
    directory.apps.emplace(app_name, nullptr);
  }
  auto release_name = [&directory, &app_name] {
    std::lock_guard<std::mutex> lock(directory.mutex);
    directory.apps.erase(app_name);
  };
  hearth_app_options c_options;
  hearth_app_options_init(&c_options);
  c_options.api_key = options.api_key();
  c_options.project_id = detail::OptionalString(options.project_id());
  c_options.app_id = detail::OptionalString(options.app_id());
  c_options.auth_domain = detail::OptionalString(options.auth_domain());
  c_options.app_name = app_name.c_str();
  c_options.loop = options.loop();
  c_options.persistence = static_cast<hearth_persistence>(options.persistence());
  c_options.persistence_dir = detail::OptionalString(options.persistence_dir());
  if (options.persistence() == kPersistenceCallbacks && options.session_storage()) {
    c_options.storage_load = &detail::StorageLoad;
    c_options.storage_save = &detail::StorageSave;
    c_options.storage_erase = &detail::StorageErase;
    c_options.storage_user_data = options.session_storage();
  }
  c_options.request_timeout_ms = options.request_timeout_ms();
  c_options.ca_bundle_path = detail::OptionalString(options.ca_bundle_path());
  hearth_app* c_app = nullptr;
  const int rc = hearth_app_create(&c_options, &c_app);
  if (rc != HEARTH_ERROR_NONE || !c_app) {
    if (c_app) hearth_app_destroy(c_app);
    release_name();
    const int code = rc != HEARTH_ERROR_NONE ? detail::TakeCLastError(rc)
                                              : detail::SetLastError(HEARTH_ERROR_FAILURE, "App::Create: no app was made.");
    if (error_out) *error_out = code;
    return nullptr;
  }
  App* app = nullptr;
  try {
    app = new App(c_app, options, app_name);
  } catch (...) {
    hearth_app_destroy(c_app);
    release_name();
    throw;
  }
  std::lock_guard<std::mutex> lock(directory.mutex);
  directory.apps[app_name] = app;
  return app;
}

inline App::~App() {
  {
    detail::AppDirectory& directory = detail::Apps();
    std::lock_guard<std::mutex> lock(directory.mutex);
    auto it = directory.apps.find(name_);
    if (it != directory.apps.end() && it->second == this) directory.apps.erase(it);
  }
  auth::Auth* auth = nullptr;
  {
    std::lock_guard<std::mutex> lock(auth_mutex_);
    auth = auth_;
    auth_ = nullptr;
  }
  delete auth;  // removes its listeners while the app is alive
  {
    std::lock_guard<std::mutex> lock(core_->mutex);
    core_->app = nullptr;
    core_->auth = nullptr;
  }
  // Pending operations complete as cancelled, and every callback still registered gets its final call
  // (with Hearth's own loop before this returns; with a host loop on the host's next loop turn).
  hearth_app_destroy(app_);
}

namespace detail {

inline ProviderArgument::ProviderArgument(const auth::FederatedAuthProvider* provider) {
  // No provider: Hearth's own message says so.
  if (provider) provider_ = provider->NewCProvider(&problem_);
}

// A UI delegate of Auth::SetProviderFlowOptions is the user_data of its C delegate; Hearth releases it
// (ReleaseOpenUrl) once no flow uses it any more.
using OpenUrlFunction = std::function<bool(const std::string&)>;

inline int OpenUrl(void* user_data, const char* url) {
  try {
    const auto& open_url = *static_cast<const OpenUrlFunction*>(user_data);
    return open_url(CopyString(url)) ? 0 : 1;
  } catch (...) {
    // An exception must not unwind into the C library's loop; it cancels the flow.
    return 1;
  }
}

inline void ReleaseOpenUrl(void* user_data) { delete static_cast<OpenUrlFunction*>(user_data); }

}  // namespace detail

namespace auth {

inline Future<AuthResult> User::LinkWithCredential(const Credential& credential) const {
  return detail::AdoptFuture<AuthResult>(
      user_ ? hearth_user_link_with_credential(user_, credential.c_credential()) : nullptr, core_);
}
inline Future<AuthResult> User::LinkWithCredentialLastResult() const {
  return LastResult<AuthResult>(HEARTH_OP_USER_LINK_WITH_CREDENTIAL);
}

inline Future<AuthResult> User::LinkWithProvider(FederatedAuthProvider* provider) const {
  if (!user_) return Future<AuthResult>();
  const detail::ProviderArgument argument(provider);
  return detail::AdoptFuture<AuthResult>(hearth_user_link_with_provider(user_, argument.get()), core_,
                                         argument.problem());
}
inline Future<AuthResult> User::LinkWithProviderLastResult() const {
  return LastResult<AuthResult>(HEARTH_OP_USER_LINK_WITH_PROVIDER);
}

inline Future<AuthResult> User::Unlink(const char* provider) const {
  return detail::AdoptFuture<AuthResult>(user_ ? hearth_user_unlink(user_, provider) : nullptr, core_);
}
inline Future<AuthResult> User::UnlinkLastResult() const {
  return LastResult<AuthResult>(HEARTH_OP_USER_UNLINK);
}

inline Future<AuthResult> User::ReauthenticateAndRetrieveData(const Credential& credential) const {
  return detail::AdoptFuture<AuthResult>(
      user_ ? hearth_user_reauthenticate_and_retrieve_data(user_, credential.c_credential()) : nullptr, core_);
}
inline Future<AuthResult> User::ReauthenticateAndRetrieveDataLastResult() const {
  return LastResult<AuthResult>(HEARTH_OP_USER_REAUTHENTICATE_AND_RETRIEVE_DATA);
}

inline Future<AuthResult> User::ReauthenticateWithProvider(FederatedAuthProvider* provider) const {
  if (!user_) return Future<AuthResult>();
  const detail::ProviderArgument argument(provider);
  return detail::AdoptFuture<AuthResult>(hearth_user_reauthenticate_with_provider(user_, argument.get()), core_,
                                         argument.problem());
}
inline Future<AuthResult> User::ReauthenticateWithProviderLastResult() const {
  return LastResult<AuthResult>(HEARTH_OP_USER_REAUTHENTICATE_WITH_PROVIDER);
}

inline Future<AuthResult> Auth::SignInWithProvider(FederatedAuthProvider* provider) {
  const detail::ProviderArgument argument(provider);
  return detail::AdoptFuture<AuthResult>(hearth_auth_sign_in_with_provider(auth_, argument.get()), core_,
                                         argument.problem());
}

inline Future<Credential> Auth::GetCredentialWithProvider(FederatedAuthProvider* provider) {
  const detail::ProviderArgument argument(provider);
  return detail::AdoptFuture<Credential>(hearth_auth_get_credential_with_provider(auth_, argument.get()), core_,
                                         argument.problem());
}

inline AuthError Auth::SetProviderFlowOptions(const ProviderFlowOptions& options) {
  hearth_provider_flow_options c_options;
  hearth_provider_flow_options_init(&c_options);
  std::unique_ptr<detail::OpenUrlFunction> delegate;
  if (options.open_url) delegate = std::make_unique<detail::OpenUrlFunction>(options.open_url);
  c_options.open_url = delegate ? &detail::OpenUrl : nullptr;
  c_options.user_data = delegate.get();
  c_options.release = delegate ? &detail::ReleaseOpenUrl : nullptr;
  c_options.redirect_uri = options.redirect_uri.empty() ? nullptr : options.redirect_uri.c_str();
  c_options.loopback_port = options.loopback_port;
  c_options.timeout_ms = options.timeout_ms;
  c_options.use_create_auth_uri = options.use_create_auth_uri ? 1 : 0;
  const AuthError status = Checked(hearth_auth_set_provider_flow_options(auth_, &c_options));
  // Taken: Hearth releases the delegate (ReleaseOpenUrl). Refused: it is still ours to free.
  if (status == kAuthErrorNone) delegate.release();
  return status;
}

inline Auth* Auth::GetAuth(App* app, InitResult* init_result_out) {
  if (!app || !app->core_->auth) {
    if (init_result_out) *init_result_out = kInitResultFailedMissingDependency;
    return nullptr;
  }
  std::lock_guard<std::mutex> lock(app->auth_mutex_);
  if (!app->auth_) app->auth_ = new Auth(app, app->core_);
  if (init_result_out) *init_result_out = kInitResultSuccess;
  return app->auth_;
}

inline Auth::~Auth() {
  std::vector<ListenerEntry> removed;
  {
    std::lock_guard<std::mutex> lock(detail::ListenerGraphMutex());
    removed.swap(listeners_);
    for (const ListenerEntry& entry : removed) {
      std::vector<Auth*>& auths = entry.auth_state ? entry.auth_state->auths_ : entry.id_token->auths_;
      auths.erase(std::remove(auths.begin(), auths.end(), this), auths.end());
    }
  }
  // While the app is alive: each removal waits for a call of that listener running on another thread.
  for (const ListenerEntry& entry : removed) RemoveCListener(auth_, entry.auth_state != nullptr, entry.c_id);
  {
    std::lock_guard<std::mutex> lock(phone_auth_provider_mutex_);
    delete phone_auth_provider_;
    phone_auth_provider_ = nullptr;
  }
  if (app_) {
    std::lock_guard<std::mutex> lock(app_->auth_mutex_);
    if (app_->auth_ == this) app_->auth_ = nullptr;
  }
}

inline void Auth::RemoveCListener(hearth_auth* auth, bool auth_state, uint64_t c_id) {
  if (auth_state) {
    hearth_auth_remove_auth_state_listener(auth, c_id);
  } else {
    hearth_auth_remove_id_token_listener(auth, c_id);
  }
}

template <typename L>
inline void Auth::AddListener(L* listener) {
  if (!listener) return;
  auto link = std::make_unique<detail::ListenerLink>(detail::ListenerLink{listener, this, &detail::ListenerKind<L>::Notify});
  // Registered and recorded under one lock: the listener's first call can run on Hearth's loop thread
  // before the registration returns here, and a listener that removes itself in that call must find
  // itself recorded (its removal waits for this lock). Hearth's add never waits for the loop thread.
  std::lock_guard<std::mutex> lock(detail::ListenerGraphMutex());
  // Adding a listener twice has no effect.
  if (std::find(listener->auths_.begin(), listener->auths_.end(), this) != listener->auths_.end()) return;
  const uint64_t c_id = detail::ListenerKind<L>::Add(auth_, link.get());
  if (c_id == 0) {
    detail::TakeCLastError(hearth_last_error_code());
    return;
  }
  link.release();  // Hearth's now, until ReleaseListenerLink
  listener->auths_.push_back(this);
  listeners_.push_back(MakeEntry(listener, c_id));
}

template <typename L>
inline uint64_t Auth::ForgetListener(L* listener) {
  uint64_t c_id = 0;
  for (auto it = listeners_.begin(); it != listeners_.end(); ++it) {
    if (Holds(*it, listener)) {
      c_id = it->c_id;
      listeners_.erase(it);
      break;
    }
  }
  listener->auths_.erase(std::remove(listener->auths_.begin(), listener->auths_.end(), this), listener->auths_.end());
  return c_id;
}

template <typename L>
inline void Auth::RemoveListener(L* listener) {
  if (!listener) return;
  uint64_t c_id = 0;
  {
    std::lock_guard<std::mutex> lock(detail::ListenerGraphMutex());
    c_id = ForgetListener(listener);
  }
  if (c_id != 0) RemoveCListener(auth_, detail::ListenerKind<L>::kAuthState, c_id);
}

inline void Auth::AddAuthStateListener(AuthStateListener* listener) { AddListener(listener); }
inline void Auth::RemoveAuthStateListener(AuthStateListener* listener) { RemoveListener(listener); }
inline void Auth::AddIdTokenListener(IdTokenListener* listener) { AddListener(listener); }
inline void Auth::RemoveIdTokenListener(IdTokenListener* listener) { RemoveListener(listener); }

template <typename L>
inline void Auth::RemoveFromEveryAuth(L* listener) {
  std::vector<std::pair<hearth_auth*, uint64_t>> removed;
  {
    std::lock_guard<std::mutex> lock(detail::ListenerGraphMutex());
    const std::vector<Auth*> auths = listener->auths_;
    // The C handles, not the Auths: an Auth deleted meanwhile leaves a handle Hearth refuses safely.
    for (Auth* auth : auths) removed.emplace_back(auth->auth_, auth->ForgetListener(listener));
  }
  for (const auto& entry : removed) {
    if (entry.second != 0) RemoveCListener(entry.first, detail::ListenerKind<L>::kAuthState, entry.second);
  }
}

inline AuthStateListener::~AuthStateListener() { Auth::RemoveFromEveryAuth(this); }

inline IdTokenListener::~IdTokenListener() { Auth::RemoveFromEveryAuth(this); }

// ---- phone numbers ----------------------------------------------------------------------------------

inline PhoneAuthProvider::Listener::Listener() : state_(std::make_shared<detail::PhoneListenerState>()) {
  state_->listener = this;
}

inline PhoneAuthProvider::Listener::~Listener() {
  std::unique_lock<std::mutex> lock(state_->mutex);
  state_->listener = nullptr;
  const std::thread::id self = std::this_thread::get_id();
  // No call after this returns; one running on this thread is the listener deleting itself.
  state_->idle.wait(lock, [this, self] { return state_->calls_in_progress == 0 || state_->calling_thread == self; });
}

inline PhoneAuthProvider& PhoneAuthProvider::GetInstance(Auth* auth) {
  if (!auth) {
    // Never destroyed: references to it may be kept anywhere.
    static PhoneAuthProvider* inert = new PhoneAuthProvider(nullptr, nullptr);
    return *inert;
  }
  std::lock_guard<std::mutex> lock(auth->phone_auth_provider_mutex_);
  if (!auth->phone_auth_provider_) auth->phone_auth_provider_ = new PhoneAuthProvider(auth->auth_, auth->core_);
  return *auth->phone_auth_provider_;
}

inline bool PhoneAuthProvider::ToC(const PhoneAuthOptions& options, hearth_phone_auth_options* out,
                                   std::string* problem) {
  hearth_phone_auth_options_init(out);
  if (options.phone_number.find('\0') != std::string::npos) {
    *problem = "The phone number contains a NUL character.";
    return false;
  }
  out->phone_number = options.phone_number.empty() ? nullptr : options.phone_number.c_str();
  out->timeout_ms = static_cast<int64_t>(options.timeout_milliseconds);
  if (options.force_resending_token && options.force_resending_token->is_valid()) {
    out->force_resending_token = options.force_resending_token->c_token();
  }
  out->multi_factor_session = options.multi_factor_session.c_session();
  out->multi_factor_hint = options.multi_factor_hint.c_info();
  return true;
}

inline AuthError PhoneAuthProvider::VerifyPhoneNumber(const PhoneAuthOptions& options, Listener* listener) {
  if (!listener || !auth_) {
    return static_cast<AuthError>(detail::SetLastError(
        kAuthErrorInvalidArgument, listener ? "PhoneAuthProvider::VerifyPhoneNumber: no Auth (GetInstance(nullptr))."
                                            : "PhoneAuthProvider::VerifyPhoneNumber: listener is nullptr."));
  }
  auto call = std::make_unique<detail::PhoneCall>();
  call->state = listener->state_;
  hearth_phone_auth_options c_options;
  std::string problem;
  int rc = HEARTH_ERROR_INVALID_ARGUMENT;
  if (ToC(options, &c_options, &problem)) {
    hearth_phone_listener c_listener;
    std::memset(&c_listener, 0, sizeof c_listener);
    c_listener.struct_size = static_cast<uint32_t>(sizeof c_listener);
    c_listener.on_code_sent = &detail::OnPhoneCodeSent;
    c_listener.on_verification_failed = &detail::OnPhoneVerificationFailed;
    c_listener.on_code_auto_retrieval_timeout = &detail::OnPhoneCodeAutoRetrievalTimeOut;
    c_listener.user_data = call.get();
    c_listener.release = &detail::ReleasePhoneCall;
    rc = hearth_auth_verify_phone_number_with_listener(auth_, &c_options, &c_listener);
    if (rc == HEARTH_ERROR_NONE) {
      call.release();  // Hearth's now, until ReleasePhoneCall
      return kAuthErrorNone;
    }
    problem = detail::CopyString(hearth_last_error_message());
  }
  detail::SetLastError(rc, problem);
  // Refused during the call: the listener hears it on the loop thread, like every other outcome.
  call->failure = rc;
  call->failure_message = problem;
  int posted = HEARTH_ERROR_APP_DESTROYED;
  {
    std::lock_guard<std::mutex> lock(core_->mutex);
    if (core_->app) posted = hearth_app_post(core_->app, &detail::DeliverPhoneFailure, call.get());
  }
  if (posted == HEARTH_ERROR_NONE) call.release();  // DeliverPhoneFailure deletes it
  return static_cast<AuthError>(rc);
}

inline Future<PhoneAuthProvider::VerificationResult> PhoneAuthProvider::VerifyPhoneNumber(
    const PhoneAuthOptions& options) {
  if (!auth_) return Future<VerificationResult>();
  hearth_phone_auth_options c_options;
  std::string problem;
  // Refused options: Hearth fails the operation (no options) and the message says why.
  const bool usable = ToC(options, &c_options, &problem);
  return detail::AdoptFuture<VerificationResult>(hearth_auth_verify_phone_number(auth_, usable ? &c_options : nullptr), core_,
                                                 problem);
}

inline Future<PhoneAuthProvider::VerificationResult> PhoneAuthProvider::VerifyPhoneNumberLastResult() const {
  if (!auth_) return Future<VerificationResult>();
  return detail::AdoptFuture<VerificationResult>(hearth_auth_last_result(auth_, HEARTH_OP_AUTH_VERIFY_PHONE_NUMBER),
                                                 core_);
}

inline Future<User> User::UpdatePhoneNumberCredential(const PhoneAuthCredential& credential) const {
  return detail::AdoptFuture<User>(
      user_ ? hearth_user_update_phone_number_credential(user_, credential.c_credential()) : nullptr, core_);
}
inline Future<User> User::UpdatePhoneNumberCredentialLastResult() const {
  return LastResult<User>(HEARTH_OP_USER_UPDATE_PHONE_NUMBER_CREDENTIAL);
}

// ---- multi-factor authentication -------------------------------------------------------------------

inline MultiFactor User::multi_factor() const { return MultiFactor(*this); }

inline std::vector<MultiFactorInfo> MultiFactor::enrolled_factors() const {
  std::vector<MultiFactorInfo> factors;
  hearth_user* copy = user_.user_ ? hearth_user_retain(user_.user_) : nullptr;
  if (!copy) return factors;
  // The infos are borrowed from this reference, which they keep.
  const std::shared_ptr<hearth_user> owner(copy, &hearth_user_release);
  const size_t count = hearth_user_multi_factor_count(copy);
  for (size_t i = 0; i < count; ++i) {
    const hearth_multi_factor_info* info = hearth_user_multi_factor_at(copy, i);
    if (info) factors.emplace_back(owner, info);
  }
  return factors;
}

inline Future<MultiFactorSession> MultiFactor::GetSession() const {
  return detail::AdoptFuture<MultiFactorSession>(user_.user_ ? hearth_user_multi_factor_get_session(user_.user_) : nullptr,
                                                 user_.core_);
}

inline Future<User> MultiFactor::Enroll(const MultiFactorAssertion& assertion, const char* display_name) const {
  return detail::AdoptFuture<User>(
      user_.user_ ? hearth_user_multi_factor_enroll(user_.user_, assertion.c_assertion(), display_name) : nullptr,
      user_.core_);
}

inline Future<User> MultiFactor::Unenroll(const char* enrollment_id) const {
  return detail::AdoptFuture<User>(
      user_.user_ ? hearth_user_multi_factor_unenroll(user_.user_, enrollment_id) : nullptr, user_.core_);
}

inline Future<User> MultiFactor::Unenroll(const MultiFactorInfo& factor) const {
  const std::string enrollment_id = factor.uid();
  return Unenroll(factor.is_valid() ? enrollment_id.c_str() : nullptr);
}

inline Future<TotpSecret> TotpMultiFactorGenerator::GenerateSecret(const MultiFactorSession& session) {
  if (!session.session_) return Future<TotpSecret>();
  return detail::AdoptFuture<TotpSecret>(hearth_totp_secret_generate(session.session_), session.core_);
}

inline MultiFactorResolver MultiFactorResolver::FromFuture(const FutureBase& failed) {
  MultiFactorResolver resolver;
  // The resolver is borrowed from a C reference of our own, which it keeps.
  std::shared_ptr<hearth_future> owner = detail::RetainFuture(failed.c_future());
  const hearth_multi_factor_resolver* c_resolver = owner ? hearth_future_multi_factor_resolver(owner.get()) : nullptr;
  if (!c_resolver) return resolver;
  resolver.owner_ = std::move(owner);
  resolver.resolver_ = c_resolver;
  resolver.core_ = detail::FutureAccess::Core(failed);
  return resolver;
}

inline std::vector<MultiFactorInfo> MultiFactorResolver::hints() const {
  std::vector<MultiFactorInfo> hints;
  const size_t count = resolver_ ? hearth_multi_factor_resolver_hint_count(resolver_) : 0;
  for (size_t i = 0; i < count; ++i) {
    const hearth_multi_factor_info* info = hearth_multi_factor_resolver_hint_at(resolver_, i);
    if (info) hints.emplace_back(owner_, info);
  }
  return hints;
}

inline MultiFactorSession MultiFactorResolver::session() const {
  if (!resolver_) return MultiFactorSession();
  return MultiFactorSession(owner_, hearth_multi_factor_resolver_session(resolver_), core_);
}

inline Future<AuthResult> MultiFactorResolver::ResolveSignIn(const MultiFactorAssertion& assertion) const {
  if (!resolver_) return Future<AuthResult>();
  return detail::AdoptFuture<AuthResult>(hearth_multi_factor_resolver_resolve_sign_in(resolver_, assertion.c_assertion()),
                                         core_);
}

}  // namespace auth
}  // namespace hearth

#endif  // HEARTH_HPP
