import CHearthWire

/// Percent-encoding with the RFC 3986 unreserved set (ALPHA / DIGIT / "-" / "." / "_" / "~") left as is:
/// every other byte of the UTF-8 text becomes %XX. JavaScript's encodeURIComponent minus its extra safe
/// characters, so safe in a query value, a form body and a path segment alike (notably '+' becomes %2B).
package enum PercentEncoding {
    package static func encode(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        append(text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Runs of unreserved bytes are found sixteen at a time (`hearth_scan_unreserved`) and copied
    /// whole: the refresh token in every token refresh's body is a few hundred bytes of them.
    package static func append(_ text: String, to out: inout [UInt8]) {
        var text = text
        text.withUTF8 { utf8 in
            guard let base = utf8.baseAddress else { return }
            out.reserveCapacity(out.count + utf8.count + 16)
            var index = 0
            while index < utf8.count {
                let run = hearth_scan_unreserved(base + index, utf8.count - index)
                if run > 0 { out.append(contentsOf: UnsafeBufferPointer(start: base + index, count: run)) }
                index += run
                guard index < utf8.count else { break }
                appendEscape(of: utf8[index], to: &out)
                index += 1
            }
        }
    }

    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    static func appendEscape(of byte: UInt8, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "%"))
        out.append(hexDigits[Int(byte >> 4)])
        out.append(hexDigits[Int(byte & 0x0F)])
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)
}

/// `application/x-www-form-urlencoded` text: `name=value` pairs in the given order, joined by '&'.
package enum FormEncoding {
    /// Each side percent-encoded (`PercentEncoding`): the securetoken refresh body, signInWithIdp's
    /// `postBody`, the query strings Hearth builds.
    package static func encode(_ pairs: [(name: String, value: String)]) -> String {
        String(decoding: bytes(pairs), as: UTF8.self)
    }

    /// `encode`, as the bytes of a request body.
    package static func bytes(_ pairs: [(name: String, value: String)]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(pairs.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 2 } + 32)
        for (index, pair) in pairs.enumerated() {
            if index > 0 { out.append(UInt8(ascii: "&")) }
            PercentEncoding.append(pair.name, to: &out)
            out.append(UInt8(ascii: "="))
            PercentEncoding.append(pair.value, to: &out)
        }
        return out
    }

    /// What a browser's `URLSearchParams.toString()` writes (the WHATWG serializer): a space becomes
    /// `+`, and only ASCII letters, digits and `*-._` stay as they are. For pages that must produce the
    /// bytes Firebase's JavaScript produces.
    package static func encodeAsURLSearchParams(_ pairs: [(name: String, value: String)]) -> String {
        var out: [UInt8] = []
        func append(_ text: String) {
            for byte in text.utf8 {
                switch byte {
                case UInt8(ascii: " "):
                    out.append(UInt8(ascii: "+"))
                case UInt8(ascii: "*"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                     UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                     UInt8(ascii: "0")...UInt8(ascii: "9"):
                    out.append(byte)
                default:
                    PercentEncoding.appendEscape(of: byte, to: &out)
                }
            }
        }
        for (index, pair) in pairs.enumerated() {
            if index > 0 { out.append(UInt8(ascii: "&")) }
            append(pair.name)
            out.append(UInt8(ascii: "="))
            append(pair.value)
        }
        return String(decoding: out, as: UTF8.self)
    }
}
