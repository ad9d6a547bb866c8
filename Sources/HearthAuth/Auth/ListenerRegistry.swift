import HearthTransport

/// Host listeners of one kind (auth state or ID token). Add and remove from any thread; calls happen on
/// the loop thread through the dispatcher, a listener is never called after its removal returns, and
/// its release (if any) runs once after its last call: when it is removed, or when the app is destroyed.
final class ListenerRegistry: @unchecked Sendable {
    typealias Callback = @Sendable () -> Void

    private struct Entry {
        let callback: Callback
        let release: CallbackDispatcher.ReleaseToken?
    }

    private let dispatcher: CallbackDispatcher
    private let listeners = Locked<(next: UInt64, entries: [UInt64: Entry])>((1, [:]))

    init(dispatcher: CallbackDispatcher) {
        self.dispatcher = dispatcher
    }

    /// Registers a listener and schedules its first call (the current state) for a later loop turn.
    /// Nil once the app's destroy has begun (then neither `callback` nor `release` ever runs).
    func add(_ callback: @escaping Callback, release: (@Sendable () -> Void)?) -> UInt64? {
        var token: CallbackDispatcher.ReleaseToken?
        if let release {
            guard let kept = dispatcher.keepRelease(release) else { return nil }
            token = kept
        } else if dispatcher.isDestroyed {
            return nil
        }
        let id = listeners.withLock { state -> UInt64 in
            let id = state.next
            state.next += 1
            state.entries[id] = Entry(callback: callback, release: token)
            return id
        }
        dispatcher.schedule { [self] in invoke(id) }
        return id
    }

    /// After this returns the listener is not running on another thread and is never called again; its
    /// release is queued behind whatever is already due.
    func remove(_ id: UInt64) -> Bool {
        let removed = dispatcher.excludingCallbacks {
            listeners.withLock { $0.entries.removeValue(forKey: id) }
        }
        guard let removed else { return false }
        if let token = removed.release { dispatcher.release(token) }
        return true
    }

    /// Schedules one call of every listener registered now.
    func notifyAll() {
        let ids = listeners.withLock { Array($0.entries.keys).sorted() }
        if ids.isEmpty { return }
        dispatcher.schedule { [self] in
            for id in ids { invoke(id) }
        }
    }

    /// Runs inside the dispatcher's gate: a removal on another thread waits for it, and a removal
    /// made by an earlier listener in the same turn is seen here.
    private func invoke(_ id: UInt64) {
        let callback = listeners.withLock { $0.entries[id]?.callback }
        callback?()
    }

    /// The app is going away: no listener is called any more. Their releases stay with the dispatcher,
    /// which runs them when it finalizes.
    func removeAll() {
        listeners.withLock { $0.entries.removeAll() }
    }
}
