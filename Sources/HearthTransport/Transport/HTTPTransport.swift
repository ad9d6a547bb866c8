// The seam between the backend RPC layer and the wire. The backend builds HTTPRequests and decodes
// HTTPResponses; a transport (libcurl on the loop in production, a fake in tests) moves the bytes.

/// One HTTP request, fully formed: absolute URL, headers, body.
public struct HTTPRequest: Sendable, Equatable {
    public var method: String
    public var url: String
    /// Header lines as (name, value) pairs, in order.
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]
    /// Per-request timeout in milliseconds; nil uses the transport's default.
    public var timeoutMs: Int?

    public init(method: String = "POST", url: String, headers: [(name: String, value: String)] = [],
                body: [UInt8] = [], timeoutMs: Int? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeoutMs = timeoutMs
    }

    public func header(_ name: String) -> String? {
        let lower = name.lowercased()
        return headers.first { $0.name.lowercased() == lower }?.value
    }

    public static func == (a: HTTPRequest, b: HTTPRequest) -> Bool {
        a.method == b.method && a.url == b.url && a.body == b.body && a.timeoutMs == b.timeoutMs
            && a.headers.map { "\($0.name): \($0.value)" } == b.headers.map { "\($0.name): \($0.value)" }
    }
}

/// A complete response (any status).
public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    public var body: [UInt8]
    public var contentType: String?

    public init(status: Int, body: [UInt8], contentType: String? = nil) {
        self.status = status
        self.body = body
        self.contentType = contentType
    }
}

/// Why no response arrived. All of these surface to hosts as NETWORK_REQUEST_FAILED, except
/// `cancelled` (CANCELLED).
public enum TransportError: Error, Sendable, Equatable {
    /// Connection refused / reset, DNS failure, TLS failure, malformed HTTP...: curl's own text.
    case network(String)
    /// The per-request timeout passed.
    case timedOut(String)
    /// The request was cancelled (app destroyed, operation cancelled).
    case cancelled
}

/// Identifies an in-flight request so it can be cancelled.
public struct RequestID: Hashable, Sendable {
    public let rawValue: UInt64
    public init(_ rawValue: UInt64) { self.rawValue = rawValue }
}

/// Moves HTTP requests. Threading: `send` and `cancel` are called on the loop thread only; the
/// completion runs on the loop thread, exactly once, and never inside `send` itself.
public protocol HTTPTransport: AnyObject {
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
