import CCurl
import CHearthShims

/// One request on its way through curl: the configured easy handle, the header list curl reads
/// during the transfer, the response body as it arrives, and who to tell. Loop thread only.
final class CurlTransfer {
    let id: RequestID
    let easy: CurlEasy
    let completion: (Result<HTTPResponse, TransportError>) -> Void
    /// The host whose connections can serve it (`CheckedURLCache` numbers them), and the time it is given.
    private(set) var host = 0
    private(set) var timeoutMs = 0
    /// In curl (added to the multi and not yet removed); set by the transport.
    var isStarted = false
    /// What its completion is called with, set once curl has finished it.
    var outcome: Result<HTTPResponse, TransportError>?
    private let maxBodyBytes: Int
    /// curl reads the list during the transfer, so it is held until the handle left the multi (shared
    /// with the transport's cache and other transfers sending the same headers).
    private var headerList: CurlHeaderList?
    /// curl reads the parsed URL when the transfer starts and again if it retries on a new connection:
    /// held like `headerList` (the cache may let go of it meanwhile).
    private var url: CurlURL?
    /// Same lifetime as `headerList`.
    private var connectToList: UnsafeMutablePointer<curl_slist>?
    private var body: [UInt8] = []
    private var bodyTooLarge = false

    /// Configures `easy` for `request`; throws `.network` for a request that cannot be sent as
    /// given (bad method, header or URL characters, curl refusing an option).
    init(id: RequestID, easy: CurlEasy, request: HTTPRequest, options: CurlTransport.Options,
         checkedURLs: CheckedURLCache, headerLists: CurlHeaderListCache,
         completion: @escaping (Result<HTTPResponse, TransportError>) -> Void) throws(TransportError) {
        self.id = id
        self.easy = easy
        self.completion = completion
        self.maxBodyBytes = options.maxResponseBytes
        do {
            try configure(request: request, options: options, checkedURLs: checkedURLs, headerLists: headerLists)
        } catch {
            releaseResources()
            throw error
        }
    }

    deinit {
        releaseResources()
    }

    /// Frees what curl no longer needs; call once the easy handle is out of the multi.
    func releaseResources() {
        headerList = nil
        url = nil
        if let connectToList { curl_slist_free_all(connectToList) }
        connectToList = nil
    }

    /// The outcome, read from the easy handle before it is reused.
    func result(for code: CURLcode) -> Result<HTTPResponse, TransportError> {
        switch code {
        case CURLE_OK:
            return .success(HTTPResponse(status: easy.responseCode, body: body, contentType: easy.contentType))
        case CURLE_OPERATION_TIMEDOUT:
            return .failure(.timedOut(message(for: code)))
        case CURLE_WRITE_ERROR where bodyTooLarge:
            return .failure(.network("response body larger than \(maxBodyBytes) bytes"))
        default:
            return .failure(.network(message(for: code)))
        }
    }

    private func message(for code: CURLcode) -> String {
        easy.errorMessage ?? String(cString: curl_easy_strerror(code))
    }

    /// Called by curl's write callback with each chunk of the body; returning less than `count`
    /// makes curl abort with CURLE_WRITE_ERROR.
    fileprivate func append(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard body.count + bytes.count <= maxBodyBytes else {
            bodyTooLarge = true
            return 0
        }
        body.append(contentsOf: bytes)
        return bytes.count
    }

    // MARK: Configuration

    static let receiveBufferBytes = 4096

    private func configure(request: HTTPRequest, options: CurlTransport.Options, checkedURLs: CheckedURLCache,
                           headerLists: CurlHeaderListCache) throws(TransportError) {
        try RequestValidation.checkMethod(request.method)
        let timeoutMs = request.timeoutMs.flatMap { $0 > 0 ? $0 : nil } ?? options.defaultTimeoutMs
        self.timeoutMs = timeoutMs
        let (url, scheme, host) = try checkedURLs.parsed(request.url)
        self.url = url
        self.host = host
        // Every transfer sets its own: an easy handle keeps the last one it was given, which may be
        // freed by now.
        try apply(easy.set(CURLOPT_CURLU, pointer: UnsafeRawPointer(url.handle)), "URL")
        if easy.allowedProtocols != scheme {
            try apply(easy.set(CURLOPT_PROTOCOLS_STR, scheme), "allowed protocols")
            // Set, even when empty: with no proxy option curl reads the environment on every request.
            try apply(easy.set(CURLOPT_PROXY, options.proxies?.proxy(forScheme: scheme) ?? ""), "proxy")
            easy.allowedProtocols = scheme
        }
        if !easy.hasTransportOptions {
            try configureTransportOptions(options)
            easy.hasTransportOptions = true
        }
        if !options.connectTo.isEmpty {
            for entry in options.connectTo {
                guard let appended = entry.withCString({ curl_slist_append(connectToList, $0) }) else {
                    throw .network("out of memory building the connect-to list")
                }
                connectToList = appended
            }
            try apply(easy.set(CURLOPT_CONNECT_TO, pointer: connectToList), "connect-to")
        }
        try apply(easy.set(CURLOPT_TIMEOUT_MS, timeoutMs), "timeout")
        // Unretained: the transport holds this transfer while its handle is in the multi.
        try apply(easy.set(CURLOPT_WRITEDATA, pointer: Unmanaged.passUnretained(self).toOpaque()), "body writer")
        let headerList = try headerLists.list(for: request.headers)
        self.headerList = headerList
        try apply(easy.set(CURLOPT_HTTPHEADER, pointer: headerList.pointer), "headers")
        try configureMethodAndBody(method: request.method, body: request.body)
        easy.lastRequestNeedsReset = request.method != "POST" || !options.connectTo.isEmpty
    }

