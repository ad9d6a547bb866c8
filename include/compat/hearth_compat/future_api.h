/*
 * hearth_compat/future_api.h — part of Hearth's Firebase C++ SDK compatibility layer; not for direct use.
 *
 * firebase::ReferenceCountedFutureImpl: the one API every compat Future refers to. It keeps each
 * operation's state by id, with a reference count (Futures, FutureHandles and LastResult slots) and
 * the operation's completion callbacks; the state is dropped with the last reference, and with it any
 * callback that has not run (as in the Firebase SDK). An operation is either backed by a Hearth future
 * (hearth.hpp), whose result is converted to the Firebase type once, on first read, or complete from
 * the start (values the layer decides without a request).
 */
#ifndef HEARTH_COMPAT_FUTURE_API_H
#define HEARTH_COMPAT_FUTURE_API_H

#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "firebase/future.h"
#include "hearth.hpp"

namespace hearth {
namespace compat {
namespace detail {

// One operation: what its Futures read, and how the API learns that it is complete.
class OperationState {
 public:
  virtual ~OperationState() = default;
  virtual firebase::FutureStatus Status() const = 0;
  virtual int Error() const = 0;
  virtual const char* ErrorMessage() const = 0;
  virtual const void* Result() const = 0;
  // Calls `complete` once the operation is complete: at once (on this thread) when it completed
  // before it was handed out, else on the Hearth loop thread, never inside this call. A later call
  // replaces a request that has not run yet.
  virtual void Notify(std::function<void()> complete) = 0;
};

// An operation the layer completed itself, without a request.
template <typename T>
class CompletedState final : public OperationState {
 public:
  CompletedState(int error, std::string message, T result)
      : error_(error), message_(std::move(message)), result_(std::move(result)) {}
  firebase::FutureStatus Status() const override { return firebase::kFutureStatusComplete; }
  int Error() const override { return error_; }
  const char* ErrorMessage() const override { return message_.c_str(); }
  const void* Result() const override { return &result_; }
  void Notify(std::function<void()> complete) override {
    if (complete) complete();
  }

 private:
  const int error_;
  const std::string message_;
  const T result_;
};

template <>
class CompletedState<void> final : public OperationState {
 public:
  CompletedState(int error, std::string message) : error_(error), message_(std::move(message)) {}
  firebase::FutureStatus Status() const override { return firebase::kFutureStatusComplete; }
  int Error() const override { return error_; }
  const char* ErrorMessage() const override { return message_.c_str(); }
  const void* Result() const override { return nullptr; }
  void Notify(std::function<void()> complete) override {
    if (complete) complete();
  }

 private:
  const int error_;
  const std::string message_;
};

// An operation Hearth runs: a hearth::Future<H>, read as a Firebase T.
template <typename T, typename H>
class HearthState final : public OperationState {
 public:
  using Convert = std::function<T(const hearth::Future<H>&)>;
  HearthState(hearth::Future<H> future, Convert convert) : future_(std::move(future)), convert_(std::move(convert)) {}

  firebase::FutureStatus Status() const override { return static_cast<firebase::FutureStatus>(future_.status()); }
  int Error() const override { return future_.error(); }
  const char* ErrorMessage() const override { return future_.error_message(); }
  const void* Result() const override {
    if (future_.status() != hearth::kFutureStatusComplete) return nullptr;
    std::lock_guard<std::mutex> lock(mutex_);
    if (!result_) result_.reset(new T(convert_(future_)));
    return result_.get();
  }
  void Notify(std::function<void()> complete) override {
    future_.OnCompletion([complete](const hearth::Future<H>&) {
      if (complete) complete();
    });
  }

 private:
  const hearth::Future<H> future_;
  const Convert convert_;
  mutable std::mutex mutex_;
  mutable std::unique_ptr<T> result_;
};

template <>
class HearthState<void, void> final : public OperationState {
 public:
  explicit HearthState(hearth::Future<void> future) : future_(std::move(future)) {}
  firebase::FutureStatus Status() const override { return static_cast<firebase::FutureStatus>(future_.status()); }
  int Error() const override { return future_.error(); }
  const char* ErrorMessage() const override { return future_.error_message(); }
  const void* Result() const override { return nullptr; }
  void Notify(std::function<void()> complete) override {
    future_.OnCompletion([complete](const hearth::Future<void>&) {
      if (complete) complete();
    });
  }

