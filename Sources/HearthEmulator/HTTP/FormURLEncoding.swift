/// `application/x-www-form-urlencoded` text, used by query strings, IdP responses and the JS SDK's
/// token refresh body. Parsing follows the WHATWG URL standard's `URLSearchParams`.
enum FormURLEncoding {
    /// Pairs in order; a name without `=` has an empty value. Decoding never fails: a `%` that does
    /// not start an escape stays as it is, and bytes that are not UTF-8 become U+FFFD.
    static func parse(_ text: Substring) -> [(name: String, value: String)] {
        if let pairs = parseASCII(text) { return pairs }
        return text.split(separator: "&", omittingEmptySubsequences: true).map { part in
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = decode(pieces[0])
            let value = pieces.count > 1 ? decode(pieces[1]) : ""
            return (name, value)
        }
    }

    /// `parse` over bytes, for ASCII text (every query a client sends percent-encoded), where each
    /// byte is one Character and splitting bytes splits the same Characters. nil for anything else.
    private static func parseASCII(_ text: Substring) -> [(name: String, value: String)]? {
        let bytes = text.utf8
        guard !bytes.contains(where: { $0 >= 0x80 }) else { return nil }
        var pairs: [(name: String, value: String)] = []
        var partStart = bytes.startIndex
        while partStart < bytes.endIndex {
            let partEnd = bytes[partStart...].firstIndex(of: UInt8(ascii: "&")) ?? bytes.endIndex
            if partStart < partEnd {
                let part = bytes[partStart..<partEnd]
                if let equals = part.firstIndex(of: UInt8(ascii: "=")) {
                    pairs.append((decode(Substring(part[..<equals])), decode(Substring(part[part.index(after: equals)...]))))
                } else {
                    pairs.append((decode(Substring(part)), ""))
                }
            }
            partStart = partEnd < bytes.endIndex ? bytes.index(after: partEnd) : partEnd
        }
        return pairs
    }

    static func decode(_ text: Substring) -> String {
        // Every request's query (`key=...`) comes through here; most values have nothing to decode.
        if !text.utf8.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "%") }) { return String(text) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var input = Array(text.utf8)[...]
        while let byte = input.popFirst() {
            if byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), input.count >= 2,
                      let high = hexValue(input[input.startIndex]),
                      let low = hexValue(input[input.startIndex + 1]) {
                bytes.append(high << 4 | low)
                input = input.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Percent-encodes everything but ASCII letters, digits and `-._~` (RFC 3986 unreserved), so the
    /// result is safe in any query, form body or path segment.
    static func encodeComponent(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isUnreserved(byte) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "%" + String(hexDigits[Int(byte >> 4)]) + String(hexDigits[Int(byte & 0x0F)])
            }
        }
        return out
    }

    /// `name=value&…` with every name and value encoded.
    static func serialize(_ pairs: [(name: String, value: String)]) -> String {
        pairs.map { "\(encodeComponent($0.name))=\(encodeComponent($0.value))" }.joined(separator: "&")
    }

    /// The WHATWG `application/x-www-form-urlencoded` serializer (`URLSearchParams.toString()`): a
    /// space becomes `+`, and only ASCII letters, digits and `*-._` stay as they are.
    static func serializeAsURLSearchParams(_ pairs: [(name: String, value: String)]) -> String {
        func encode(_ text: String) -> String {
            var out = ""
            for byte in text.utf8 {
                switch byte {
                case UInt8(ascii: " "): out += "+"
                case UInt8(ascii: "*"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                     UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                     UInt8(ascii: "0")...UInt8(ascii: "9"):
                    out.unicodeScalars.append(Unicode.Scalar(byte))
                default:
                    out += "%" + String(hexDigits[Int(byte >> 4)]) + String(hexDigits[Int(byte & 0x0F)])
                }
            }
            return out
        }
        return pairs.map { "\(encode($0.name))=\(encode($0.value))" }.joined(separator: "&")
    }

    private static let hexDigits = Array("0123456789ABCDEF")

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
             UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// The query string of a request (or a form body), by name; the last value wins, as Express reads
/// single values. The pairs keep their order, for pages that carry them along.
struct QueryParameters: Sendable {
    // A list searched from the end (the last value wins) rather than a dictionary: a query has a
    // parameter or two, and hashing them cost more than the search on every request.
    private(set) var pairs: [(name: String, value: String)] = []

    init(_ query: String?) {
        guard let query else { return }
        pairs = FormURLEncoding.parse(Substring(query))
    }

    init(pairs: [(name: String, value: String)]) {
        self.pairs = pairs
    }

    /// These parameters, then `later` ones replacing values of the same name.
    func merging(_ later: QueryParameters) -> QueryParameters {
        QueryParameters(pairs: pairs + later.pairs)
    }

    subscript(name: String) -> String? { pairs.last { $0.name == name }?.value }

    /// The value when present and not empty.
    func nonEmpty(_ name: String) -> String? {
        self[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Each name once, with its last value, in the order names first appeared.
    var lastValues: [(name: String, value: String)] {
        var last: [String: String] = [:]
        for (name, value) in pairs { last[name] = value }
        var seen = Set<String>()
        return pairs.compactMap { pair in
            guard seen.insert(pair.name).inserted, let value = last[pair.name] else { return nil }
            return (pair.name, value)
        }
    }
}