    /// A request that waited for its turn (`HostAdmission`) gets what is left of its time.
    func setRemainingTime(ms: Int) -> Bool {
        easy.set(CURLOPT_TIMEOUT_MS, max(1, ms)) == CURLE_OK
    }

    /// Options that are the same for every request of this transport: set once per handle, and again
    /// only after the handle was reset (`CurlEasy.recycle`).
    private func configureTransportOptions(_ options: CurlTransport.Options) throws(TransportError) {
        try apply(easy.set(CURLOPT_REDIR_PROTOCOLS_STR, "https"), "allowed redirect protocols")
        try apply(easy.set(CURLOPT_FOLLOWLOCATION, 0), "redirects")
        // The threaded resolver and timeouts must not use signals in a host's process.
        try apply(easy.set(CURLOPT_NOSIGNAL, 1), "NOSIGNAL")
        try apply(easy.set(CURLOPT_NOPROXY, options.proxies?.noProxy ?? ""), "hosts without a proxy")
        // Identity Toolkit answers are a few KiB: a 4 KiB receive buffer instead of curl's 16 KiB
        // per transfer in flight (bench: memory per operation with 10,000 in flight).
        try apply(easy.set(CURLOPT_BUFFERSIZE, Self.receiveBufferBytes), "receive buffer size")
        // TLS verification is curl's default; state it so no later change can silently drop it.
        try apply(easy.set(CURLOPT_SSL_VERIFYPEER, 1), "TLS peer verification")
        try apply(easy.set(CURLOPT_SSL_VERIFYHOST, 2), "TLS host verification")
        if let caBundlePath = options.caBundlePath {
            try apply(easy.set(CURLOPT_CAINFO, caBundlePath), "CA bundle")
        }
        if let userAgent = options.userAgent {
            try apply(easy.set(CURLOPT_USERAGENT, userAgent), "user agent")
        }
        // curl adds the header and inflates the body before the writer below sees it; an answer that
        // says gzip but is not fails the transfer (CURLE_BAD_CONTENT_ENCODING: a network error).
        if options.acceptsGzip && CurlGlobal.decodesGzip {
            try apply(easy.set(CURLOPT_ACCEPT_ENCODING, "gzip"), "accepted encodings")
        }
        try apply(easy.set(CURLOPT_WRITEFUNCTION, writer: { data, size, count, context in
            guard let context else { return 0 }
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
            return transfer.append(UnsafeRawBufferPointer(start: data, count: size * count))
        }), "body writer")
    }

    /// "http" or "https" (the URL's scheme, lower-cased); anything else is refused before curl sees it.
    /// Only the URL's own scheme, and only http or https: an https request can never continue as plain
    /// http, and curl never guesses a scheme for a URL without one. Redirects are answers, not
    /// followed; were one ever followed, it could only go to https.
    static func scheme(of url: String) throws(TransportError) -> String {
        guard let colon = url.utf8.firstIndex(of: UInt8(ascii: ":")), url.utf8[colon...].starts(with: "://".utf8)
        else { throw .network("unsupported URL (no scheme)") }
        let given = url.utf8[..<colon]
        if ASCII.equalsIgnoringCase(given, "https") { return "https" }
        if ASCII.equalsIgnoringCase(given, "http") { return "http" }
        throw .network("unsupported URL scheme \(String(decoding: given, as: UTF8.self).lowercased())")
    }

