#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value behind a readers–writer lock (pthread's). Requests that only read a project (a lookup)
/// run side by side on both event loops; Synchronization's `Mutex` serialized them, and on Linux its
/// contended path is a priority-inheritance futex whose kernel round trips cost more than most
/// critical sections.
final class ReadWriteLocked<Value>: @unchecked Sendable {
    // @unchecked: `storage` is only touched between a lock and its unlock below.
    private let storage: UnsafeMutablePointer<Value>
    private let lock: UnsafeMutablePointer<pthread_rwlock_t>

    init(_ value: Value) {
        storage = .allocate(capacity: 1)
        storage.initialize(to: value)
        lock = .allocate(capacity: 1)
        lock.initialize(to: pthread_rwlock_t())
        var attributes = pthread_rwlockattr_t()
        pthread_rwlockattr_init(&attributes)
        #if canImport(Glibc)
        // glibc prefers readers by default: overlapping lookups on both loops could keep a sign-in
        // waiting indefinitely.
        pthread_rwlockattr_setkind_np(&attributes, Int32(PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP))
        #endif
        pthread_rwlock_init(lock, &attributes)
        pthread_rwlockattr_destroy(&attributes)
    }

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deallocate()
        storage.deinitialize(count: 1)
        storage.deallocate()
    }

    /// Shared access: other readers may run at the same time, writers wait.
    func read<Result, Failure: Error>(_ body: (borrowing Value) throws(Failure) -> Result) throws(Failure) -> Result {
        if !spin({ pthread_rwlock_tryrdlock(lock) == 0 }) { pthread_rwlock_rdlock(lock) }
        defer { pthread_rwlock_unlock(lock) }
        return try body(storage.pointee)
    }

    /// Exclusive access.
    func write<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        if !spin({ pthread_rwlock_trywrlock(lock) == 0 }) { pthread_rwlock_wrlock(lock) }
        defer { pthread_rwlock_unlock(lock) }
        return try body(&storage.pointee)
    }

    /// Tries `acquire` for a few microseconds before the caller blocks: the emulator's critical
    /// sections are shorter than a futex sleep and wake-up (bench/FINDINGS.md).
    private func spin(_ acquire: () -> Bool) -> Bool {
        for _ in 0..<Self.spinAttempts where acquire() { return true }
        return false
    }

    private static var spinAttempts: Int { 200 }
}
