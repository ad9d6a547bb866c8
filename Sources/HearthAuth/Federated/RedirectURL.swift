import HearthWire

/// An absolute URL split the RFC 3986 way (`scheme:[//authority]path[?query][#fragment]`), for
/// telling whether a redirect belongs to a pending provider flow. Deliberately not `URLComponents`:
/// custom schemes such as `com.example.game:/oauth` and IdP parameters in the fragment must survive
/// exactly as sent, and nothing here may fail harder than "not a URL".
struct RedirectURL: Equatable, Sendable {
    /// Lowercased (schemes are case-insensitive).
    let scheme: String
    /// Lowercased host[:port] (userinfo included if present); nil when absent or empty, so
    /// `app:/cb` and `app:///cb` are the same place.
    let authority: String?
    /// As sent (case-sensitive, escapes not decoded); "" when empty.
    let path: String
    /// The text after the first '?', before any '#'; nil without '?'.
    let query: String?
    /// The text after the first '#'; nil without '#'.
    let fragment: String?

    /// Longer inputs are not redirects (browsers cap URLs around 2 MB; IdP redirects stay far below).
    static let maximumLength = 64 * 1024

    /// nil unless `text` (surrounding spaces and control characters ignored) starts with a valid
    /// scheme and a ':'.
    init?(parsing text: String) {
        let bytes = Array(RedirectURL.trimmed(text).utf8)
        guard !bytes.isEmpty, bytes.count <= RedirectURL.maximumLength else { return nil }
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0,
              RedirectURL.isSchemeStart(bytes[0]),
              bytes[1..<colon].allSatisfy(RedirectURL.isSchemeCharacter)
        else { return nil }
        scheme = String(decoding: bytes[..<colon], as: UTF8.self).lowercased()

        var rest = bytes[(colon + 1)...]
        if let hash = rest.firstIndex(of: UInt8(ascii: "#")) {
            fragment = String(decoding: rest[(hash + 1)...], as: UTF8.self)
            rest = rest[..<hash]
        } else {
            fragment = nil
        }
        if let question = rest.firstIndex(of: UInt8(ascii: "?")) {
            query = String(decoding: rest[(question + 1)...], as: UTF8.self)
            rest = rest[..<question]
        } else {
            query = nil
        }
        if rest.starts(with: [UInt8(ascii: "/"), UInt8(ascii: "/")]) {
            let afterSlashes = rest.dropFirst(2)
            let pathStart = afterSlashes.firstIndex(of: UInt8(ascii: "/")) ?? afterSlashes.endIndex
            let authority = String(decoding: afterSlashes[..<pathStart], as: UTF8.self).lowercased()
            self.authority = authority.isEmpty ? nil : authority
            path = String(decoding: afterSlashes[pathStart...], as: UTF8.self)
        } else {
            authority = nil
            path = String(decoding: rest, as: UTF8.self)
        }
    }

    /// Whether `other` is at this URL's place: same scheme and authority, and a path equal to this
    /// one or below it ("/oauth" covers "/oauth", "/oauth/" and "/oauth/x", not "/oauthx").
    func covers(_ other: RedirectURL) -> Bool {
        guard scheme == other.scheme, authority == other.authority else { return false }
        if path.isEmpty || path == other.path { return true }
        if path.hasSuffix("/") { return other.path.hasPrefix(path) }
        return other.path.hasPrefix(path + "/")
    }

    /// The query's fields (a literal '+' stays a '+').
    var queryFields: FormFields { FormFields(parsing: Substring(query ?? ""), plusIsSpace: false) }

    /// The fragment read as fields: implicit-grant IdPs return their parameters there.
    var fragmentFields: FormFields { FormFields(parsing: Substring(fragment ?? ""), plusIsSpace: false) }

    /// WHATWG URL parsing also strips leading and trailing C0 controls and spaces.
    static func trimmed(_ text: String) -> Substring {
        let isTrimmed: (Unicode.Scalar) -> Bool = { $0.value <= 0x20 }
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isTrimmed($0) }),
              let last = scalars.lastIndex(where: { !isTrimmed($0) })
        else { return "" }
        return Substring(scalars[first...last])
    }

    private static func isSchemeStart(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    private static func isSchemeCharacter(_ byte: UInt8) -> Bool {
        isSchemeStart(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }
}