    private func configureMethodAndBody(method: String, body: [UInt8]) throws(TransportError) {
        switch method {
        case "GET" where body.isEmpty:
            try apply(easy.set(CURLOPT_HTTPGET, 1), "method")
        case "HEAD" where body.isEmpty:
            try apply(easy.set(CURLOPT_NOBODY, 1), "method")
        default:
            if method == "POST" || !body.isEmpty {
                // The size first: COPYPOSTFIELDS copies exactly that many bytes (binary-safe), so the
                // body need not outlive this call.
                try apply(easy.set(CURLOPT_POSTFIELDSIZE_LARGE, offset: Int64(body.count)), "body size")
                let rc = body.withUnsafeBytes { bytes in
                    // An empty array has no storage; curl still needs a valid pointer.
                    bytes.baseAddress.map { easy.set(CURLOPT_COPYPOSTFIELDS, pointer: $0) }
                        ?? easy.set(CURLOPT_COPYPOSTFIELDS, "")
                }
                try apply(rc, "body")
            }
            if method != "POST" {
                try apply(easy.set(CURLOPT_CUSTOMREQUEST, method), "method")
            }
        }
    }

    private func apply(_ code: CURLcode, _ what: String) throws(TransportError) {
        guard code == CURLE_OK else {
            throw .network("cannot set request \(what): \(String(cString: curl_easy_strerror(code)))")
        }
    }
}

/// Rejects requests that would be sent as something other than what they say: characters that
/// end a header line or a C string early would let one field smuggle in another.
enum RequestValidation {
    static func checkMethod(_ method: String) throws(TransportError) {
        guard !method.isEmpty, ASCII.allBytes(of: method, satisfy: isTokenByte) else {
            throw .network("invalid HTTP method")
        }
    }

    static func checkURL(_ url: String) throws(TransportError) {
        guard !url.isEmpty, ASCII.allBytes(of: url, satisfy: { !isControlByte($0) }) else {
            throw .network("invalid URL")
        }
    }

    /// Run by `CurlHeaderList`, so no list curl sends was built from headers that failed it.
    static func checkHeaders(_ headers: [(name: String, value: String)]) throws(TransportError) {
        for header in headers {
            guard !header.name.isEmpty, ASCII.allBytes(of: header.name, satisfy: isTokenByte) else {
                throw .network("invalid header name")
            }
            guard ASCII.allBytes(of: header.value, satisfy: { !isControlByte($0) || $0 == UInt8(ascii: "\t") }) else {
                throw .network("invalid value for header \(header.name)")
            }
        }
    }

    /// RFC 9110 token characters.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
             UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
             UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    private static func isControlByte(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x7F
    }
}

/// The URLs of recent requests that passed `RequestValidation.checkURL`, parsed by curl, with their
/// schemes: a backend sends every request of one RPC to the same URL, and checking it byte by byte,
/// reading its scheme and having curl parse it again cost ~22,000 instructions per request (bench,
/// issue 5). Loop thread only, like the transport.
final class CheckedURLCache {
    /// A sign-in alternates between two or three endpoints; a few more cover the rest of a session.
    static let capacity = 8
    private var entries: [(text: String, url: CurlURL, scheme: String, host: Int)] = []
    /// A small number for each "scheme://host:port" seen (`CurlURL.connectionKey`), never forgotten: a
    /// transport talks to a handful of hosts.
    private var hostNumbers: [String: Int] = [:]
    private var nextEvicted = 0

    /// `text` parsed, its scheme ("http" or "https") and its host's number, once it passed the checks;
    /// throws what they throw. A refused URL is not remembered: it is refused again every time.
    func parsed(_ text: String) throws(TransportError) -> (url: CurlURL, scheme: String, host: Int) {
        for entry in entries where entry.text == text { return (entry.url, entry.scheme, entry.host) }
        try RequestValidation.checkURL(text)
        let scheme = try CurlTransfer.scheme(of: text)
        let url = try CurlURL(text)
        let key = url.connectionKey(scheme: scheme)
        let host = hostNumbers[key] ?? hostNumbers.count
        hostNumbers[key] = host
        if entries.count < Self.capacity {
            entries.append((text, url, scheme, host))
        } else {
            entries[nextEvicted] = (text, url, scheme, host)
            nextEvicted = (nextEvicted + 1) % Self.capacity
        }
        return (url, scheme, host)
    }
}

/// Byte-level helpers for protocol text, which is ASCII by definition.
enum ASCII {
    /// Whether `bytes` spell `lowercase` (given in lower case), ignoring ASCII case.
    static func equalsIgnoringCase(_ bytes: some Collection<UInt8>, _ lowercase: StaticString) -> Bool {
        guard bytes.count == lowercase.utf8CodeUnitCount else { return false }
        let expected = UnsafeBufferPointer(start: lowercase.utf8Start, count: lowercase.utf8CodeUnitCount)
        var index = 0
        for byte in bytes {
            let lowered = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
            if lowered != expected[index] { return false }
            index += 1
        }
        return true
    }

    /// Whether every UTF-8 byte of `text` satisfies `predicate`, read from contiguous storage.
    /// Inlined so the predicate is not a call per byte (every request's URL and headers pass here).
    @inline(__always)
    static func allBytes(of text: String, satisfy predicate: (UInt8) -> Bool) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            for byte in bytes where !predicate(byte) { return false }
            return true
        }
    }
}
