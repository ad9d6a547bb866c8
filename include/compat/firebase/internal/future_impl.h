/*
 * firebase/internal/future_impl.h — Hearth's Firebase C++ SDK compatibility layer (opt-in).
 *
 * The interface behind FutureBase (detail::FutureApiInterface: what an API that runs operations
 * provides), the callback handle type, and the inline definitions of future.h. The API the auth
 * calls use is firebase::ReferenceCountedFutureImpl (hearth_compat/future_api.h), which keeps each
 * operation's state, backed by a Hearth future, until its last reference goes.
 */
#ifndef FIREBASE_APP_SRC_INCLUDE_FIREBASE_INTERNAL_FUTURE_IMPL_H_
#define FIREBASE_APP_SRC_INCLUDE_FIREBASE_INTERNAL_FUTURE_IMPL_H_

#include "firebase/future.h"

#if defined(FIREBASE_USE_MOVE_OPERATORS)
#include <utility>
#endif

namespace firebase {

class ReferenceCountedFutureImpl;

namespace detail {

class CompletionCallbackHandle;

/// What an API running asynchronous operations offers the Futures that refer to them.
class FutureApiInterface {
 public:
  virtual ~FutureApiInterface() {}

  /// Adds and drops a reference to an operation; the last drop frees its state.
  virtual void ReferenceFuture(const FutureHandle& handle) = 0;
  virtual void ReleaseFuture(const FutureHandle& handle) = 0;
  virtual FutureStatus GetFutureStatus(const FutureHandle& handle) const = 0;
  virtual int GetFutureError(const FutureHandle& handle) const = 0;
  virtual const char* GetFutureErrorMessage(const FutureHandle& handle) const = 0;
  virtual const void* GetFutureResult(const FutureHandle& handle) const = 0;
  /// Sets (clear_existing_callbacks) or adds a completion callback; user_data_delete_fn, when given,
  /// frees user_data once the callback has run or been replaced or removed.
  virtual CompletionCallbackHandle AddCompletionCallback(const FutureHandle& handle,
                                                         FutureBase::CompletionCallback callback, void* user_data,
                                                         void (*user_data_delete_fn)(void*),
                                                         bool clear_existing_callbacks) = 0;
  virtual void RemoveCompletionCallback(const FutureHandle& handle, CompletionCallbackHandle callback_handle) = 0;
#if defined(FIREBASE_USE_STD_FUNCTION)
  virtual CompletionCallbackHandle AddCompletionCallbackLambda(const FutureHandle& handle,
                                                               std::function<void(const FutureBase&)> callback,
                                                               bool clear_existing_callbacks) = 0;
#endif
  /// Lets an API that can be torn down before its Futures reach them (a FutureBase registers itself
  /// while it refers to an operation of the API).
  virtual void RegisterFutureForCleanup(FutureBase* future) = 0;
  virtual void UnregisterFutureForCleanup(FutureBase* future) = 0;
};

inline void RegisterForCleanup(FutureApiInterface* api, FutureBase* future) {
  if (api != nullptr) api->RegisterFutureForCleanup(future);
}

inline void UnregisterForCleanup(FutureApiInterface* api, FutureBase* future) {
  if (api != nullptr) api->UnregisterFutureForCleanup(future);
}

/// Names one registered completion callback (for RemoveCompletionCallback). Default: none.
class CompletionCallbackHandle {
 public:
  CompletionCallbackHandle() : callback_(nullptr), user_data_(nullptr), user_data_delete_fn_(nullptr) {}

 private:
  friend class ::firebase::FutureBase;
  friend class ::firebase::ReferenceCountedFutureImpl;
  CompletionCallbackHandle(FutureBase::CompletionCallback callback, void* user_data, void (*user_data_delete_fn)(void*))
      : callback_(callback), user_data_(user_data), user_data_delete_fn_(user_data_delete_fn) {}

