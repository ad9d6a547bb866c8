/// Who may use the console. The REST surface answers any origin (CORS, as Firebase's emulator
/// does), but the console's own endpoints change state on a person's behalf, so they only answer
/// the console's page:
///
/// - `Host` must be an IP address, `localhost` (or a name under it) or the `--host` name. A page of
///   another site whose name was made to resolve to this machine (DNS rebinding) is same-origin
///   with the console in the browser's eyes; only the name it was addressed by tells them apart.
/// - API requests carry the token the page was served with in `X-Hearth-Console-Token`: a custom
///   field, so another origin's script cannot send it without a CORS preflight, which the console
///   never grants, and a plain form or `no-cors` request cannot send it at all.
/// - An `Origin` (browsers send one on every write) must be the console's own, and a
///   `Sec-Fetch-Site` must say `same-origin`.
struct ConsoleAccess: Sendable {
    static let tokenField = "X-Hearth-Console-Token"

    /// Random per process: a page from an earlier run cannot act on this one.
    let token: String
    /// `--host` lowercased, when it is a name rather than an address.
    private let hostName: String

    init(host: String, token: String = ConsoleAccess.newToken()) {
        self.hostName = host.lowercased()
        self.token = token
    }

    static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef")
        return String((0..<32).map { _ in digits[Int(generator.next(upperBound: UInt8(16)))] })
    }

    /// Why `request` is refused; nil when it may go on. Pages and scripts need only an acceptable
    /// `Host` (anyone may open the console); the API needs everything above.
    func refusal(for request: ConsoleRequest, isAPI: Bool) -> ApiError? {
        guard let host = request.field("host"), acceptsHost(host) else {
            return Self.forbidden("The console answers requests addressed to an IP address, localhost or the --host name, not \"\(request.field("host") ?? "")\".")
        }
        guard isAPI else { return nil }
        if let origin = request.field("origin"), origin.lowercased() != "http://\(host.lowercased())" {
            return Self.forbidden("Cross-origin request refused: Origin \(origin) is not the console's own.")
        }
        if let site = request.field("sec-fetch-site"), site.lowercased() != "same-origin" {
            return Self.forbidden("Cross-site request refused (Sec-Fetch-Site: \(site)).")
        }
        guard let given = request.field(Self.tokenField), Self.constantTimeEqual(given, token) else {
            return Self.forbidden("The console's API answers only the console's page: \(Self.tokenField) is missing or wrong (the emulator may have been restarted; reload the page).")
        }
        return nil
    }

    /// An IP literal (`127.0.0.1`, `[::1]`), `localhost`, `*.localhost` or `--host`, with any port.
    func acceptsHost(_ value: String) -> Bool {
        let text = value.lowercased()
        var name = Substring(text)
        var port: Substring = ""
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return false }
            name = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard rest.isEmpty || rest.hasPrefix(":") else { return false }
            port = rest.dropFirst()
            guard name.contains(":"), name.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." || $0 == "%" }) else {
                return false
            }
            return port.allSatisfy(\.isASCIIDigit)
        }
        if let colon = text.firstIndex(of: ":") {
            name = text[..<colon]
            port = text[text.index(after: colon)...]
            guard !port.isEmpty, port.allSatisfy(\.isASCIIDigit) else { return false }
        }
        guard !name.isEmpty else { return false }
        return Self.isIPv4(name) || name == "localhost" || name.hasSuffix(".localhost") || name == hostName
    }

    private static func isIPv4(_ name: Substring) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in
            !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isASCIIDigit) && (Int(part) ?? 256) <= 255
        }
    }

    /// Compares every byte whatever differs first, so the time taken tells nothing of the token.
    private static func constantTimeEqual(_ given: String, _ expected: String) -> Bool {
        let a = Array(given.utf8)
        let b = Array(expected.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }

    static func forbidden(_ message: String) -> ApiError {
        ApiError(httpStatus: 403, status: "PERMISSION_DENIED", message: message, reason: "forbidden", domain: "global")
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
