/// One HTTP/1.x request as the loopback receiver needs it.
struct LoopbackHTTPRequest: Equatable {
    /// As sent (methods are case-sensitive).
    let method: String
    /// The request target as sent, e.g. "/__/auth/callback?state=…".
    let target: String
    /// Names lowercased, values with surrounding whitespace removed, in order.
    let headers: [(name: String, value: String)]
    let body: [UInt8]

    func header(_ name: String) -> String? {
        headers.first { $0.name == name }?.value
    }

    /// The target without its query and fragment.
    var path: Substring {
        target.prefix { $0 != "?" && $0 != "#" }
    }

    static func == (lhs: LoopbackHTTPRequest, rhs: LoopbackHTTPRequest) -> Bool {
        lhs.method == rhs.method && lhs.target == rhs.target && lhs.body == rhs.body
            && lhs.headers.elementsEqual(rhs.headers) { $0 == $1 }
    }
}

/// Reads one HTTP/1.0 or 1.1 request from bytes as they arrive, within fixed limits: the head
/// (request line and headers) at most `maximumHeadBytes`, a body only with `Content-Length` and at
/// most `maximumBodyBytes`. Strict where leniency would hide smuggling (obs-fold, space before ':',
/// conflicting lengths, any Transfer-Encoding); lenient where RFC 9112 allows it (bare LF line ends,
/// empty lines before the request line).
struct LoopbackHTTPRequestParser {
    enum Progress: Equatable {
        case needMore
        case complete(LoopbackHTTPRequest)
        /// Answer with this status and close the connection.
        case invalid(status: Int, reason: String)
    }

    let maximumHeadBytes: Int
    let maximumBodyBytes: Int
    private var buffer: [UInt8] = []
    private var head: (request: LoopbackHTTPRequest, bodyStart: Int, bodyLength: Int)?
    private var finished: Progress?
    private var scan = (index: 0, lineStart: 0, sawRequestLine: false)

    init(maximumHeadBytes: Int, maximumBodyBytes: Int) {
        self.maximumHeadBytes = maximumHeadBytes
        self.maximumBodyBytes = maximumBodyBytes
    }

    /// Whether nothing has arrived yet.
    var isEmpty: Bool { buffer.isEmpty }

    /// Adds received bytes. Once the result is `.complete` or `.invalid`, later calls return it again.
    mutating func consume(_ bytes: some Collection<UInt8>) -> Progress {
        if let finished { return finished }
        buffer.append(contentsOf: bytes)
        let progress = advance()
        if progress != .needMore { finished = progress }
        return progress
    }

    private mutating func advance() -> Progress {
        if head == nil {
            guard let end = headEnd() else {
                return buffer.count > maximumHeadBytes
                    ? .invalid(status: 431, reason: "The request's headers are larger than \(maximumHeadBytes) bytes.")
                    : .needMore
            }
            guard end.bodyStart <= maximumHeadBytes else {
                return .invalid(status: 431, reason: "The request's headers are larger than \(maximumHeadBytes) bytes.")
            }
            switch parseHead(buffer[..<end.headEnd]) {
            case .failure(let invalid):
                return .invalid(status: invalid.status, reason: invalid.reason)
            case .success(let parsed):
                head = (parsed.request, end.bodyStart, parsed.bodyLength)
            }
        }
        guard let head else { return .needMore }
        guard buffer.count - head.bodyStart >= head.bodyLength else { return .needMore }
        let body = Array(buffer[head.bodyStart..<(head.bodyStart + head.bodyLength)])
        return .complete(LoopbackHTTPRequest(method: head.request.method, target: head.request.target,
                                             headers: head.request.headers, body: body))
    }

