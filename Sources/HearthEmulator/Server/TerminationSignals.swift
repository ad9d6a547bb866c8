import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// SIGINT and SIGTERM turned from "end the process" into one call, so the server can shut down
/// gracefully. Later signals are ignored while the shutdown runs.
final class TerminationSignals {
    private let sources: [any DispatchSourceSignal]

    init(onFirst handler: @escaping @Sendable () -> Void) {
        let queue = DispatchQueue(label: "hearth-emulator.signals")
        let once = SignalOnce()
        let registered = DispatchSemaphore(value: 0)
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { if once.claim() { handler() } }
            source.setRegistrationHandler { registered.signal() }
            source.resume()
            return source
        }
        // A source watches only once registered, which resume() leaves to the queue; until then the
        // signal is ignored. Scripts signal right after the readiness line, so wait for it.
        for _ in sources { registered.wait() }
    }

    deinit {
        for source in sources { source.cancel() }
    }

    private final class SignalOnce: Sendable {
        private let fired = Mutex(false)

        /// True the first time only.
        func claim() -> Bool {
            fired.withLock { fired in
                defer { fired = true }
                return !fired
            }
        }
    }
}
