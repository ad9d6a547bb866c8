import CLibUV
import HearthBackend
import HearthTransport

/// The one-shot loopback redirect receiver of the desktop provider flow (RFC 8252 §7.3): an HTTP
/// server on 127.0.0.1 only, served on the app's loop, that waits for the browser to be redirected
/// to `redirectURI` with the flow's `state`, answers it with a small "return to the app" page, and
/// stops listening.
///
/// Requests, each on its own connection (`Connection: close`):
/// - GET `callbackPath` (or POST there with an `application/x-www-form-urlencoded` body, the IdP's
///   `response_mode=form_post`) whose `state` matches → 200 page; the completion gets the full URL
///   `http://127.0.0.1:PORT/path?query` (and the form body); the socket is closed at once, so a
///   replay is refused by the operating system.
/// - Same, `state` matching, but the IdP reports an error (`error=access_denied`, `firebaseError=`):
///   200 page saying so; the completion gets the mapped error (`RedirectErrorMapping`).
/// - Missing or wrong `state` → 400 page; keeps listening. Other paths (e.g. /favicon.ico) → 404;
///   other methods → 405; a `Host` other than 127.0.0.1:PORT / localhost:PORT (DNS rebinding) → 400;
///   malformed HTTP → 400 (431 for headers over the limit, 413 for a body over it, 501 for
///   Transfer-Encoding); each closes its connection and the receiver keeps listening.
/// - A connection that has not delivered its request within `requestTimeoutMs` (from accept) gets
///   408, or is closed if it sent nothing (a browser's unused preconnection).
///
/// Completion: exactly once, on the loop thread, unless the receiver is closed silently first:
/// - `cancel()` → `.webContextCancelled` (HEARTH_ERROR_WEB_CONTEXT_CANCELLED, 56), inside `cancel`.
/// - `timeoutMs` passed → `.webContextCancelled` with a message that says it timed out (the browser
///   flow ended without an answer, like a closed window; HEARTH_ERROR_TIMED_OUT stays reserved for
///   `hearth_future_wait`).
/// - `close()` (what the loop calls at shutdown, i.e. app destroy) → no completion ever; the
///   completion closure is released.
///
/// Keeping the loop alive follows `EventLoop.idleHandlesKeepLoopAlive`: waiting for the browser is
/// idle time, so the listening socket and the overall timer keep an owned loop (and a host loop
/// borrowed with `idleHandlesKeepLoopAlive: true`) running, but never a default borrowed host loop's
/// `uv_run(UV_RUN_DEFAULT)` on their own. So on such a loop the receiver accepts only while the
/// loop is alive for another reason (the host's own handles); a host whose loop holds nothing else
/// must borrow with `idleHandlesKeepLoopAlive: true` (see `EventLoop`). An accepted connection is
/// work in flight and keeps any loop alive until it closes (at most `requestTimeoutMs` plus a short
/// linger).
///
/// Lifetime: registered with the loop from start until every socket is closed; the loop's shutdown
/// closes it. All methods: loop thread only.
package final class LoopbackRedirectReceiver: LoopOwnedHandle {
    package struct Options: Sendable {
        /// 0: a free port the system picks (recommended; RFC 8252 §7.3). Another value must be free,
        /// or `start` throws `.invalidArgument`.
        package var port: UInt16 = 0
        /// Where the browser is sent back to: "/" followed by printable ASCII, no '?' or '#'.
        var callbackPath = "/__/auth/callback"
        /// How long to wait for the browser at most; nil: until `cancel` or `close`.
        package var timeoutMs: UInt64? = 600_000
        /// Per connection, from accept to the end of the request.
        package var requestTimeoutMs: UInt64 = 10_000
        var maximumHeadBytes = 16 * 1024
        /// Apple's form_post bodies (code, id_token, state, user) are a few KiB.
        var maximumBodyBytes = 64 * 1024
        /// Connections open at once; more are closed on accept.
        var maximumConnections = 16

        package init() {}
    }

    package typealias Completion = (Result<RedirectResponse, AuthError>) -> Void

    /// The port the receiver listens on (the chosen one when `Options.port` was 0).
    package private(set) var port: UInt16 = 0
    /// `http://127.0.0.1:PORT` + `callbackPath`: the redirect target (continueUri, redirect_uri).
    package private(set) var redirectURI = ""

    private let loop: EventLoop
    private let options: Options
    private var matcher: RedirectURLMatcher?
    private var completion: Completion?
    private var listener: LoopTCPListener?
    private var timeout: LoopTimer?
    private var exchanges: [ObjectIdentifier: LoopbackExchange] = [:]
    private var registered = false

    /// Starts listening. Loop thread only.
    ///
    /// - Parameter expectedState: the flow's `state`; nil if it is known only later (e.g. it comes
    ///   from createAuthUri's `authUri`, which needs `redirectURI` first): set `expectedState` then;
    ///   until it is set every callback request gets 400.
    /// - Throws: `.invalidArgument` for bad options or a requested port that is taken;
    ///   `.appDestroyed` once the loop has shut down; `.webInternalError` if the system refuses the
    ///   socket otherwise; `.failure` off the loop thread.
    package static func start(on loop: EventLoop, expectedState: String?, options: Options = Options(),
                             completion: @escaping Completion) throws(AuthError) -> LoopbackRedirectReceiver {
        guard loop.isLoopThread else {
            throw AuthError(code: .failure, message: "The loopback redirect receiver must be started on the loop thread.")
        }
        try validate(options)
        let receiver = LoopbackRedirectReceiver(loop: loop, options: options, completion: completion)
        guard loop.adopt(receiver) else {
            throw AuthError(code: .appDestroyed, message: "The app's loop has shut down; no redirect receiver can start.")
        }
        receiver.registered = true
        do {
            try receiver.listen(expectedState: expectedState)
        } catch {
            receiver.close()
            throw error
        }
        return receiver
    }

    private init(loop: EventLoop, options: Options, completion: @escaping Completion) {
        self.loop = loop
        self.options = options
        self.completion = completion
    }

    /// The flow's `state`; requests must carry exactly this one.
    var expectedState: String? {
        get { matcher?.expectedState }
        set { matcher?.expectedState = newValue }
    }

    /// The parameter `expectedState` comes back in (see `RedirectURLMatcher.correlationParameter`).
    var correlationParameter: String {
        get { matcher?.correlationParameter ?? RedirectURLMatcher.stateParameter }
        set { matcher?.correlationParameter = newValue }
    }

    /// Whether the receiver still waits for the browser (not completed, cancelled or closed).
    var isWaiting: Bool { completion != nil }

    /// The address the listening socket is bound to, as the system reports it (getsockname); nil
    /// once it stopped listening.
    var localAddress: (host: String, port: UInt16)? { listener?.localAddress }

    /// Completes with `.webContextCancelled` (inside this call) and closes. No effect once completed.
    package func cancel() {
        finish(.failure(AuthError(code: .webContextCancelled, message: "The sign-in was cancelled by the app.")),
               keeping: nil)
    }

    /// Closes everything at once without completing (the completion is released, never called):
    /// for app destroy; the loop calls it at shutdown. A page being sent is cut off. Idempotent.
    package func close() {
        completion = nil
        closeSockets(keeping: nil)
        for exchange in Array(exchanges.values) { exchange.close() }
        unregisterIfIdle()
    }

    // MARK: Listening

    private static func validate(_ options: Options) throws(AuthError) {
        let path = options.callbackPath.utf8
        guard path.first == UInt8(ascii: "/"), path.count <= 1024,
              path.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") })
        else {
            throw AuthError(code: .invalidArgument,
                            message: "The callback path must start with '/' and hold only printable ASCII without '?' or '#'.")
        }
        guard options.requestTimeoutMs > 0, options.timeoutMs != 0, options.maximumHeadBytes >= 1024,
              options.maximumBodyBytes >= 0, options.maximumConnections >= 1
        else {
            throw AuthError(code: .invalidArgument, message: "The loopback receiver's limits must be positive.")
        }
    }

    private func listen(expectedState: String?) throws(AuthError) {
        let listener: LoopTCPListener
        do {
            listener = try LoopTCPListener(loop: loop)
        } catch {
            throw AuthError(code: .webInternalError, message: "Could not create the loopback receiver's socket: \(error).")
        }
        self.listener = listener
        do {
            try listener.listen(port: options.port, backlog: Int32(options.maximumConnections)) { [weak self] connection in
                self?.accepted(connection)
            }
        } catch {
            throw Self.listenError(error, port: options.port)
        }
        guard let address = listener.localAddress else {
            throw AuthError(code: .webInternalError, message: "The loopback receiver's socket has no local address.")
        }
        port = address.port
        redirectURI = "http://127.0.0.1:\(port)\(options.callbackPath)"
        matcher = try RedirectURLMatcher(redirectTarget: redirectURI, expectedState: expectedState)
        if let timeoutMs = options.timeoutMs {
            let timer = loop.makeTimer()
            timer.start(afterMs: timeoutMs) { [weak self] in
                let seconds = Double(timeoutMs) / 1000
                self?.finish(.failure(AuthError(
                    code: .webContextCancelled,
                    message: "The sign-in was not completed in the browser within \(seconds) seconds; it timed out.")),
                    keeping: nil)
            }
            timeout = timer
        }
    }

    private static func listenError(_ error: LoopError, port: UInt16) -> AuthError {
        if error.code == UV_EADDRINUSE.rawValue || error.code == UV_EACCES.rawValue {
            return AuthError(code: .invalidArgument,
                             message: "The loopback receiver cannot listen on 127.0.0.1:\(port): \(error). Choose another port, or 0 for any free one.")
        }
        return AuthError(code: .webInternalError, message: "The loopback receiver cannot listen on 127.0.0.1: \(error).")
    }

    private func accepted(_ connection: LoopTCPConnection) {
        guard isWaiting, exchanges.count < options.maximumConnections else {
            connection.close()
            return
        }
        let limits = LoopbackExchange.Limits(maximumHeadBytes: options.maximumHeadBytes,
                                             maximumBodyBytes: options.maximumBodyBytes,
                                             requestTimeoutMs: options.requestTimeoutMs)
        let exchange = LoopbackExchange(
            connection: connection, timer: loop.makeTimer(), limits: limits,
            onRequest: { [weak self] exchange, request in
                guard let self else { return exchange.close() }
                self.handle(request, on: exchange)
            },
            onClosed: { [weak self] exchange in
                guard let self else { return }
                self.exchanges[ObjectIdentifier(exchange)] = nil
                self.unregisterIfIdle()
            })
        exchanges[ObjectIdentifier(exchange)] = exchange
        exchange.start()
    }

    // MARK: Requests

    private func handle(_ request: LoopbackHTTPRequest, on exchange: LoopbackExchange) {
        switch decide(request) {
        case .answer(let page):
            exchange.answer(page)
        case .finish(let page, let result):
            // The page is queued before the completion runs: whatever the completion does next
            // (start another flow, close this receiver) comes after it.
            exchange.answer(page)
            finish(result, keeping: exchange)
        }
    }

    private enum Decision {
        case answer(LoopbackResponsePage)
        case finish(LoopbackResponsePage, Result<RedirectResponse, AuthError>)
    }

    private func decide(_ request: LoopbackHTTPRequest) -> Decision {
        guard isWaiting, let matcher else { return .answer(.notThisSignIn) }
        guard request.method == "GET" || request.method == "POST" else { return .answer(.methodNotAllowed) }
        guard request.target.hasPrefix("/") else { return .answer(.malformed(status: 400)) }
        guard request.path == options.callbackPath else { return .answer(.notFound) }
        if let host = request.header("host"), !isOwnHost(host) { return .answer(.malformed(status: 400)) }

        var postBody: String?
        if request.method == "POST" {
            let mediaType = Self.mediaType(request.header("content-type") ?? "")
            guard mediaType == "application/x-www-form-urlencoded" else { return .answer(.unsupportedMediaType) }
            guard let body = String(validating: request.body, as: UTF8.self) else {
                return .answer(.malformed(status: 400))
            }
            postBody = body
        }

        let url = "http://127.0.0.1:\(port)\(request.target)"
        switch matcher.match(url: url, postBody: postBody) {
        case .consumed(let response):
            return .finish(.signedIn, .success(response))
        case .failed(let error):
            return .finish(.signInFailed, .failure(error))
        case .rejected:
            return .answer(.notThisSignIn)
        case .notOurs:
            return .answer(.notFound)
        }
    }

    /// The Host a browser sends for `redirectURI` (or for localhost, which some tools substitute).
    private func isOwnHost(_ host: String) -> Bool {
        let host = host.lowercased()
        return host == "127.0.0.1:\(port)" || host == "localhost:\(port)"
    }

    /// "Application/X-WWW-Form-URLEncoded; charset=UTF-8" → "application/x-www-form-urlencoded".
    private static func mediaType(_ contentType: String) -> String {
        let type = contentType.prefix { $0 != ";" }
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = type.firstIndex(where: { !isSpace($0) }), let last = type.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return type[first...last].lowercased()
    }

    // MARK: Ending

    /// Completes once: closes the listening socket and the timer first, then every connection but
    /// `keeping` (which is sending the final page), then calls the completion.
    private func finish(_ result: Result<RedirectResponse, AuthError>, keeping: LoopbackExchange?) {
        guard let completion else { return }
        self.completion = nil
        closeSockets(keeping: keeping)
        unregisterIfIdle()
        completion(result)
    }

    private func closeSockets(keeping: LoopbackExchange?) {
        listener?.close()
        listener = nil
        timeout?.close()
        timeout = nil
        for exchange in Array(exchanges.values) where exchange !== keeping { exchange.close() }
    }

    /// Once nothing is left to close, the loop need not close this receiver at shutdown.
    private func unregisterIfIdle() {
        guard registered, completion == nil, listener == nil, exchanges.isEmpty else { return }
        registered = false
        loop.unregister(self)
    }
}
