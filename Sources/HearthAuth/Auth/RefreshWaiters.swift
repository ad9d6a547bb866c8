import HearthBackend

/// Who waits for each running token refresh, by session generation (a refresh started for one user
/// never answers another). There is almost always one refresh at a time with one waiter: a short list
/// scanned, each refresh's first waiter in a slot of its own, instead of a dictionary of arrays (three
/// hash operations and an array per refresh, bench/FINDINGS.md).
struct RefreshWaiters {
    typealias Completion = (Result<String, AuthError>) -> Void

    /// One refresh's waiters.
    struct Refresh {
        fileprivate let generation: UInt64
        fileprivate var first: Completion?
        fileprivate var more: [Completion] = []

        /// Answers each waiter, in the order they came.
        func answer(_ result: Result<String, AuthError>) {
            first?(result)
            for completion in more { completion(result) }
        }
    }

    /// Kept with its capacity: entries come and go with every refresh.
    private var refreshes: [Refresh] = []

    func isRunning(_ generation: UInt64) -> Bool {
        refreshes.contains { $0.generation == generation }
    }

    /// Adds `completion` to the refresh of `generation`, starting that entry if there is none; returns
    /// whether a refresh for it was already running.
    mutating func add(_ completion: @escaping Completion, for generation: UInt64) -> Bool {
        guard let index = refreshes.firstIndex(where: { $0.generation == generation }) else {
            refreshes.append(Refresh(generation: generation, first: completion))
            return false
        }
        if refreshes[index].first == nil {
            refreshes[index].first = completion
        } else {
            refreshes[index].more.append(completion)
        }
        return true
    }

    /// A refresh nobody waits for yet (the proactive one).
    mutating func start(_ generation: UInt64) {
        refreshes.append(Refresh(generation: generation, first: nil))
    }

    /// Ends the refresh of `generation`: its waiters, to answer once this list is no longer being
    /// changed (a waiter may ask for a token again, which starts a new refresh here).
    mutating func take(_ generation: UInt64) -> Refresh? {
        guard let index = refreshes.firstIndex(where: { $0.generation == generation }) else { return nil }
        return refreshes.remove(at: index)
    }

    /// Ends every refresh.
    mutating func takeAll() -> [Refresh] {
        defer { refreshes.removeAll() }
        return refreshes
    }
}
