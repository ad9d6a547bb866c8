#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// A lock's value and pthread objects live in one allocation: pthread objects must not move, and a
// `ManagedBuffer`'s header and tail element keep their addresses for the object's lifetime. (Each
// lock used to be an object plus one allocation per pthread object: with the locks of every future
// and result handle, ~8 of the ~85 allocations of a sign-in.) `ManagedBuffer` subclasses must not
// add stored properties (the tail element is laid out right after the header), hence one subclass
// per kind of lock, each tearing down its own pthread objects.

/// A value (the header) and its mutex (the element).
final class MutexBuffer<Value>: ManagedBuffer<Value, pthread_mutex_t> {
    static func make(_ value: Value, recursive: Bool) -> MutexBuffer {
        let buffer = unsafeDowncast(create(minimumCapacity: 1) { _ in value }, to: MutexBuffer.self)
        buffer.withUnsafeMutablePointerToElements { initMutex($0, recursive: recursive) }
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
final class ConditionBuffer: ManagedBuffer<pthread_cond_t, pthread_mutex_t> {
    static func make() -> ConditionBuffer {
        let buffer = unsafeDowncast(create(minimumCapacity: 1) { _ in pthread_cond_t() }, to: ConditionBuffer.self)
        buffer.withUnsafeMutablePointers { cond, mutex in
            initMutex(mutex, recursive: false)
            var attr = pthread_condattr_t()
            pthread_condattr_init(&attr)
            // Waits are bounded by a relative timeout: measure it on the monotonic clock so a
            // wall-clock jump neither cuts a wait short nor stretches it.
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

private func initMutex(_ mutex: UnsafeMutablePointer<pthread_mutex_t>, recursive: Bool) {
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

/// A mutex with a condition variable, for the few places where threads must block (future waits).
/// Everything else in Hearth is loop-confined.
struct WaitableLock: @unchecked Sendable {
    private let buffer = ConditionBuffer.make()

    init() {}

    func lock() { buffer.withUnsafeMutablePointerToElements { _ = pthread_mutex_lock($0) } }
    func unlock() { buffer.withUnsafeMutablePointerToElements { _ = pthread_mutex_unlock($0) } }
    func broadcast() { buffer.withUnsafeMutablePointerToHeader { _ = pthread_cond_broadcast($0) } }

    @inline(__always)
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }

    /// Waits (lock held) until `done()` or the deadline; returns whether `done()` became true.
    func wait(until done: () -> Bool, timeoutMs: Int64) -> Bool {
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

}

/// A recursive mutex: held while host code runs inside a Hearth callback, so that a thread that
/// releases a future, removes a listener or destroys the app can wait for a running callback to end
/// (and then be sure no further one starts), while the callback itself may call those functions too.
package struct RecursiveLock: @unchecked Sendable {
    private let buffer = MutexBuffer<Void>.make((), recursive: true)

    package init() {}

    @inline(__always)
    package func withLock<T>(_ body: () throws -> T) rethrows -> T {
        try buffer.withUnsafeMutablePointerToElements { mutex in
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body()
        }
    }
}

/// A plain mutex-protected value.
package struct Locked<Value>: @unchecked Sendable {
    private let buffer: MutexBuffer<Value>

    package init(_ value: Value) {
        buffer = .make(value, recursive: false)
    }

    @inline(__always)
    package func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        try buffer.withUnsafeMutablePointers { value, mutex in
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body(&value.pointee)
        }
    }

    package var current: Value { withLock { $0 } }
}
