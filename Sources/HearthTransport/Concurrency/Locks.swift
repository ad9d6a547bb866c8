#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value behind a mutex: the session, the operation tracker, handles' small state. Shared by
/// reference (copies of a `Locked` are the same lock).
///
/// pthread's mutex, not Synchronization's `Mutex`: on Linux `Mutex` hands a contended lock over in the
/// kernel (a priority-inheritance futex), which ThreadSanitizer cannot see, so `make test-tsan-c` would
/// report races that are not.
///
/// The lock types are `public` with `@inlinable` `withLock`, unlike the rest of the package's `package`
/// declarations: the layers above call `withLock` on every operation, and outside library evolution Swift
/// serializes the bodies of public `@inlinable` declarations only, so a `package` one would run
/// unspecialized there (through generic metadata, its closure not inlined). No product exports them.
public struct Locked<Value>: @unchecked Sendable {
    @usableFromInline let buffer: MutexBuffer<Value>

    // Inlinable too: unspecialized, every lock made (one per future) looked up its buffer class's
    // generic metadata at run time (bench/FINDINGS.md).
    @inlinable
    public init(_ value: Value) {
        buffer = .make(value, recursive: false)
    }

    @inlinable @inline(__always)
    public func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        try buffer.withUnsafeMutablePointers { value, mutex in
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body(&value.pointee)
        }
    }

    package var current: Value { withLock { $0 } }
}

/// A mutex with a condition variable, for the few places where a thread must block until another one
/// changes something: waiting on a future, the log sink's handover, the loop thread's start and stop,
/// loop threads at exit. One allocation for both: every future has one.
public struct ConditionLock: @unchecked Sendable {
    @usableFromInline let buffer = ConditionBuffer.make()

    package init() {}

    @inlinable
    public func lock() { buffer.withUnsafeMutablePointerToElements { _ = pthread_mutex_lock($0) } }
    @inlinable
    public func unlock() { buffer.withUnsafeMutablePointerToElements { _ = pthread_mutex_unlock($0) } }

    @inlinable @inline(__always)
    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }

    /// Wakes every waiter; call with the lock held.
    package func broadcast() { buffer.withUnsafeMutablePointerToHeader { _ = pthread_cond_broadcast($0) } }

    /// Makes `change` with the lock held and wakes every waiter.
    package func broadcast(after change: () -> Void) {
        withLock {
            change()
            broadcast()
        }
    }

    /// Waits with the lock held until `done()`, or `timeoutMs` (on the monotonic clock; negative: no
    /// limit) have passed; whether `done()` became true.
    package func wait(until done: () -> Bool, timeoutMs: Int64) -> Bool {
        buffer.withUnsafeMutablePointers { cond, mutex in
            if timeoutMs < 0 {
                while !done() { pthread_cond_wait(cond, mutex) }
                return true
            }
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let deadlineNs = Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec) + timeoutMs * 1_000_000
            var deadline = timespec(tv_sec: Int(deadlineNs / 1_000_000_000), tv_nsec: Int(deadlineNs % 1_000_000_000))
            while !done() {
                if pthread_cond_timedwait(cond, mutex, &deadline) == ETIMEDOUT { return done() }
            }
            return true
        }
    }

    /// Takes the lock and waits, without limit, until `done()`.
    package func wait(until done: () -> Bool) {
        withLock { _ = wait(until: done, timeoutMs: -1) }
    }
}

/// A recursive mutex: held while host code runs inside a Hearth callback, so that a thread that
/// releases a future, removes a listener or destroys the app can wait for a running callback to end
/// (and then be sure no further one starts), while the callback itself may call those functions too.
public struct RecursiveLock: @unchecked Sendable {
    @usableFromInline let buffer = MutexBuffer<Void>.make((), recursive: true)

    package init() {}

    @inlinable @inline(__always)
    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        try buffer.withUnsafeMutablePointerToElements { mutex in
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body()
        }
    }
}

// A lock's value and pthread objects live in one allocation: pthread objects must not move, and a
// `ManagedBuffer`'s header and element keep their addresses for the object's lifetime. Its subclasses
// may not add stored properties (the element is laid out right after the header), hence one subclass
// per kind of lock, each tearing down its own pthread objects.

/// A value (the header) and its mutex (the element).
@usableFromInline final class MutexBuffer<Value>: ManagedBuffer<Value, pthread_mutex_t> {
    @inlinable
    static func make(_ value: Value, recursive: Bool) -> MutexBuffer {
        let buffer = unsafeDowncast(create(minimumCapacity: 1) { _ in value }, to: MutexBuffer.self)
        buffer.withUnsafeMutablePointerToElements { mutex in
            mutex.initialize(to: pthread_mutex_t())
            guard recursive else {
                pthread_mutex_init(mutex, nil)
                return
            }
            var attr = pthread_mutexattr_t()
            pthread_mutexattr_init(&attr)
            pthread_mutexattr_settype(&attr, Int32(PTHREAD_MUTEX_RECURSIVE))
            pthread_mutex_init(mutex, &attr)
            pthread_mutexattr_destroy(&attr)
        }
        return buffer
    }

    deinit {
        withUnsafeMutablePointerToElements { mutex in
            pthread_mutex_destroy(mutex)
            mutex.deinitialize(count: 1)
        }
    }
}

/// A condition variable (the header) and its mutex (the element).
@usableFromInline final class ConditionBuffer: ManagedBuffer<pthread_cond_t, pthread_mutex_t> {
    static func make() -> ConditionBuffer {
        let buffer = unsafeDowncast(create(minimumCapacity: 1) { _ in pthread_cond_t() }, to: ConditionBuffer.self)
        buffer.withUnsafeMutablePointers { cond, mutex in
            mutex.initialize(to: pthread_mutex_t())
            pthread_mutex_init(mutex, nil)
            var attr = pthread_condattr_t()
            pthread_condattr_init(&attr)
            // Waits are bounded by a relative timeout: measured on the monotonic clock, a wall-clock jump
            // neither cuts a wait short nor stretches it.
            pthread_condattr_setclock(&attr, CLOCK_MONOTONIC)
            pthread_cond_init(cond, &attr)
            pthread_condattr_destroy(&attr)
        }
        return buffer
    }

    deinit {
        withUnsafeMutablePointers { cond, mutex in
            pthread_cond_destroy(cond)
            pthread_mutex_destroy(mutex)
            mutex.deinitialize(count: 1)
        }
    }
}
