// The seam between the backend RPC layer and the wire. The backend builds HTTPRequests and decodes
// HTTPResponses; a transport (libcurl on the loop in production, a fake in tests) moves the bytes.

/// One HTTP request, fully formed: absolute URL, headers, body.
package struct HTTPRequest: Sendable, Equatable {
    package var method: String
    package var url: String
    /// Header lines as (name, value) pairs, in order.
    package var headers: [(name: String, value: String)]
    package var body: [UInt8]
    /// Per-request timeout in milliseconds; nil uses the transport's default.
    package var timeoutMs: Int?

    package init(method: String = "POST", url: String, headers: [(name: String, value: String)] = [],
                body: [UInt8] = [], timeoutMs: Int? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeoutMs = timeoutMs
    }

    package func header(_ name: String) -> String? {
        let lower = name.lowercased()
        return headers.first { $0.name.lowercased() == lower }?.value
    }

    package static func == (a: HTTPRequest, b: HTTPRequest) -> Bool {
        a.method == b.method && a.url == b.url && a.body == b.body && a.timeoutMs == b.timeoutMs
            && a.headers.map { "\($0.name): \($0.value)" } == b.headers.map { "\($0.name): \($0.value)" }
    }
}

/// A complete response (any status).
package struct HTTPResponse: Sendable, Equatable {
    package var status: Int
    package var body: [UInt8]
    package var contentType: String?

    package init(status: Int, body: [UInt8], contentType: String? = nil) {
        self.status = status
        self.body = body
        self.contentType = contentType
    }
}

/// Why no response arrived. All of these surface to hosts as NETWORK_REQUEST_FAILED, except
/// `cancelled` (CANCELLED).
package enum TransportError: Error, Sendable, Equatable {
    /// Connection refused / reset, DNS failure, TLS failure, malformed HTTP...: curl's own text.
    case network(String)
    /// The per-request timeout passed.
    case timedOut(String)
    /// The request was cancelled (app destroyed, operation cancelled).
    case cancelled
}

/// Identifies an in-flight request so it can be cancelled.
package struct RequestID: Hashable, Sendable {
    package let rawValue: UInt64
    package init(_ rawValue: UInt64) { self.rawValue = rawValue }
}

/// Moves HTTP requests. Threading: `send` and `cancel` are called on the loop thread only; the
/// completion runs on the loop thread, exactly once, and never inside `send` itself.
package protocol HTTPTransport: AnyObject {
    @discardableResult
    func send(_ request: HTTPRequest,
              completion: @escaping (Result<HTTPResponse, TransportError>) -> Void) -> RequestID
    /// Cancels one request: its completion runs (later, on the loop) with `.cancelled` unless it
    /// already completed.
    func cancel(_ id: RequestID)
    /// The app is going away: aborts every request in flight without completing it, and later sends
    /// fail with `.cancelled`. Idempotent.
    func close()
}