  FutureBase::CompletionCallback callback_;
  void* user_data_;
  void (*user_data_delete_fn_)(void*);
};

}  // namespace detail

// ---- FutureHandle -------------------------------------------------------------------------------------

inline FutureHandle::FutureHandle() : id_(0), api_(nullptr) {}

inline FutureHandle::FutureHandle(FutureHandleId id, detail::FutureApiInterface* api) : id_(id), api_(api) {
  if (api_ != nullptr) api_->ReferenceFuture(*this);
}

inline FutureHandle::~FutureHandle() { Detach(); }

inline FutureHandle::FutureHandle(const FutureHandle& rhs) : id_(rhs.id_), api_(rhs.api_) {
  if (api_ != nullptr) api_->ReferenceFuture(*this);
}

inline FutureHandle& FutureHandle::operator=(const FutureHandle& rhs) {
  if (this != &rhs) {
    // Take the new reference first: both may name the same operation.
    if (rhs.api_ != nullptr) rhs.api_->ReferenceFuture(rhs);
    Detach();
    id_ = rhs.id_;
    api_ = rhs.api_;
  }
  return *this;
}

#if defined(FIREBASE_USE_MOVE_OPERATORS)
inline FutureHandle::FutureHandle(FutureHandle&& rhs) noexcept : id_(rhs.id_), api_(rhs.api_) {
  rhs.api_ = nullptr;
}

inline FutureHandle& FutureHandle::operator=(FutureHandle&& rhs) noexcept {
  if (this != &rhs) {
    Detach();
    id_ = rhs.id_;
    api_ = rhs.api_;
    rhs.api_ = nullptr;
  }
  return *this;
}
#endif

inline void FutureHandle::Detach() {
  detail::FutureApiInterface* api = api_;
  api_ = nullptr;
  if (api != nullptr) api->ReleaseFuture(*this);
}

// ---- FutureBase ---------------------------------------------------------------------------------------

inline FutureBase::FutureBase() : mutex_(Mutex::kModeNonRecursive), api_(nullptr), handle_(0) {}

inline FutureBase::FutureBase(detail::FutureApiInterface* api, const FutureHandle& handle)
    : mutex_(Mutex::kModeNonRecursive), api_(api), handle_(handle.id()) {
  if (api_ != nullptr) {
    api_->ReferenceFuture(handle_);
    detail::RegisterForCleanup(api_, this);
  }
}

inline FutureBase::~FutureBase() { Release(); }

inline FutureBase::FutureBase(const FutureBase& rhs) : mutex_(Mutex::kModeNonRecursive), api_(nullptr), handle_(0) {
  *this = rhs;
}

inline FutureBase& FutureBase::operator=(const FutureBase& rhs) {
  if (this == &rhs) return *this;
  detail::FutureApiInterface* api;
  FutureHandleId id;
  {
    MutexLock lock(rhs.mutex_);
    api = rhs.api_;
    id = rhs.handle_.id();
    // Referenced while rhs's lock keeps rhs from releasing it.
    if (api != nullptr) api->ReferenceFuture(FutureHandle(id));
  }
  Release();
  MutexLock lock(mutex_);
  api_ = api;
  handle_ = FutureHandle(id);
  detail::RegisterForCleanup(api_, this);
  return *this;
}

#if defined(FIREBASE_USE_MOVE_OPERATORS)
inline FutureBase::FutureBase(FutureBase&& rhs) noexcept
    : mutex_(Mutex::kModeNonRecursive), api_(nullptr), handle_(0) {
  *this = std::move(rhs);
}

inline FutureBase& FutureBase::operator=(FutureBase&& rhs) noexcept {
  if (this == &rhs) return *this;
  detail::FutureApiInterface* api;
  FutureHandleId id;
  {
    MutexLock lock(rhs.mutex_);
    detail::UnregisterForCleanup(rhs.api_, &rhs);
    api = rhs.api_;
    id = rhs.handle_.id();
    rhs.api_ = nullptr;
  }
  Release();
  MutexLock lock(mutex_);
  api_ = api;
  handle_ = FutureHandle(id);
  detail::RegisterForCleanup(api_, this);
  return *this;
}
#endif

inline void FutureBase::Release() {
  detail::FutureApiInterface* api;
  FutureHandleId id;
  {
    MutexLock lock(mutex_);
    api = api_;
    id = handle_.id();
    if (api == nullptr) return;
    detail::UnregisterForCleanup(api, this);
    api_ = nullptr;
  }
  // Outside the lock: dropping the last reference frees the operation's state, whose destructors
  // must not run under this Future's lock.
  api->ReleaseFuture(FutureHandle(id));
}

inline FutureStatus FutureBase::status() const {
  MutexLock lock(mutex_);
  return api_ == nullptr ? kFutureStatusInvalid : api_->GetFutureStatus(handle_);
}

inline int FutureBase::error() const {
  MutexLock lock(mutex_);
  return api_ == nullptr ? -1 : api_->GetFutureError(handle_);
}

inline const char* FutureBase::error_message() const {
  MutexLock lock(mutex_);
  return api_ == nullptr ? nullptr : api_->GetFutureErrorMessage(handle_);
}

inline const void* FutureBase::result_void() const {
  MutexLock lock(mutex_);
  return api_ == nullptr ? nullptr : api_->GetFutureResult(handle_);
}

inline void FutureBase::OnCompletion(CompletionCallback callback, void* user_data) const {
  // The API is called without this Future's lock: a callback that runs at once may use this Future.
  FutureBase self(*this);
  if (self.api_ != nullptr) {
    self.api_->AddCompletionCallback(self.handle_, callback, user_data, nullptr, /*clear_existing_callbacks=*/true);
  }
}

#if defined(FIREBASE_USE_STD_FUNCTION)
inline void FutureBase::OnCompletion(std::function<void(const FutureBase&)> callback) const {
  FutureBase self(*this);
  if (self.api_ != nullptr) {
    self.api_->AddCompletionCallbackLambda(self.handle_, std::move(callback), /*clear_existing_callbacks=*/true);
  }
}
#endif

// ---- Future<T> ----------------------------------------------------------------------------------------

namespace detail {
// A typed callback with its user data, carried through the untyped slot.
template <typename ResultType>
struct TypedCallback {
  typename Future<ResultType>::TypedCompletionCallback callback;
  void* user_data;

