/*
 * firebase/future.h — Hearth's Firebase C++ SDK compatibility layer (opt-in).
 *
 * firebase::Future<T>, the result of an asynchronous operation, with the Firebase C++ SDK's API:
 * status() (kFutureStatusPending until the operation ends, kFutureStatusComplete after,
 * kFutureStatusInvalid for a default-constructed or released Future), error() (0 for success; an
 * auth::AuthError value; -1 for an invalid Future), error_message(), result(), and one completion
 * callback per operation, set with OnCompletion (a later call replaces an earlier one; a function
 * pointer with user data, or a std::function).
 *
 * Copies of a Future, and the Future an XxxLastResult() call returns for the same call, are the same
 * operation: they compare equal and share the callback slot. The result stays readable while any of
 * them (or the LastResult slot) exists, even after the App is deleted.
 *
 * Where the callback runs (see docs/porting-from-firebase-cpp.md): for operations that reach the
 * network, on the App's Hearth loop thread, after the operation completes and never inside the call
 * that set it (a callback set on a complete future runs on the next loop turn); the Firebase SDK runs
 * it on its worker thread, or at once when the future is already complete. Futures that complete
 * without reaching the network (GameCenterAuthProvider::GetCredential, ModuleInitializer, arguments
 * refused before any request) complete before they are returned; a callback set on them runs at
 * once, on the calling thread, as in the Firebase SDK.
 */
#ifndef FIREBASE_APP_SRC_INCLUDE_FIREBASE_FUTURE_H_
#define FIREBASE_APP_SRC_INCLUDE_FIREBASE_FUTURE_H_

#include <stddef.h>
#include <stdint.h>

#include <utility>

#include "firebase/internal/common.h"
#include "firebase/internal/mutex.h"

#ifdef FIREBASE_USE_STD_FUNCTION
#include <functional>
#endif

namespace firebase {

namespace detail {
class FutureApiInterface;
class CompletionCallbackHandle;
}  // namespace detail

/// Where an operation is.
enum FutureStatus {
  kFutureStatusComplete,  ///< finished: error() and result() are final
  kFutureStatusPending,   ///< still running
  kFutureStatusInvalid    ///< no operation: default-constructed, released, or moved from
};

/// Identifies one operation within the API that runs it (0: none).
typedef uintptr_t FutureHandleId;

/// An operation's id together with the API that runs it. A handle that names its API holds a
/// reference to the operation (copies add one, destruction drops one); Detach gives that reference up.
class FutureHandle {
 public:
  FutureHandle();
  explicit FutureHandle(FutureHandleId id) : FutureHandle(id, nullptr) {}
  FutureHandle(FutureHandleId id, detail::FutureApiInterface* api);
  ~FutureHandle();

  FutureHandle(const FutureHandle& rhs);
  FutureHandle& operator=(const FutureHandle& rhs);
#if defined(FIREBASE_USE_MOVE_OPERATORS)
  FutureHandle(FutureHandle&& rhs) noexcept;
  FutureHandle& operator=(FutureHandle&& rhs) noexcept;
#endif

  /// Handles are equal when they name the same operation (the API does not take part).
  bool operator!=(const FutureHandle& rhs) const { return !(*this == rhs); }
  bool operator==(const FutureHandle& rhs) const { return id() == rhs.id(); }

  FutureHandleId id() const { return id_; }
  detail::FutureApiInterface* api() const { return api_; }

  /// Drops this handle's reference; the id stays, for looking the operation up.
  void Detach();
  /// Forgets the API without dropping a reference (its operations are being torn down).
  void Cleanup() { api_ = nullptr; }

 private:
  FutureHandleId id_;
  detail::FutureApiInterface* api_;
};

/// The type-independent part of a Future: status, error, message, callbacks. Thread-safe.
class FutureBase {
 public:
  /// A completion callback: the completed Future and the user data given with it.
  typedef void (*CompletionCallback)(const FutureBase& result_data, void* user_data);

  FutureBase();
  /// A Future of `api`'s operation `handle` (adds a reference).
  FutureBase(detail::FutureApiInterface* api, const FutureHandle& handle);
  ~FutureBase();

  FutureBase(const FutureBase& rhs);
  FutureBase& operator=(const FutureBase& rhs);
#if defined(FIREBASE_USE_MOVE_OPERATORS)
  FutureBase(FutureBase&& rhs) noexcept;
  FutureBase& operator=(FutureBase&& rhs) noexcept;
#endif

  /// Lets go of the operation: this Future becomes invalid. The operation itself goes on, and a
  /// callback already set still runs while another Future (or the LastResult slot) refers to it.
  void Release();

  FutureStatus status() const;
  /// The error code once complete (0: success); -1 for an invalid Future.
  int error() const;
  /// The error's message once complete ("" on success); nullptr for an invalid Future. Valid as long
  /// as the operation is referred to.
  const char* error_message() const;
  /// The result once complete (also after a failure: a default result), else nullptr.
  const void* result_void() const;

  /// Sets the operation's completion callback (replacing an earlier one). Nothing for an invalid
  /// Future. See the top of this file for the thread it runs on.
  void OnCompletion(CompletionCallback callback, void* user_data) const;
#if defined(FIREBASE_USE_STD_FUNCTION)
  void OnCompletion(std::function<void(const FutureBase&)> callback) const;
#endif

  /// Equal when both refer to the same operation, or both to none.
  bool operator==(const FutureBase& rhs) const {
    MutexLock lock(mutex_);
    return api_ == rhs.api_ && handle_ == rhs.handle_;
  }
  bool operator!=(const FutureBase& rhs) const { return !operator==(rhs); }

 protected:
  mutable Mutex mutex_;
  detail::FutureApiInterface* api_;
  FutureHandle handle_;
};

/// The result of an asynchronous operation returning ResultType (void for none).
template <typename ResultType>
class Future : public FutureBase {
 public:
  typedef void (*TypedCompletionCallback)(const Future<ResultType>& result_data, void* user_data);

  Future() {}
  Future(detail::FutureApiInterface* api, const FutureHandle& handle) : FutureBase(api, handle) {}

  /// The result once complete, else nullptr. Valid as long as the operation is referred to.
  const ResultType* result() const { return static_cast<const ResultType*>(result_void()); }

  inline void OnCompletion(TypedCompletionCallback callback, void* user_data) const;
#if defined(FIREBASE_USE_STD_FUNCTION)
  inline void OnCompletion(std::function<void(const Future<ResultType>&)> callback) const;
#endif
};

}  // namespace firebase

#include "firebase/internal/future_impl.h"

#endif  // FIREBASE_APP_SRC_INCLUDE_FIREBASE_FUTURE_H_
