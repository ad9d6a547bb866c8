/// What a finished operation produced.
public enum FutureValue: Sendable {
    case none
    case authResult(AuthResultSnapshot)
    case user(UserSnapshot)
    case string(String)
    case strings([String])
    /// A phone verification: the verification id and the token that forces a new SMS.
    case phoneVerification(verificationId: String, resendToken: String)
    case multiFactorSession(MultiFactorSession)
    case totpSecret(TOTPSecret)
}

public enum FutureWaitResult: Sendable, Equatable {
    case complete
    case timedOut
    /// Blocking here would stop the loop that has to complete the future.
    case wouldDeadlock
}

/// The shared state of one operation: completes once, from any thread; any number of handles
/// (host references) observe it, each with at most one completion callback.
public final class FutureState: @unchecked Sendable {
    public typealias Outcome = Result<FutureValue, AuthError>

    private let lock = WaitableLock()
    // Two optionals, not one `Outcome?`: in a `Result<FutureValue, AuthError>?` a failure leaves the
    // last payload byte unwritten (AuthError is 57 bytes, FutureValue 73), and the nil test Swift emits
    // loads that byte together with the tag byte and compares both. The answer depends on the tag byte
    // only, but memcheck cannot know that: every hearth_future_status/error call was reported as a
    // branch on uninitialised memory (17,509 reports), and the "undefined" status flowed on into the
    // host. Optional<AuthError> and Optional<FutureValue> test bytes every value writes.
    private var value: FutureValue?
    private var failure: AuthError?
    private var completed: Bool { value != nil || failure != nil }
    /// Per handle; almost always one or none, so a list rather than a dictionary.
    private var callbacks: [(handle: UInt64, callback: () -> Void)] = []
    public let dispatcher: CallbackDispatcher
    /// The Auth that runs the operation (to finish a sign-in that needs a second factor).
    public private(set) weak var auth: Auth?

    public init(dispatcher: CallbackDispatcher, auth: Auth? = nil) {
        self.dispatcher = dispatcher
        self.auth = auth
    }

    /// An already-failed future (bad arguments): completes before the caller sees it.
    public static func failed(_ error: AuthError, dispatcher: CallbackDispatcher, auth: Auth? = nil) -> FutureState {
        let state = FutureState(dispatcher: dispatcher, auth: auth)
        state.complete(.failure(error))
        return state
    }

    public var result: Outcome? {
        lock.withLock {
            if let failure { return .failure(failure) }
            return value.map { .success($0) }
        }
    }
    /// The value of a successful operation; nil while pending or after a failure.
    public var successValue: FutureValue? { lock.withLock { value } }
    /// The error of a failed operation; nil while pending or after a success.
    public var error: AuthError? { lock.withLock { failure } }
    public var isComplete: Bool { lock.withLock { completed } }

    /// First completion wins; later ones are ignored (returns false).
    @discardableResult
    public func complete(_ result: Outcome) -> Bool {
        let toFire: [UInt64]
        lock.lock()
        if completed {
            lock.unlock()
            return false
        }
        switch result {
        case .success(let success): value = success
        case .failure(let error): failure = error
        }
        toFire = callbacks.map(\.handle)
        lock.broadcast()
        lock.unlock()
        for handle in toFire { scheduleFire(handle) }
        return true
    }

    public func succeed(_ value: FutureValue) { complete(.success(value)) }
    public func fail(_ error: AuthError) { complete(.failure(error)) }

    /// Sets (or clears, with nil) the callback of one handle. It runs once, on a later loop turn.
    public func setCallback(handle: UInt64, _ callback: (() -> Void)?) -> AuthErrorCode? {
        if dispatcher.isDestroyed { return .appDestroyed }
        let fireNow: Bool = lock.withLock {
            _ = takeCallback(handle: handle)
            if let callback { callbacks.append((handle, callback)) }
            return callback != nil && completed
        }
        if fireNow { scheduleFire(handle) }
        return nil
    }

    /// Forgets a handle's callback; after this returns it never runs.
    public func removeCallback(handle: UInt64) {
        dispatcher.excludingCallbacks {
            lock.withLock { _ = takeCallback(handle: handle) }
        }
    }

    private func scheduleFire(_ handle: UInt64) {
        dispatcher.schedule { [self] in
            // Taking the callback out makes it run exactly once, even if it was scheduled twice
            // (completed, then re-registered).
            let callback = lock.withLock { takeCallback(handle: handle) }
            callback?()
        }
    }

    /// Removes and returns the callback of `handle`. Under `lock`.
    private func takeCallback(handle: UInt64) -> (() -> Void)? {
        guard let index = callbacks.firstIndex(where: { $0.handle == handle }) else { return nil }
        return callbacks.remove(at: index).callback
    }

    public func wait(timeoutMs: Int64) -> FutureWaitResult {
        if isComplete { return .complete }
        if dispatcher.loop.isLoopThread && !dispatcher.isDestroyed { return .wouldDeadlock }
        return lock.withLock {
            lock.wait(until: { completed }, timeoutMs: timeoutMs) ? .complete : .timedOut
        }
    }
}
