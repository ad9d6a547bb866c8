/// Host listeners of one kind (auth state or ID token). Add and remove from any thread; calls
/// happen on the loop thread through the dispatcher, and a listener is never called after its
/// removal returns.
final class ListenerRegistry: @unchecked Sendable {
    typealias Callback = @Sendable () -> Void

    private let dispatcher: CallbackDispatcher
    private let listeners = Locked<(next: UInt64, entries: [UInt64: Callback])>((1, [:]))

    init(dispatcher: CallbackDispatcher) {
        self.dispatcher = dispatcher
    }

    /// Registers a listener and schedules its first call (the current state) for a later loop turn.
    func add(_ callback: @escaping Callback) -> UInt64 {
        let id = listeners.withLock { state -> UInt64 in
            let id = state.next
            state.next += 1
            state.entries[id] = callback
            return id
        }
        dispatcher.schedule { [self] in invoke(id) }
        return id
    }

    func remove(_ id: UInt64) -> Bool {
        dispatcher.excludingCallbacks {
            listeners.withLock { $0.entries.removeValue(forKey: id) != nil }
        }
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
        let callback = listeners.withLock { $0.entries[id] }
        callback?()
    }

    func removeAll() {
        listeners.withLock { $0.entries.removeAll() }
    }
}