 private:
  const hearth::Future<void> future_;
};

// Runs a callback's user-data deleter when the registration goes (after running, replaced, dropped).
class UserDataOwner {
 public:
  UserDataOwner(void* user_data, void (*deleter)(void*)) : user_data_(user_data), deleter_(deleter) {}
  ~UserDataOwner() {
    if (deleter_) deleter_(user_data_);
  }
  UserDataOwner(const UserDataOwner&) = delete;
  UserDataOwner& operator=(const UserDataOwner&) = delete;

 private:
  void* user_data_;
  void (*deleter_)(void*);
};

}  // namespace detail
}  // namespace compat
}  // namespace hearth

namespace firebase {

/// The API behind every Future of the compatibility layer (see the top of this file). Thread-safe;
/// never destroyed, so Futures may outlive any App or Auth.
class ReferenceCountedFutureImpl final : public detail::FutureApiInterface {
 public:
  static ReferenceCountedFutureImpl& Instance() {
    static ReferenceCountedFutureImpl* api = new ReferenceCountedFutureImpl();
    return *api;
  }

  /// A new operation, and the first Future referring to it.
  template <typename T>
  Future<T> Adopt(std::shared_ptr<hearth::compat::detail::OperationState> state) {
    FutureHandleId id;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      id = next_id_++;
      entries_[id].state = std::move(state);
    }
    // The entry exists with no reference until the Future takes one.
    return Future<T>(this, FutureHandle(id));
  }

  void ReferenceFuture(const FutureHandle& handle) override {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = entries_.find(handle.id());
    if (it != entries_.end()) ++it->second.references;
  }

  void ReleaseFuture(const FutureHandle& handle) override {
    Entry doomed;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      auto it = entries_.find(handle.id());
      if (it == entries_.end() || --it->second.references > 0) return;
      doomed = std::move(it->second);
      entries_.erase(it);
    }
    // The state and the callbacks that never ran are destroyed here, outside the lock.
  }

  FutureStatus GetFutureStatus(const FutureHandle& handle) const override {
    auto state = Find(handle);
    return state ? state->Status() : kFutureStatusInvalid;
  }
  int GetFutureError(const FutureHandle& handle) const override {
    auto state = Find(handle);
    return state ? state->Error() : -1;
  }
  const char* GetFutureErrorMessage(const FutureHandle& handle) const override {
    // The state lives as long as the caller's reference, and the message with it.
    auto state = Find(handle);
    return state ? state->ErrorMessage() : nullptr;
  }
  const void* GetFutureResult(const FutureHandle& handle) const override {
    auto state = Find(handle);
    return state ? state->Result() : nullptr;
  }

  detail::CompletionCallbackHandle AddCompletionCallback(const FutureHandle& handle, FutureBase::CompletionCallback callback,
                                                         void* user_data, void (*user_data_delete_fn)(void*),
                                                         bool clear_existing_callbacks) override {
    auto owner = std::make_shared<hearth::compat::detail::UserDataOwner>(user_data, user_data_delete_fn);
    if (!callback) return detail::CompletionCallbackHandle();
    Register(handle, Callback{0, callback, user_data, user_data_delete_fn,
                              [callback, user_data, owner](const FutureBase& future) { callback(future, user_data); }},
             clear_existing_callbacks);
    return detail::CompletionCallbackHandle(callback, user_data, user_data_delete_fn);
  }

  void RemoveCompletionCallback(const FutureHandle& handle, detail::CompletionCallbackHandle callback_handle) override {
    std::vector<Callback> removed;
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = entries_.find(handle.id());
    if (it == entries_.end()) return;
    auto& callbacks = it->second.callbacks;
    for (auto c = callbacks.begin(); c != callbacks.end();) {
      const bool same = callback_handle.callback_
                            ? (c->callback == callback_handle.callback_ && c->user_data == callback_handle.user_data_ &&
                               c->user_data_delete_fn == callback_handle.user_data_delete_fn_)
                            : c->serial == reinterpret_cast<uintptr_t>(callback_handle.user_data_);
      if (same) {
        removed.push_back(std::move(*c));
        c = callbacks.erase(c);
      } else {
        ++c;
      }
    }
  }

  detail::CompletionCallbackHandle AddCompletionCallbackLambda(const FutureHandle& handle,
                                                               std::function<void(const FutureBase&)> callback,
                                                               bool clear_existing_callbacks) override {
    if (!callback) return detail::CompletionCallbackHandle();
    const uintptr_t serial =
        Register(handle, Callback{0, nullptr, nullptr, nullptr, std::move(callback)}, clear_existing_callbacks);
    return detail::CompletionCallbackHandle(nullptr, reinterpret_cast<void*>(serial), nullptr);
  }

  // Operations live until their last reference goes, whatever happens to the App or Auth, so no
  // Future ever needs to be invalidated from here.
  void RegisterFutureForCleanup(FutureBase*) override {}
  void UnregisterFutureForCleanup(FutureBase*) override {}

 private:
  struct Callback {
    uintptr_t serial;
    // What RemoveCompletionCallback matches a handle against (nullptr for std::function callbacks).
    FutureBase::CompletionCallback callback;
    void* user_data;
    void (*user_data_delete_fn)(void*);
    std::function<void(const FutureBase&)> run;
  };
  struct Entry {
    int references = 0;
    std::shared_ptr<hearth::compat::detail::OperationState> state;
    std::vector<Callback> callbacks;
  };

  ReferenceCountedFutureImpl() = default;

  std::shared_ptr<hearth::compat::detail::OperationState> Find(const FutureHandle& handle) const {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = entries_.find(handle.id());
    return it == entries_.end() ? nullptr : it->second.state;
  }

  uintptr_t Register(const FutureHandle& handle, Callback callback, bool replace) {
    std::vector<Callback> replaced;
    std::shared_ptr<hearth::compat::detail::OperationState> state;
    const FutureHandleId id = handle.id();
    uintptr_t serial;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      auto it = entries_.find(id);
      if (it == entries_.end()) return 0;
      if (replace) replaced.swap(it->second.callbacks);
      serial = callback.serial = next_serial_++;
      it->second.callbacks.push_back(std::move(callback));
      state = it->second.state;
    }
    replaced.clear();  // their user data goes outside the lock
    // (Re)arms the notification; it runs whatever callbacks are registered when the operation is
    // complete, including this one when it already is.
    state->Notify([this, id] { RunCallbacks(id); });
    return serial;
  }

  void RunCallbacks(FutureHandleId id) {
    std::vector<Callback> due;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      auto it = entries_.find(id);
      if (it == entries_.end() || it->second.state->Status() != kFutureStatusComplete) return;
      due.swap(it->second.callbacks);
      ++it->second.references;  // pinned while the Future below is made
    }
    Future<void> future(this, FutureHandle(id));
    ReleaseFuture(FutureHandle(id));
    std::exception_ptr first_failure;
    for (Callback& callback : due) {
      try {
        callback.run(future);
      } catch (...) {
        if (!first_failure) first_failure = std::current_exception();
      }
    }
    due.clear();
    if (first_failure) std::rethrow_exception(first_failure);
  }

  mutable std::mutex mutex_;
  std::unordered_map<FutureHandleId, Entry> entries_;
  FutureHandleId next_id_ = 1;
  uintptr_t next_serial_ = 1;
};

}  // namespace firebase

