#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CHearthShims

/// How much a log message matters; the host picks the least it wants to hear.
package enum LogLevel: Int32, Sendable, Comparable, CaseIterable {
    /// Every HTTP request: method, URL without its query values, outcome, time.
    case debug = 0
    /// App lifecycle, sign-in state changes, operations started and finished.
    case info = 1
    /// Failed operations, sessions the server ended, saved sessions that could not be read.
    case warning = 2
    /// Hearth could not do its own work (a session could not be saved or erased).
    case error = 3

    package static func < (a: LogLevel, b: LogLevel) -> Bool { a.rawValue < b.rawValue }
}

/// Where log messages go: the host's callback and the least level it wants.
package struct LogSink: Sendable {
    package let minimum: LogLevel
    let deliver: @Sendable (LogLevel, String) -> Void

    package init(minimum: LogLevel, deliver: @escaping @Sendable (LogLevel, String) -> Void) {
        self.minimum = minimum
        self.deliver = deliver
    }
}

/// Hearth's log: off until a host installs a sink; then every message passes `LogRedaction.scrub`.
/// Messages are built only when someone listens (autoclosures), so call sites cost one check when off.
package enum Log {
    package static func debug(_ message: @autoclosure () -> String) { LogCenter.shared.emit(.debug, message) }
    package static func info(_ message: @autoclosure () -> String) { LogCenter.shared.emit(.info, message) }
    package static func warning(_ message: @autoclosure () -> String) { LogCenter.shared.emit(.warning, message) }
    package static func error(_ message: @autoclosure () -> String) { LogCenter.shared.emit(.error, message) }

    package static func isEnabled(_ level: LogLevel) -> Bool { LogCenter.shared.isEnabled(level) }

    /// Replaces the sink (nil: logging off). After this returns the previous sink is not running on
    /// another thread and never runs again.
    package static func setSink(_ sink: LogSink?) { LogCenter.shared.setSink(sink) }
}

/// The process-wide sink, and the bookkeeping that lets `setSink` wait for deliveries in progress on
/// other threads without holding a lock while host code runs.
final class LogCenter: @unchecked Sendable {
    static let shared = LogCenter()

    private let lock = ConditionLock()
    private var sink: LogSink?
    private var generation: UInt64 = 0
    /// Deliveries running now, per sink generation.
    private var deliveries: [UInt64: Int] = [:]
    /// Set while this thread delivers: Hearth calls made from inside the host's callback log nothing
    /// (no recursion), and `setSink` from inside it does not wait for itself.
    private let delivering = ThreadFlag()
    /// The sink's least level, or `Int32.max` without a sink: read without the lock by every check (one
    /// per request and per operation), written under it.
    private let threshold: UnsafeMutablePointer<Int32> = {
        let word = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
        word.initialize(to: .max)
        return word
    }()

    deinit { threshold.deallocate() }

    func isEnabled(_ level: LogLevel) -> Bool {
        level.rawValue >= hearth_atomic_load_i32(threshold)
    }

    func emit(_ level: LogLevel, _ message: () -> String) {
        // Logging off (the usual case) costs this one load. A sink set or removed meanwhile is seen by a
        // later message; the lock below decides for this one.
        if !isEnabled(level) || delivering.isSet { return }
        let claimed: (LogSink, UInt64)? = lock.withLock {
            guard let sink, level >= sink.minimum else { return nil }
            deliveries[generation, default: 0] += 1
            return (sink, generation)
        }
        guard let (sink, claimedGeneration) = claimed else { return }
        delivering.set(true)
        sink.deliver(level, LogRedaction.scrub(message()))
        delivering.set(false)
        lock.withLock {
            let left = (deliveries[claimedGeneration] ?? 1) - 1
            deliveries[claimedGeneration] = left > 0 ? left : nil
            lock.broadcast()
        }
    }

    func setSink(_ newSink: LogSink?) {
        let ownDelivery = delivering.isSet ? 1 : 0
        lock.withLock {
            let previous = generation
            sink = newSink
            hearth_atomic_store_i32(threshold, newSink?.minimum.rawValue ?? .max)
            generation += 1
            _ = lock.wait(until: { (deliveries[previous] ?? 0) <= ownDelivery }, timeoutMs: -1)
        }
    }
}

/// A per-thread boolean (pthread key): whether this thread is inside a log delivery.
final class ThreadFlag: @unchecked Sendable {
    private var key = pthread_key_t()

    init() { pthread_key_create(&key, nil) }

    var isSet: Bool { pthread_getspecific(key) != nil }

    func set(_ value: Bool) {
        pthread_setspecific(key, value ? UnsafeRawPointer(bitPattern: 1) : nil)
    }
}

extension Log {
    /// Milliseconds on the monotonic clock, for durations in messages.
    package static func monotonicMs() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }
}
