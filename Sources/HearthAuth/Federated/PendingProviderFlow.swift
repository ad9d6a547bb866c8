import HearthBackend
import HearthTransport
import HearthWire

/// The provider sign-in an Auth is waiting on: where the browser will be sent back to, the `state`
/// that proves a redirect is this flow's answer, the loopback receiver (if the flow uses one), the
/// timeout, and the completion. Loop thread only; made by `ProviderFlowRegistry`.
///
/// The completion runs exactly once, on the loop thread, with:
/// - the redirect (`RedirectResponse`) from the loopback receiver or from `handle(url:)`;
/// - the error the redirect carried (`RedirectMatch.failed`);
/// - `.webContextCancelled` (HEARTH_ERROR_WEB_CONTEXT_CANCELLED, 56) from `cancel()`, inside it;
/// - `.webContextCancelled` with a "timed out" message when `timeoutMs` passes;
/// unless `close()` (app destroy) comes first: then it never runs and is released.
package final class PendingProviderFlow {
    package typealias Completion = (Result<RedirectResponse, AuthError>) -> Void

    /// Bytes of randomness in `makeState()` (RFC 6749 §10.10 asks for a guess probability ≤ 2^-128;
    /// this gives 2^-256).
    static let stateBytes = 32

    /// The redirect target: the loopback receiver's `redirectURI`, or the app's custom-scheme URL.
    let redirectTarget: String
    /// The loopback receiver, for flows that use one.
    package let receiver: LoopbackRedirectReceiver?

    private var matcher: RedirectURLMatcher
    private var timer: LoopTimer?
    private var completion: Completion?
    /// Tells the registry the flow is over, before the completion runs (so it may start another).
    private var onEnd: ((PendingProviderFlow) -> Void)?

    /// A fresh `state`: 32 bytes from the system's secure random source, base64url (43 characters).
    /// Throws `.failure` when the system has no usable random source.
    static func makeState() throws(AuthError) -> String {
        Base64.urlEncoded(try SecureRandom.bytes(stateBytes))
    }

    init(matcher: RedirectURLMatcher, receiver: LoopbackRedirectReceiver?, completion: @escaping Completion,
         onEnd: @escaping (PendingProviderFlow) -> Void) {
        self.redirectTarget = matcher.redirectTarget
        self.matcher = matcher
        self.receiver = receiver
        self.completion = completion
        self.onEnd = onEnd
    }

    /// The `state` a redirect must carry; nil until known (every redirect is rejected until then).
    /// Setting it also tells the loopback receiver.
    var expectedState: String? {
        get { matcher.expectedState }
        set {
            matcher.expectedState = newValue
            receiver?.expectedState = newValue
        }
    }

    /// The parameter `expectedState` comes back in: `state`, or `oauth_token` for OAuth 1.0a
    /// providers. Setting it also tells the loopback receiver.
    var correlationParameter: String {
        get { matcher.correlationParameter }
        set {
            matcher.correlationParameter = newValue
            receiver?.correlationParameter = newValue
        }
    }

    /// Whether the completion has yet to run.
    var isPending: Bool { completion != nil }

    /// A URL the host was handed (`hearth_auth_handle_url`): `.consumed` and `.failed` complete the
    /// flow with it; `.rejected` and `.notOurs` leave it waiting. After the flow ended every URL is
    /// `.notOurs`.
    package func handle(url: String, postBody: String? = nil) -> RedirectMatch {
        guard isPending else { return .notOurs }
        let match = matcher.match(url: url, postBody: postBody)
        switch match {
        case .consumed(let response): finish(.success(response))
        case .failed(let error): finish(.failure(error))
        case .rejected, .notOurs: break
        }
        return match
    }

    /// Completes with `.webContextCancelled` (inside this call). No effect once ended.
    package func cancel() {
        finish(.failure(AuthError(code: .webContextCancelled, message: "The sign-in was cancelled by the app.")))
    }

    /// Ends the flow without completing it (the completion is released, never called): for app
    /// destroy. Idempotent.
    package func close() {
        completion = nil
        tearDown()
    }

    func startTimeout(on loop: EventLoop, afterMs timeoutMs: UInt64) {
        let timer = loop.makeTimer()
        // A pending flow is work in flight, like a request: it keeps the host's loop running until the
        // user finishes, cancels, or the timeout passes (a Hearth-only host loop would not even poll the
        // receiver otherwise).
        timer.keepsLoopAlive = true
        timer.start(afterMs: timeoutMs) { [weak self] in
            let seconds = Double(timeoutMs) / 1000
            self?.finish(.failure(AuthError(
                code: .webContextCancelled,
                message: "The sign-in was not completed in the browser within \(seconds) seconds; it timed out.")))
        }
        self.timer = timer
    }

    /// The loopback receiver's answer.
    func receiverCompleted(_ result: Result<RedirectResponse, AuthError>) {
        finish(result)
    }

    private func finish(_ result: Result<RedirectResponse, AuthError>) {
        guard let completion else { return }
        self.completion = nil
        tearDown()
        completion(result)
    }

    private func tearDown() {
        timer?.close()
        timer = nil
        // Silent: the receiver's own completion only forwards here. A page it is still sending
        // finishes, because a completed receiver keeps that one connection until it is done.
        if let receiver, receiver.isWaiting { receiver.close() }
        let onEnd = self.onEnd
        self.onEnd = nil
        onEnd?(self)
    }
}