namespace hearth {
namespace compat {
namespace detail {

// A Future of an operation the layer completed itself.
template <typename T>
firebase::Future<T> CompletedFuture(int error, const std::string& message, T result) {
  return firebase::ReferenceCountedFutureImpl::Instance().Adopt<T>(
      std::make_shared<CompletedState<T>>(error, message, std::move(result)));
}

inline firebase::Future<void> CompletedVoidFuture(int error, const std::string& message) {
  return firebase::ReferenceCountedFutureImpl::Instance().Adopt<void>(std::make_shared<CompletedState<void>>(error, message));
}

// A Future of a Hearth operation (an invalid Future for an invalid Hearth future).
template <typename T, typename H, typename Convert>
firebase::Future<T> FromHearth(hearth::Future<H> future, Convert convert) {
  if (future.status() == hearth::kFutureStatusInvalid) return firebase::Future<T>();
  return firebase::ReferenceCountedFutureImpl::Instance().Adopt<T>(
      std::make_shared<HearthState<T, H>>(std::move(future), typename HearthState<T, H>::Convert(std::move(convert))));
}

inline firebase::Future<void> FromHearth(hearth::Future<void> future) {
  if (future.status() == hearth::kFutureStatusInvalid) return firebase::Future<void>();
  return firebase::ReferenceCountedFutureImpl::Instance().Adopt<void>(
      std::make_shared<HearthState<void, void>>(std::move(future)));
}

}  // namespace detail
}  // namespace compat
}  // namespace hearth

#endif  // HEARTH_COMPAT_FUTURE_API_H
