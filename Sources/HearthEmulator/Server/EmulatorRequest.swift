/// A request as the responder sees it, whichever server read it off the connection.
struct EmulatorRequest: Sendable {
    enum Body: Sendable {
        case bytes([UInt8])
        /// Longer than the server accepts (`RequestBodyBuffer.limit`); the bytes were not kept.
        case tooLarge
    }

    var method: HTTPMethod
    /// The path as sent (still percent-encoded).
    var path: String
    /// Everything after `?`, if anything.
    var query: String?
    var headers: RequestHeaders
    var body: Body

    init(method: HTTPMethod, path: String, query: String?, headers: RequestHeaders, body: Body) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }

    /// Splits a request target (`/path?query`, or an absolute `http://host/path?query`) as
    /// Hummingbird's URI did: no path is `/`, an empty query is none, a `#fragment` is dropped.
    init(method: HTTPMethod, target: String, headers: RequestHeaders, body: Body) {
        if let (path, query) = Self.splitOriginForm(target) {
            self.init(method: method, path: path, query: query, headers: headers, body: body)
            return
        }
        var rest = Substring(target)
        if !rest.hasPrefix("/"), let schemeEnd = rest.range(of: "://") {
            rest = rest[schemeEnd.upperBound...]
            rest = rest[(rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex)...]
        }
        let queryStart = rest.firstIndex(of: "?")
        let path = rest[..<(queryStart ?? rest.endIndex)]
        var query: Substring?
        if let queryStart {
            let afterMark = rest[rest.index(after: queryStart)...]
            let fragment = afterMark.firstIndex(of: "#") ?? afterMark.endIndex
            query = afterMark.isEmpty ? nil : afterMark[..<fragment]
        }
        self.init(method: method, path: path.isEmpty ? "/" : String(path), query: query.map(String.init),
                  headers: headers, body: body)
    }
}

extension EmulatorRequest {
    /// The usual target, ASCII `/path?query` without a fragment, split over bytes (each byte is one
    /// Character there, so the split is the one above); nil for anything else.
    fileprivate static func splitOriginForm(_ target: String) -> (path: String, query: String?)? {
        let bytes = target.utf8
        guard bytes.first == UInt8(ascii: "/"),
              !bytes.contains(where: { $0 >= 0x80 || $0 == UInt8(ascii: "#") }) else { return nil }
        guard let mark = bytes.firstIndex(of: UInt8(ascii: "?")) else { return (target, nil) }
        let afterMark = bytes.index(after: mark)
        let query = afterMark == bytes.endIndex ? nil : String(Substring(bytes[afterMark...]))
        return (String(Substring(bytes[..<mark])), query)
    }
}

/// The request header fields the emulator reads, picked out of the header list in one pass.
/// Names compare case-insensitively; a field sent more than once reads as its values joined by ", ".
struct RequestHeaders: Sendable {
    var authorization: String?
    /// `x-goog-api-key`
    var apiKey: String?
    var contentType: String?
    /// `X-Firebase-Locale`
    var locale: String?
    var origin: String?
    var accessControlRequestMethod: String?
    var accessControlRequestHeaders: String?
    var accessControlRequestPrivateNetwork: String?
    var acceptEncoding: String?
    var host: String?
    var accept: String?

    init() {}

    init(_ fields: some Sequence<(name: String, value: String)>) {
        for (name, value) in fields { add(name: name, value: value) }
    }

    mutating func add(name: String, value: String) {
        switch Field(name: name) {
        case .authorization: Self.append(value, to: &authorization)
        case .apiKey: Self.append(value, to: &apiKey)
        case .contentType: Self.append(value, to: &contentType)
        case .locale: Self.append(value, to: &locale)
        case .origin: Self.append(value, to: &origin)
        case .accessControlRequestMethod: Self.append(value, to: &accessControlRequestMethod)
        case .accessControlRequestHeaders: Self.append(value, to: &accessControlRequestHeaders)
        case .accessControlRequestPrivateNetwork: Self.append(value, to: &accessControlRequestPrivateNetwork)
        case .acceptEncoding: Self.append(value, to: &acceptEncoding)
        case .host: Self.append(value, to: &host)
        case .accept: Self.append(value, to: &accept)
        case nil: break
        }
    }

    private static func append(_ value: String, to field: inout String?) {
        field = field.map { $0 + ", " + value } ?? value
    }

    private enum Field: CaseIterable {
        case authorization, apiKey, contentType, locale, origin, accessControlRequestMethod,
             accessControlRequestHeaders, accessControlRequestPrivateNetwork, acceptEncoding, host, accept

        /// Lowercase.
        var name: String {
            switch self {
            case .authorization: "authorization"
            case .apiKey: "x-goog-api-key"
            case .contentType: "content-type"
            case .locale: "x-firebase-locale"
            case .origin: "origin"
            case .accessControlRequestMethod: "access-control-request-method"
            case .accessControlRequestHeaders: "access-control-request-headers"
            case .accessControlRequestPrivateNetwork: "access-control-request-private-network"
            case .acceptEncoding: "accept-encoding"
            case .host: "host"
            case .accept: "accept"
            }
        }

        private static let names = allCases.map { ($0, Array($0.name.utf8)) }

        init?(name: String) {
            var name = name
            let found = name.withUTF8 { bytes in
                Self.names.first { _, candidate in
                    candidate.count == bytes.count
                        && zip(candidate, bytes).allSatisfy { $0 == ($1 | (($1 &- 0x41) < 26 ? 0x20 : 0)) }
                }?.0
            }
            guard let found else { return nil }
            self = found
        }
    }
}
