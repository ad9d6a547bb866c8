import HearthBackend
import HearthTransport

/// The single provider sign-in in flight for one Auth (as on iOS, only one web context can be
/// presented at a time). Loop thread only.
///
/// A second flow while one is pending fails with `.webContextAlreadyPresented`
/// (HEARTH_ERROR_WEB_CONTEXT_ALREADY_PRESENTED, 55) and leaves the first untouched. A flow leaves
/// the registry when it ends, before its completion runs, so the completion may start the next one.
package final class ProviderFlowRegistry {
    /// Five minutes is too short for a provider's own two-factor step plus an account picker;
    /// Google's authorization codes live ten minutes anyway.
    package static let defaultTimeoutMs: UInt64 = 600_000

    private let loop: EventLoop
    package private(set) var pending: PendingProviderFlow?

    package init(loop: EventLoop) {
        self.loop = loop
    }

    /// Starts a flow whose redirect comes back to a new loopback receiver (its `redirectURI` is the
    /// flow's `redirectTarget`). `receiverOptions.timeoutMs` is ignored: `timeoutMs` governs.
    /// - Parameters:
    ///   - state: the expected `state`, or nil to set `expectedState` later.
    ///   - timeoutMs: nil: no timeout.
    /// - Throws: `.webContextAlreadyPresented`; the receiver's errors (`LoopbackRedirectReceiver.start`).
    func beginLoopback(state: String?, receiverOptions: LoopbackRedirectReceiver.Options = .init(),
                              timeoutMs: UInt64? = defaultTimeoutMs,
                              completion: @escaping PendingProviderFlow.Completion) throws(AuthError) -> PendingProviderFlow {
        try requireNoPendingFlow()
        try requireValid(timeoutMs)
        var options = receiverOptions
        options.timeoutMs = nil
        // The receiver reports to the flow, which does not exist yet; `forward` is filled right after.
        let forward = ReceiverForwarder()
        let receiver = try LoopbackRedirectReceiver.start(on: loop, expectedState: state, options: options) { result in
            forward.flow?.receiverCompleted(result)
        }
        let matcher: RedirectURLMatcher
        do {
            matcher = try RedirectURLMatcher(redirectTarget: receiver.redirectURI, expectedState: state)
        } catch {
            receiver.close()
            throw error
        }
        let flow = install(matcher: matcher, receiver: receiver, timeoutMs: timeoutMs, completion: completion)
        forward.flow = flow
        return flow
    }

    /// Starts a flow whose redirect the host hands over with `handle(url:)` (a custom URL scheme
    /// such as `com.example.game:/oauth`, or an embedded web view that intercepts the redirect).
    /// - Throws: `.webContextAlreadyPresented`; `.invalidArgument` if `redirectTarget` is not an
    ///   absolute URL.
    func beginRedirect(to redirectTarget: String, state: String?, timeoutMs: UInt64? = defaultTimeoutMs,
                              completion: @escaping PendingProviderFlow.Completion) throws(AuthError) -> PendingProviderFlow {
        try requireNoPendingFlow()
        try requireValid(timeoutMs)
        let matcher = try RedirectURLMatcher(redirectTarget: redirectTarget, expectedState: state)
        return install(matcher: matcher, receiver: nil, timeoutMs: timeoutMs, completion: completion)
    }

    /// `hearth_auth_handle_url` / Firebase's `canHandle(url)`: offers `url` to the pending flow.
    /// Hearth consumed the URL when the result is `.consumed` or `.failed` (the flow completed with
    /// it); `.notOurs` when no flow is pending.
    package func handle(url: String, postBody: String? = nil) -> RedirectMatch {
        pending?.handle(url: url, postBody: postBody) ?? .notOurs
    }

    /// Cancels the pending flow, if any (its completion gets `.webContextCancelled`).
    package func cancel() {
        pending?.cancel()
    }

    /// App destroy: ends the pending flow without running its completion.
    package func shutdown() {
        pending?.close()
        pending = nil
    }

    private func requireNoPendingFlow() throws(AuthError) {
        guard pending == nil else {
            throw AuthError(code: .webContextAlreadyPresented,
                            message: "A provider sign-in is already in progress; finish or cancel it before starting another.")
        }
    }

    private func requireValid(_ timeoutMs: UInt64?) throws(AuthError) {
        guard timeoutMs != 0 else {
            throw AuthError(code: .invalidArgument, message: "A provider sign-in timeout must be positive (or none).")
        }
    }

    private func install(matcher: RedirectURLMatcher, receiver: LoopbackRedirectReceiver?, timeoutMs: UInt64?,
                         completion: @escaping PendingProviderFlow.Completion) -> PendingProviderFlow {
        let flow = PendingProviderFlow(matcher: matcher, receiver: receiver, completion: completion) { [weak self] ended in
            guard let self, self.pending === ended else { return }
            self.pending = nil
        }
        if let timeoutMs { flow.startTimeout(on: loop, afterMs: timeoutMs) }
        pending = flow
        return flow
    }
}

/// Lets the receiver's completion reach a flow created after the receiver.
private final class ReceiverForwarder {
    weak var flow: PendingProviderFlow?
}
