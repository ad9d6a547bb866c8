import HearthBackend
import HearthTransport

/// What a finished operation produced.
package enum FutureValue: Sendable {
    case none
    case authResult(AuthResultSnapshot)
    case user(UserSnapshot)
    case string(String)
    case strings([String])
    /// A phone verification: the verification id and the token that forces a new SMS.
    case phoneVerification(verificationId: String, resendToken: String)
    case multiFactorSession(MultiFactorSession)
    case totpSecret(TOTPSecret)
    /// A provider's credential, not used yet (the credential-only provider flow).
    case credential(Credential)
    /// What an out-of-band code is for (checkActionCode).
    case actionCodeInfo(ActionCodeInfo)
}

package enum FutureWaitResult: Sendable, Equatable {
    case complete
    case timedOut
    /// Blocking here would stop the loop that has to complete the future.
    case wouldDeadlock
}

/// The shared state of one operation: completes once, from any thread; any number of completion
/// callbacks wait for it, and each runs exactly once (as host code, through the dispatcher).
package final class FutureState: @unchecked Sendable {
    package typealias Outcome = Result<FutureValue, AuthError>

    private let lock = ConditionLock()
    // Two optionals, not one `Outcome?`: in a `Result<FutureValue, AuthError>?` a failure leaves the
    // last payload byte unwritten (AuthError is 57 bytes, FutureValue 73), and the nil test Swift emits
    // loads that byte together with the tag byte and compares both. The answer depends on the tag byte
    // only, but memcheck cannot know that: every hearth_future_status/error call was reported as a
    // branch on uninitialised memory (17,509 reports), and the "undefined" status flowed on into the
    // host. Optional<AuthError> and Optional<FutureValue> test bytes every value writes.
    private var value: FutureValue?
    private var failure: AuthError?
    /// Set with `value` or `failure`: status checks read these instead of testing the optionals, which
    /// copies them through their value witnesses (a few hundred instructions per check).
    private var completed = false
    private var failureCode: AuthErrorCode?
    /// Waiting for completion, in the order they were added: the first in its own slot (almost always
    /// the only one: no array to allocate), the rest after it.
    private var firstCallback: (() -> Void)?
    private var moreCallbacks: [() -> Void] = []
    package let dispatcher: CallbackDispatcher
    /// The Auth that ran the operation, for the results that go on with it (a second factor's resolver, a
    /// multi-factor session); set only for those, before completion (`Auth.finish`). A weak reference
    /// gives its object a side table, after which every retain and release of the Auth takes the
    /// runtime's slow path: every future holding one cost each operation that.
    package internal(set) weak var auth: Auth?

    package init(dispatcher: CallbackDispatcher) {
        self.dispatcher = dispatcher
    }

    /// An already-failed future (bad arguments): completes before the caller sees it.
    package static func failed(_ error: AuthError, dispatcher: CallbackDispatcher) -> FutureState {
        let state = FutureState(dispatcher: dispatcher)
        state.complete(.failure(error))
        return state
    }

    package var result: Outcome? {
        lock.withLock {
            if let failure { return .failure(failure) }
            return value.map { .success($0) }
        }
    }
    /// The value of a successful operation; nil while pending or after a failure.
    package var successValue: FutureValue? { lock.withLock { value } }
    /// The error of a failed operation; nil while pending or after a success.
    package var error: AuthError? { lock.withLock { failure } }
    /// The error's code alone (nil while pending or after a success), without copying the error.
    package var errorCode: AuthErrorCode? { lock.withLock { failureCode } }
    package var isComplete: Bool { lock.withLock { completed } }

    /// First completion wins; later ones are ignored (returns false).
    @discardableResult
    package func complete(_ result: Outcome) -> Bool {
        lock.lock()
        if completed {
            lock.unlock()
            return false
        }
        switch result {
        case .success(let success): value = success
        case .failure(let error):
            failure = error
            failureCode = error.code
        }
        completed = true
        let first = firstCallback
        firstCallback = nil
        let more = moreCallbacks
        if !more.isEmpty { moreCallbacks = [] }
        lock.broadcast()
        lock.unlock()
        // Every future of an app completes before its dispatcher finalizes (pending ones as cancelled),
        // so these are always taken.
        if let first { dispatcher.schedule(.final(first)) }
        for callback in more { dispatcher.schedule(.final(callback)) }
        return true
    }

    func succeed(_ value: FutureValue) { complete(.success(value)) }
    func fail(_ error: AuthError) { complete(.failure(error)) }

    /// Adds a completion callback: it runs once, as host code on a later loop turn, after the future
    /// completes (at once if it has). Returns `.appDestroyed`, and keeps nothing, once the app's
    /// destroy has begun.
    package func addCallback(_ callback: @escaping () -> Void) -> AuthErrorCode? {
        if dispatcher.isDestroyed { return .appDestroyed }
        lock.lock()
        guard completed else {
            if firstCallback == nil && moreCallbacks.isEmpty {
                firstCallback = callback
            } else {
                moreCallbacks.append(callback)
            }
            lock.unlock()
            return nil
        }
        lock.unlock()
        // Refused only once the dispatcher has finalized: then nothing may run any more.
        return dispatcher.schedule(.final(callback)) ? nil : .appDestroyed
    }

    package func wait(timeoutMs: Int64) -> FutureWaitResult {
        if isComplete { return .complete }
        if dispatcher.loop.isLoopThread && !dispatcher.isDestroyed { return .wouldDeadlock }
        return lock.withLock {
            lock.wait(until: { completed }, timeoutMs: timeoutMs) ? .complete : .timedOut
        }
    }
}
