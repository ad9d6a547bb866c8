import HearthTransport

/// Runs host code (completion callbacks, listeners, posted functions, release callbacks) the way the
/// threading contract promises: on the loop thread, on a later loop turn (never inside the call that
/// registered it), and — libuv's rule — every registration ends in exactly one final call, also when the
/// app is destroyed.
///
/// Host code waits in `queue` in the order it became due; each entry has one loop turn scheduled for
/// it, which runs the oldest entry. Entries whose turn never comes (the loop stopped taking work during a
/// destroy) are run by `finalize`, the last thing the app does on its loop. Once the app is destroyed,
/// entries run their `ifDestroyed` part instead: a completion callback runs as usual (its future was
/// completed, as cancelled if it was pending), a posted function learns it was cancelled, a listener's
/// call is dropped (its release comes in `finalize`).
///
/// Release callbacks of registrations that can be called many times (listeners, the phone listener,
/// the provider-flow UI delegate) are kept as `releases`: a registration ending by itself queues its own
/// (`release(_:)`), and `finalize` runs the ones still kept, in the order they were registered.
///
/// `gate` is held while host code runs. A thread that must be sure a callback is not running and will
/// not start (destroying the app, removing a listener) takes the gate too: it waits for a running
/// callback to end. The loop thread takes it recursively, so a callback can do any of those things
/// itself.
package final class CallbackDispatcher: @unchecked Sendable {
    /// One run of host code.
    package struct HostCall: @unchecked Sendable {
        let run: () -> Void
        /// What runs instead once the app is destroyed; nil: nothing (the call is dropped).
        let ifDestroyed: (() -> Void)?

        /// Runs whether or not the app is destroyed by then (completion callbacks, releases).
        package static func final(_ body: @escaping () -> Void) -> HostCall {
            HostCall(run: body, ifDestroyed: body)
        }

        /// Dropped once the app is destroyed (listener calls, the UI delegate, phone listener events).
        package static func event(_ body: @escaping () -> Void) -> HostCall {
            HostCall(run: body, ifDestroyed: nil)
        }

        /// `run` in its turn, `cancelled` instead when the app is destroyed first (posted functions).
        package static func cancellable(run: @escaping () -> Void,
                                       cancelled: @escaping () -> Void) -> HostCall {
            HostCall(run: run, ifDestroyed: cancelled)
        }
    }

    /// A release callback kept by the dispatcher; `release(_:)` or `finalize` runs it, exactly once.
    package struct ReleaseToken: Sendable, Hashable {
        let id: UInt64
    }

    private struct State {
        var destroyed = false
        /// `finalize` has taken the queue: nothing can be queued any more.
        var finalized = false
        /// Run entries are set to nil at once, so that what they captured goes with them.
        var queue: [HostCall?] = []
        var head = 0
        var nextRelease: UInt64 = 1
        var releases: [UInt64: () -> Void] = [:]
    }

    package let loop: EventLoop
    let gate = RecursiveLock()
    private let state = Locked(State())

    package init(loop: EventLoop) {
        self.loop = loop
    }

    /// True once the app's destroy has begun.
    var isDestroyed: Bool { state.withLock { $0.destroyed } }

    // MARK: Scheduling

    /// Queues host code for a later loop turn. Returns false, and runs nothing, once `finalize` has run:
    /// the caller then still owns what the call would have finished with.
    @discardableResult
    package func schedule(_ call: HostCall) -> Bool {
        let queued = state.withLock { state -> Bool in
            guard !state.finalized else { return false }
            state.queue.append(call)
            return true
        }
        // A turn refused because the loop is stopping is fine: `finalize` runs what is left.
        if queued { _ = loop.execute { [self] in runNext() } }
        return queued
    }

    /// Host code dropped once the app is destroyed (a listener call), as a shorthand.
    @discardableResult
    package func schedule(_ event: @escaping () -> Void) -> Bool {
        schedule(.event(event))
    }

    /// Loop thread: runs the oldest queued entry (each `schedule` gave it one turn, so order is kept).
    private func runNext() {
        gate.withLock {
            guard let (call, destroyed) = state.withLock({ state -> (HostCall, Bool)? in
                guard state.head < state.queue.count, let call = state.queue[state.head] else { return nil }
                state.queue[state.head] = nil
                state.head += 1
                if state.head == state.queue.count {
                    state.queue.removeAll(keepingCapacity: true)
                    state.head = 0
                }
                return (call, state.destroyed)
            }) else { return }
            if destroyed { call.ifDestroyed?() } else { call.run() }
        }
    }

    // MARK: Release callbacks

    /// Keeps `release` until `release(_:)` or `finalize` runs it. Nil once the app's destroy has begun:
    /// the registration must then fail, and `release` never runs.
    func keepRelease(_ release: @escaping () -> Void) -> ReleaseToken? {
        state.withLock { state in
            guard !state.destroyed else { return nil }
            let id = state.nextRelease
            state.nextRelease += 1
            state.releases[id] = release
            return ReleaseToken(id: id)
        }
    }

    /// The registration of `token` has ended: its release runs on a later loop turn, after everything
    /// already due (so after the registration's last call). A second call does nothing.
    package func release(_ token: ReleaseToken) {
        let body = state.withLock { state -> (() -> Void)? in
            // Once finalized, `finalize` has run every kept release (this one included).
            guard !state.finalized else { return nil }
            return state.releases.removeValue(forKey: token.id)
        }
        if let body { schedule(.final(body)) }
    }

    /// Takes back a kept release that must not run (its registration failed after all). False when
    /// `finalize` took it first: it has run, or runs, as the registration's final call.
    func forget(_ token: ReleaseToken) -> Bool {
        state.withLock { state in
            guard !state.finalized else { return false }
            return state.releases.removeValue(forKey: token.id) != nil
        }
    }

    // MARK: Destroy

    /// Any thread, once, when the app is destroyed: from now on queued entries run their `ifDestroyed`
    /// part, no release can be kept, and no host code is running on another thread when this returns.
    func markDestroyed() {
        gate.withLock { state.withLock { $0.destroyed = true } }
    }

    /// Loop thread, once, the last thing the app does on its loop (after `markDestroyed` and after the
    /// pending futures were completed as cancelled): runs every entry still queued, then every kept
    /// release in registration order. After it returns no host code of the app runs.
    package func finalize() {
        gate.withLock {
            let (calls, releases) = state.withLock { state -> ([HostCall], [() -> Void]) in
                state.destroyed = true
                state.finalized = true
                let calls = state.queue[state.head...].compactMap { $0 }
                state.queue.removeAll()
                state.head = 0
                let releases = state.releases.sorted { $0.key < $1.key }.map(\.value)
                state.releases.removeAll()
                return (calls, releases)
            }
            for call in calls { call.ifDestroyed?() }
            for release in releases { release() }
        }
    }

    /// Runs `body` once no host callback is running on another thread (immediately on the loop
    /// thread or when none runs).
    func excludingCallbacks<T>(_ body: () throws -> T) rethrows -> T {
        try gate.withLock(body)
    }
}