    /// Where the head ends (before the empty line) and the body starts, once the empty line is here.
    /// Resumes where the previous call stopped, so a client sending a byte at a time costs linear work.
    private mutating func headEnd() -> (headEnd: Int, bodyStart: Int)? {
        while scan.index < buffer.count {
            let index = scan.index
            scan.index += 1
            guard buffer[index] == UInt8(ascii: "\n") else { continue }
            var lineEnd = index
            if lineEnd > scan.lineStart && buffer[lineEnd - 1] == UInt8(ascii: "\r") { lineEnd -= 1 }
            if lineEnd == scan.lineStart {
                // RFC 9112 §2.2: empty lines before the request line are ignored.
                if scan.sawRequestLine { return (scan.lineStart, index + 1) }
            } else {
                scan.sawRequestLine = true
            }
            scan.lineStart = index + 1
        }
        return nil
    }

    private struct Invalid: Error {
        let status: Int
        let reason: String
        static func badRequest(_ reason: String) -> Invalid { Invalid(status: 400, reason: reason) }
    }

    private func parseHead(_ bytes: ArraySlice<UInt8>) -> Result<(request: LoopbackHTTPRequest, bodyLength: Int), Invalid> {
        var lines: [ArraySlice<UInt8>] = []
        for rawLine in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            var line = rawLine
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            // Only the empty lines before the request line and the one ending the head are in
            // `bytes` (the head ends at the first empty line after the request line).
            if line.isEmpty { continue }
            if line.contains(where: { ($0 < 0x20 && $0 != UInt8(ascii: "\t")) || $0 == 0x7F }) {
                return .failure(.badRequest("The request contains control characters."))
            }
            lines.append(line)
        }
        guard let requestLine = lines.first else { return .failure(.badRequest("The request line is missing.")) }
        let parts = requestLine.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy(Self.isTokenCharacter),
              !parts[1].isEmpty, parts[1].allSatisfy({ $0 > 0x20 && $0 < 0x7F })
        else { return .failure(.badRequest("The request line is not `METHOD target HTTP/1.x`.")) }
        let version = String(decoding: parts[2], as: UTF8.self)
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else {
            return .failure(version.hasPrefix("HTTP/")
                ? Invalid(status: 505, reason: "Only HTTP/1.0 and HTTP/1.1 are supported.")
                : .badRequest("The request line is not `METHOD target HTTP/1.x`."))
        }

        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let first = line.first, first != UInt8(ascii: " "), first != UInt8(ascii: "\t") else {
                return .failure(.badRequest("Folded header lines are not accepted."))
            }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
                  line[..<colon].allSatisfy(Self.isTokenCharacter)
            else { return .failure(.badRequest("A header line is not `Name: value`.")) }
            let name = String(decoding: line[..<colon], as: UTF8.self).lowercased()
            let value = String(decoding: Self.trimmingWhitespace(line[(colon + 1)...]), as: UTF8.self)
            headers.append((name, value))
        }

        if headers.contains(where: { $0.name == "transfer-encoding" }) {
            return .failure(Invalid(status: 501, reason: "Transfer-Encoding is not supported; send Content-Length."))
        }
        let lengths = Set(headers.filter { $0.name == "content-length" }.map(\.value))
        var bodyLength = 0
        if let length = lengths.first {
            guard lengths.count == 1, !length.isEmpty, length.utf8.count <= 18,
                  length.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
                  let value = Int(length)
            else { return .failure(.badRequest("The Content-Length header is not a single number.")) }
            guard value <= maximumBodyBytes else {
                return .failure(Invalid(status: 413, reason: "The request body is larger than \(maximumBodyBytes) bytes."))
            }
            bodyLength = value
        }
        let request = LoopbackHTTPRequest(method: String(decoding: parts[0], as: UTF8.self),
                                          target: String(decoding: parts[1], as: UTF8.self),
                                          headers: headers, body: [])
        return .success((request, bodyLength))
    }

    private static let tokenPunctuation: [UInt8] = Array("!#$%&'*+-.^_`|~".utf8)

    /// RFC 9110 `tchar`.
    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return tokenPunctuation.contains(byte)
        }
    }

    private static func trimmingWhitespace(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let isWhitespace: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        guard let first = bytes.firstIndex(where: { !isWhitespace($0) }),
              let last = bytes.lastIndex(where: { !isWhitespace($0) })
        else { return [] }
        return bytes[first...last]
    }
}
