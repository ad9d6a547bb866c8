#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A mutex with one condition variable, for the few pieces of loop state that other threads touch
/// (the work queue, the loop thread's identity, the shutdown state). Heap-allocated because pthread
/// objects must not move.
final class ConditionLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` with the mutex held. `body` must not call back into code that takes this lock.
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Blocks until `done()` holds; `done` is evaluated with the mutex held.
    func wait(until done: () -> Bool) {
        pthread_mutex_lock(mutex)
        while !done() { pthread_cond_wait(condition, mutex) }
        pthread_mutex_unlock(mutex)
    }

    /// Blocks until `done()` holds or `milliseconds` have passed; whether `done()` held.
    func wait(until done: () -> Bool, milliseconds: Int) -> Bool {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)  // the condition variable's default clock
        let nanoseconds = Int(now.tv_nsec) + (milliseconds % 1000) * 1_000_000
        var deadline = timespec(tv_sec: now.tv_sec + milliseconds / 1000 + nanoseconds / 1_000_000_000,
                                tv_nsec: nanoseconds % 1_000_000_000)
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !done() {
            if pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT { return done() }
        }
        return true
    }

    /// Changes state with the mutex held and wakes every waiter.
    func broadcast(after change: () -> Void) {
        pthread_mutex_lock(mutex)
        change()
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }
}
