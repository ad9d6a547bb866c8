import CHearthShims

/// Percent-encoding with the RFC 3986 unreserved set (ALPHA / DIGIT / "-" / "." / "_" / "~") left as is:
/// every other byte of the UTF-8 text becomes %XX. This is what JavaScript's encodeURIComponent does
/// minus its extra safe characters, and it is safe in a query value and in a form body alike (notably
/// '+' becomes %2B, which `URLComponents` would leave alone).
public enum PercentEncoding {
    public static func encode(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        append(text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Runs of unreserved bytes are found sixteen at a time (`hearth_scan_unreserved`) and copied whole:
    /// the refresh token in every token refresh's body is a few hundred bytes (bench: byte-by-byte
    /// appends cost ~14,000 instructions per refresh, a byte-by-byte scan ~3,400).
    static func append(_ text: String, to out: inout [UInt8]) {
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
                let byte = utf8[index]
                out.append(UInt8(ascii: "%"))
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0x0F)])
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

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)
}

/// `application/x-www-form-urlencoded` bodies (the securetoken refresh body, signInWithIdp `postBody`):
/// `key=value` pairs in the given order, joined by '&', each side percent-encoded.
public enum FormEncoding {
    public static func encode(_ pairs: [(String, String)]) -> String {
        String(decoding: bytes(pairs), as: UTF8.self)
    }

    /// The same, as the bytes of a request body.
    public static func bytes(_ pairs: [(String, String)]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(pairs.reduce(0) { $0 + $1.0.utf8.count + $1.1.utf8.count + 2 } + 32)
        for (index, pair) in pairs.enumerated() {
            if index > 0 { out.append(UInt8(ascii: "&")) }
            PercentEncoding.append(pair.0, to: &out)
            out.append(UInt8(ascii: "="))
            PercentEncoding.append(pair.1, to: &out)
        }
        return out
    }
}
