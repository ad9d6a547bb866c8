/// Runs `BackendRPC`s over an `HTTPTransport`: builds the request (URL, headers, body), sends it, and
/// completes with the decoded response or an `AuthError`.
///
/// Threading: like the transport it uses, a Backend belongs to the loop thread. `perform` and `cancel`
/// are called there, and completions run there, never inside `perform`.
public final class Backend {
    public let transport: any HTTPTransport

    public init(transport: any HTTPTransport) {
        self.transport = transport
    }

    @discardableResult
    public func perform<R: BackendRPC>(_ rpc: R, config: BackendConfig,
                                       completion: @escaping (Result<R.Response, AuthError>) -> Void) -> RequestID {
        let request = Backend.request(for: rpc, config: config)
        let checks = rpc.successShapedErrors
        let startedMs = Log.isEnabled(.debug) ? Log.monotonicMs() : 0
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
            Log.debug(RequestLog.line(request, result, outcome, startedMs: startedMs))
            completion(outcome)
        }
    }

    /// Cancels a request started by `perform`: its completion runs later with `.cancelled`, unless it
    /// already ran.
    public func cancel(_ id: RequestID) {
        transport.cancel(id)
    }

    /// The HTTP request for `rpc` under `config`.
    public static func request<R: BackendRPC>(for rpc: R, config: BackendConfig) -> HTTPRequest {
        let endpoint = rpc.endpoint
        var headers: [(name: String, value: String)] = []
        headers.reserveCapacity(4)
        let body = endpoint.method == "GET" ? [] : rpc.encodeBody()
        if endpoint.method != "GET" {
            headers.append((name: "Content-Type", value: rpc.contentType))
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
        return HTTPRequest(method: endpoint.method, url: endpoint.url(for: config), headers: headers, body: body,
                           timeoutMs: config.timeoutMs)
    }

    /// Non-empty and free of control characters: a CR or LF from host-supplied text must never split
    /// the header block.
    static func isUsableHeaderValue(_ value: String) -> Bool {
        // Bytewise: in UTF-8 a control character is one byte below 0x80, never part of another.
        !value.isEmpty && !value.utf8.contains { $0 < 0x20 || $0 == 0x7F }
    }
}
