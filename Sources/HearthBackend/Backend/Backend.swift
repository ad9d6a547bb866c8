import HearthTransport

/// Runs `BackendRPC`s over an `HTTPTransport`: builds the request (URL, headers, body), sends it, and
/// completes with the decoded response or an `AuthError`.
///
/// Threading: like the transport it uses, a Backend belongs to the loop thread. `perform` and `cancel`
/// are called there, and completions run there, never inside `perform`.
package final class Backend {
    package let transport: any HTTPTransport
    private let parts = RequestParts()

    package init(transport: any HTTPTransport) {
        self.transport = transport
    }

    // Called from HearthAuth, where this generic function would run unspecialized (a `package` function's
    // body is not serialized for other modules): `Result<R.Response, AuthError>`'s metadata looked up at
    // run time, the RPC boxed through value witnesses. The RPCs of every sign-in and token refresh get
    // copies specialized here, which callers in the other modules use (bench/FINDINGS.md).
    @discardableResult
    @_specialize(exported: true, where R == SignInWithPassword)
    @_specialize(exported: true, where R == SignUp)
    @_specialize(exported: true, where R == SignInWithCustomToken)
    @_specialize(exported: true, where R == SignInWithIdp)
    @_specialize(exported: true, where R == GetAccountInfo)
    @_specialize(exported: true, where R == SecureTokenRefresh)
    package func perform<R: BackendRPC>(_ rpc: R, config: BackendConfig,
                                       completion: @escaping (Result<R.Response, AuthError>) -> Void) -> RequestID {
        let rpc = Self.scoped(rpc, config: config)
        let request = parts.request(for: rpc, config: config)
        let checks = rpc.successShapedErrors
        // The request goes into the completion for its log line only when debug logging is on as it is sent:
        // captured always, its URL, headers and body were copied into every completion.
        let logged: (request: HTTPRequest, startedMs: Int64)? =
            Log.isEnabled(.debug) ? (request, Log.monotonicMs()) : nil
        return transport.send(request) { result in
            let outcome: Result<R.Response, AuthError>
            if case .success(let response) = result, (200..<300).contains(response.status),
               let read = rpc.decode(plainSuccess: response.body) {
                outcome = read
            } else {
                outcome = ResponseClassifier.classify(result, checks: checks).flatMap { object in
                    Result { () throws(AuthError) -> R.Response in try rpc.decode(object) }
                }
            }
            if let logged { Log.debug(RequestLog.line(logged.request, result, outcome, startedMs: logged.startedMs)) }
            completion(outcome)
        }
    }

    /// Cancels a request started by `perform`: its completion runs later with `.cancelled`, unless it
    /// already ran.
    package func cancel(_ id: RequestID) {
        transport.cancel(id)
    }

    /// `rpc` as it is sent under `config`: naming the Auth's tenant when it is one of the requests that do.
    static func scoped<R: BackendRPC>(_ rpc: R, config: BackendConfig) -> R {
        guard let tenantId = config.tenantId else { return rpc }
        var scoped = rpc
        scoped.scope(toTenant: tenantId)
        return scoped
    }

    /// The HTTP request for `rpc` under `config`.
    package static func request<R: BackendRPC>(for rpc: R, config: BackendConfig) -> HTTPRequest {
        let rpc = scoped(rpc, config: config)
        let endpoint = rpc.endpoint
        let contentType = endpoint.method == "GET" ? nil : rpc.contentType
        return HTTPRequest(method: endpoint.method, url: endpoint.url(for: config),
                           headers: headers(contentType: contentType, config: config),
                           body: contentType == nil ? [] : rpc.encodeBody(), timeoutMs: config.timeoutMs)
    }

    /// The header lines of every request under `config`; `contentType` nil for a request without a body.
    static func headers(contentType: String?, config: BackendConfig) -> [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = []
        headers.reserveCapacity(4)
        if let contentType {
            headers.append((name: "Content-Type", value: contentType))
        }
        if isUsableHeaderValue(config.clientVersion) {
            headers.append((name: "X-Client-Version", value: config.clientVersion))
        }
        if let appId = config.appId, isUsableHeaderValue(appId) {
            headers.append((name: "X-Firebase-GMPID", value: appId))
        }
        if let languageCode = config.languageCode, isUsableHeaderValue(languageCode) {
            headers.append((name: "X-Firebase-Locale", value: languageCode))
        }
        return headers
    }

    /// Non-empty and free of control characters: a CR or LF from host-supplied text must never split
    /// the header block.
    static func isUsableHeaderValue(_ value: String) -> Bool {
        // Bytewise: in UTF-8 a control character is one byte below 0x80, never part of another.
        !value.isEmpty && !value.utf8.contains { $0 < 0x20 || $0 == 0x7F }
    }
}

/// `Backend.request`, with the URL of each endpoint and the header lines built once per configuration
/// rather than for every request. Loop thread only, like the backend.
final class RequestParts {
    private var config: BackendConfig?
    /// An app meets a few dozen endpoints at most, each again and again: a scan (their strings mostly the
    /// RPCs' static ones, equal by identity) costs less than hashing the endpoint per request.
    private var urls: [(endpoint: Endpoint, url: String)] = []
    private var headers: [(contentType: String?, lines: [(name: String, value: String)])] = []
    /// More than Identity Toolkit and Secure Token have endpoints without a query.
    private static let maximumCachedURLs = 64

    func request<R: BackendRPC>(for rpc: R, config: BackendConfig) -> HTTPRequest {
        if config != self.config {
            self.config = config
            urls.removeAll()
            headers.removeAll()
        }
        let endpoint = rpc.endpoint
        let contentType = endpoint.method == "GET" ? nil : rpc.contentType
        return HTTPRequest(method: endpoint.method, url: url(of: endpoint, config: config),
                           headers: lines(contentType: contentType, config: config),
                           body: contentType == nil ? [] : rpc.encodeBody(), timeoutMs: config.timeoutMs)
    }

    private func url(of endpoint: Endpoint, config: BackendConfig) -> String {
        for entry in urls where entry.endpoint == endpoint { return entry.url }
        let url = endpoint.url(for: config)
        // Endpoints with per-request query values (a provider's redirect, say) would only fill the table.
        if endpoint.query.isEmpty, urls.count < Self.maximumCachedURLs { urls.append((endpoint, url)) }
        return url
    }

    private func lines(contentType: String?, config: BackendConfig) -> [(name: String, value: String)] {
        for entry in headers where entry.contentType == contentType { return entry.lines }
        let lines = Backend.headers(contentType: contentType, config: config)
        headers.append((contentType, lines))
        return lines
    }
}
