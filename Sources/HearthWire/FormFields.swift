/// The `name=value` pairs of a URL query, a URL fragment or an `application/x-www-form-urlencoded`
/// body, in their order, duplicates kept (a redirect may repeat a name; the caller decides what that
/// means).
///
/// Parsing never fails: empty segments are skipped, a segment without '=' is a name with an empty
/// value, malformed escapes stay literal, and bytes that do not decode to UTF-8 become U+FFFD.
package struct FormFields: Equatable, Sendable {
    package struct Field: Equatable, Sendable {
        package let name: String
        package let value: String

        package init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    package let fields: [Field]

    /// - Parameter plusIsSpace: true only for form bodies. In a URL query or fragment '+' is a
    ///   literal plus (RFC 3986); treating it as a space would corrupt base64 values such as tokens.
    package init(parsing text: Substring, plusIsSpace: Bool) {
        var fields: [Field] = []
        for segment in text.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            if let equals = segment.firstIndex(of: UInt8(ascii: "=")) {
                let name = PercentDecoding.decode(segment[..<equals], plusIsSpace: plusIsSpace)
                let value = PercentDecoding.decode(segment[segment.index(after: equals)...], plusIsSpace: plusIsSpace)
                fields.append(Field(name: name, value: value))
            } else {
                fields.append(Field(name: PercentDecoding.decode(segment, plusIsSpace: plusIsSpace), value: ""))
            }
        }
        self.fields = fields
    }

    package init(_ fields: [Field]) {
        self.fields = fields
    }

    /// The fields as `(name, value)` pairs, in order.
    package var pairs: [(name: String, value: String)] {
        fields.map { ($0.name, $0.value) }
    }

    /// Every value of `name`, in order.
    package func values(of name: String) -> [String] {
        fields.filter { $0.name == name }.map(\.value)
    }

    /// The first value of `name`.
    package func first(_ name: String) -> String? {
        fields.first { $0.name == name }?.value
    }

    /// These fields followed by `other`'s.
    package func appending(_ other: FormFields) -> FormFields {
        FormFields(fields + other.fields)
    }
}

/// `%XX` decoding for URL components and form bodies.
package enum PercentDecoding {
    /// Decodes `%XX` escapes (either case). A '%' not followed by two hex digits stays as it is;
    /// the decoded bytes are read as UTF-8 with invalid sequences replaced by U+FFFD.
    package static func decode<Bytes: Collection<UInt8>>(_ bytes: Bytes, plusIsSpace: Bool) -> String {
        // Most names and values (every request's `key=...`) have nothing to decode.
        if !bytes.contains(where: { $0 == UInt8(ascii: "%") || ($0 == UInt8(ascii: "+") && plusIsSpace) }) {
            return String(decoding: bytes, as: UTF8.self)
        }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                let first = bytes.index(after: index)
                if first < bytes.endIndex {
                    let second = bytes.index(after: first)
                    if second < bytes.endIndex, let high = hexValue(bytes[first]), let low = hexValue(bytes[second]) {
                        out.append(high << 4 | low)
                        index = bytes.index(after: second)
                        continue
                    }
                }
                out.append(byte)
            } else if byte == UInt8(ascii: "+") && plusIsSpace {
                out.append(UInt8(ascii: " "))
            } else {
                out.append(byte)
            }
            index = bytes.index(after: index)
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