  static void Invoke(const FutureBase& base, void* data) {
    TypedCallback* typed = static_cast<TypedCallback*>(data);
    Future<ResultType> future;
    static_cast<FutureBase&>(future) = base;
    typed->callback(future, typed->user_data);
  }
  static void Delete(void* data) { delete static_cast<TypedCallback*>(data); }
};
}  // namespace detail

template <typename ResultType>
void Future<ResultType>::OnCompletion(TypedCompletionCallback callback, void* user_data) const {
  Future<ResultType> self(*this);
  if (self.api_ == nullptr) return;
  auto* typed = new detail::TypedCallback<ResultType>{callback, user_data};
  self.api_->AddCompletionCallback(self.handle_, &detail::TypedCallback<ResultType>::Invoke, typed,
                                   &detail::TypedCallback<ResultType>::Delete, /*clear_existing_callbacks=*/true);
}

#if defined(FIREBASE_USE_STD_FUNCTION)
template <typename ResultType>
void Future<ResultType>::OnCompletion(std::function<void(const Future<ResultType>&)> callback) const {
  FutureBase::OnCompletion(std::function<void(const FutureBase&)>([callback](const FutureBase& base) {
    Future<ResultType> future;
    static_cast<FutureBase&>(future) = base;
    if (callback) callback(future);
  }));
}
#endif

}  // namespace firebase

#endif  // FIREBASE_APP_SRC_INCLUDE_FIREBASE_INTERNAL_FUTURE_IMPL_H_
