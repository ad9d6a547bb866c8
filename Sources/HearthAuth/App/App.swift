#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLibUV
import HearthBackend
import HearthTransport

/// One configured Firebase app: its loop, its callback dispatcher and its Auth.
package final class App: @unchecked Sendable {
    package let configuration: AppConfiguration
    package let loop: EventLoop
    package let dispatcher: CallbackDispatcher
    package let auth: Auth
    private let destroyed = Locked(false)

    /// Creates the app. `hostLoop` nil: Hearth runs its own loop thread. The persisted session is
    /// loaded from `store` before this returns.
    package static func create(configuration: AppConfiguration, hostLoop: UnsafeMutablePointer<uv_loop_t>?,
                              store: SessionStore,
                              nowMs: @escaping @Sendable () -> Int64 = App.wallClockMs) throws(AuthError) -> App {
        let loop: EventLoop
        do {
            loop = try hostLoop.map { try EventLoop.borrowing($0) } ?? EventLoop.makeOwned()
        } catch {
            throw AuthError(code: .loopFailure, message: "Could not set up the event loop: \(error)")
        }
        return App(configuration: configuration, loop: loop, store: store, nowMs: nowMs)
    }

    private init(configuration: AppConfiguration, loop: EventLoop, store: SessionStore,
                 nowMs: @escaping @Sendable () -> Int64) {
        self.configuration = configuration
        self.loop = loop
        self.dispatcher = CallbackDispatcher(loop: loop)
        let emulator = App.emulatorFromEnvironment()
        var transportOptions = CurlTransport.Options()
        transportOptions.defaultTimeoutMs = configuration.requestTimeoutMs
        transportOptions.caBundlePath = configuration.caBundlePath
        transportOptions.connectTo = configuration.transportConnectTo
        self.auth = Auth(configuration: configuration, dispatcher: dispatcher, store: store, emulator: emulator,
                         nowMs: nowMs) { auth in
            try CurlTransport(loop: auth.loop, options: transportOptions)
        }
        Log.info("[\(configuration.appName)] app created on " + (loop.isOwned ? "its own loop thread" : "the host's loop")
                 + (emulator.map { ", using the emulator at \($0.authority)" } ?? ""))
        auth.start()
    }

    var isDestroyed: Bool { destroyed.current }

    /// Cancels everything in flight and ends every registration (see `CallbackDispatcher`): pending
    /// futures complete with CANCELLED and their callbacks run, posted work learns it was cancelled,
    /// releases run — on the loop thread, as the last thing it does for this app (with Hearth's own
    /// loop called off it, before this returns; with a host loop, during the host's next turn). Stops
    /// the loop thread if Hearth owns it, and returns without waiting on the network. Idempotent.
    package func destroy() {
        let first = destroyed.withLock { wasDestroyed -> Bool in
            defer { wasDestroyed = true }
            return !wasDestroyed
        }
        guard first else { return }
        Log.info("[\(configuration.appName)] app destroyed")
        dispatcher.markDestroyed()
        auth.cancelPending()
        let auth = self.auth
        let dispatcher = self.dispatcher
        loop.shutdown(final: { auth.shutdownOnLoop() }, last: { dispatcher.finalize() })
    }

    /// FIREBASE_AUTH_EMULATOR_HOST ("host:port"), the Admin SDK's convention.
    static func emulatorFromEnvironment() -> EmulatorAddress? {
        guard let value = getenv("FIREBASE_AUTH_EMULATOR_HOST") else { return nil }
        return EmulatorAddress(parsing: String(cString: value))
    }

    @Sendable static func wallClockMs() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }
}
