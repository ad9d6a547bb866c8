/*
 * firebase/internal/mutex.h — Hearth's Firebase C++ SDK compatibility layer (opt-in).
 *
 * firebase::Mutex (recursive unless asked otherwise) and its scoped lock, firebase::MutexLock, as the
 * Firebase C++ SDK declares them. Futures use them; applications sometimes do too.
 */
#ifndef FIREBASE_APP_SRC_INCLUDE_FIREBASE_INTERNAL_MUTEX_H_
#define FIREBASE_APP_SRC_INCLUDE_FIREBASE_INTERNAL_MUTEX_H_

#include "firebase/internal/platform.h"

#if FIREBASE_PLATFORM_WINDOWS
#include <windows.h>
#else
#include <pthread.h>
#endif

namespace firebase {

/// A mutual exclusion lock. Acquire blocks until the lock is free; a recursive mutex may be acquired
/// again by the thread holding it (and must be released as many times).
class Mutex {
 public:
  /// How the mutex behaves when its owner acquires it again.
  enum Mode {
    kModeNonRecursive = (0 << 0),  ///< a second Acquire by the owner deadlocks
    kModeRecursive = (1 << 0),     ///< the owner may acquire it again
  };

  Mutex() : Mutex(kModeRecursive) {}
  explicit Mutex(Mode mode) {
#if FIREBASE_PLATFORM_WINDOWS
    mode_ = mode;
    synchronization_object_ = mode == kModeRecursive ? CreateMutex(nullptr, FALSE, nullptr)
                                                     : CreateSemaphore(nullptr, 1, 1, nullptr);
#else
    pthread_mutexattr_t attributes;
    pthread_mutexattr_init(&attributes);
    pthread_mutexattr_settype(&attributes, mode == kModeRecursive ? PTHREAD_MUTEX_RECURSIVE : PTHREAD_MUTEX_NORMAL);
    pthread_mutex_init(&mutex_, &attributes);
    pthread_mutexattr_destroy(&attributes);
#endif
  }
  ~Mutex() {
#if FIREBASE_PLATFORM_WINDOWS
    CloseHandle(synchronization_object_);
#else
    pthread_mutex_destroy(&mutex_);
#endif
  }

  /// Blocks until this thread holds the lock.
  void Acquire() {
#if FIREBASE_PLATFORM_WINDOWS
    WaitForSingleObject(synchronization_object_, INFINITE);
#else
    pthread_mutex_lock(&mutex_);
#endif
  }
  /// Gives up one Acquire.
  void Release() {
#if FIREBASE_PLATFORM_WINDOWS
    if (mode_ == kModeRecursive) {
      ReleaseMutex(synchronization_object_);
    } else {
      ReleaseSemaphore(synchronization_object_, 1, nullptr);
    }
#else
    pthread_mutex_unlock(&mutex_);
#endif
  }

  /// The operating system's lock object.
#if FIREBASE_PLATFORM_WINDOWS
  HANDLE* native_handle() { return &synchronization_object_; }
#else
  pthread_mutex_t* native_handle() { return &mutex_; }
#endif

 private:
  Mutex(const Mutex&) = delete;
  Mutex& operator=(const Mutex&) = delete;

#if FIREBASE_PLATFORM_WINDOWS
  HANDLE synchronization_object_;
  Mode mode_;
#else
  pthread_mutex_t mutex_;
#endif
};

/// Holds a Mutex from construction to destruction.
class MutexLock {
 public:
  explicit MutexLock(Mutex& mutex) : mutex_(&mutex) { mutex_->Acquire(); }
  ~MutexLock() { mutex_->Release(); }

 private:
  MutexLock(const MutexLock&) = delete;
  MutexLock& operator=(const MutexLock&) = delete;
  Mutex* mutex_;
};

}  // namespace firebase

#endif  // FIREBASE_APP_SRC_INCLUDE_FIREBASE_INTERNAL_MUTEX_H_
