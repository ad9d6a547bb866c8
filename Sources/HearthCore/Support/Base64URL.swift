/// Base64url (RFC 4648 §5), as used by JWTs. Decoding also accepts the standard alphabet's '+' and
/// '/', and tolerates missing or present '=' padding, because tokens from different issuers differ.
public enum Base64URL {
    /// The decoded bytes, or nil if `text` contains a character outside the alphabet or has an impossible
    /// length.
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        if let decoded = text.utf8.withContiguousStorageIfAvailable({ decode(bytes: $0) }) { return decoded }
        return Array(text.utf8).withUnsafeBufferPointer { decode(bytes: $0) }
    }

    /// `decode` over UTF-8 bytes: one table lookup per character, written straight into the result
    /// (an ID token's payload is ~700 characters, decoded on every sign-in and refresh).
    public static func decode(bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        // Trailing padding, in any amount, is tolerated; data after padding is not one base64 value.
        var end = bytes.count
        while end > 0 && bytes[end - 1] == UInt8(ascii: "=") { end -= 1 }
        let tail = end % 4
        if tail == 1 { return nil }
        let count = end / 4 * 3 + (tail == 0 ? 0 : tail - 1)
        var valid = true
        let out = [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
            sextetTable.withUnsafeBufferPointer { table in
                var read = 0, written = 0
                while read + 4 <= end {
                    let a = table[Int(bytes[read])], b = table[Int(bytes[read + 1])]
                    let c = table[Int(bytes[read + 2])], d = table[Int(bytes[read + 3])]
                    if (a | b | c | d) & 0x40 != 0 { valid = false; return }
                    let chunk = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
                    out[written] = UInt8(truncatingIfNeeded: chunk >> 16)
                    out[written + 1] = UInt8(truncatingIfNeeded: chunk >> 8)
                    out[written + 2] = UInt8(truncatingIfNeeded: chunk)
                    read += 4
                    written += 3
                }
                if tail >= 2 {
                    let a = table[Int(bytes[read])], b = table[Int(bytes[read + 1])]
                    let c = tail == 3 ? table[Int(bytes[read + 2])] : 0
                    if (a | b | c) & 0x40 != 0 { valid = false; return }
                    let chunk = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6
                    out[written] = UInt8(truncatingIfNeeded: chunk >> 16)
                    if tail == 3 { out[written + 1] = UInt8(truncatingIfNeeded: chunk >> 8) }
                    written += tail - 1
                }
                initialized = written
            }
        }
        return valid ? out : nil
    }

    /// Each byte's sextet; 0x40 marks a byte outside both alphabets (also '=', which may only trail).
    private static let sextetTable: [UInt8] = (0...255).map { byte in sextet(UInt8(byte)) ?? 0x40 }

    /// Base64url text without padding.
    public static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= bytes.count {
            let chunk = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            out.append(alphabet[Int(chunk >> 18 & 0x3F)])
            out.append(alphabet[Int(chunk >> 12 & 0x3F)])
            out.append(alphabet[Int(chunk >> 6 & 0x3F)])
            out.append(alphabet[Int(chunk & 0x3F)])
            index += 3
        }
        let remaining = bytes.count - index
        if remaining == 1 {
            let chunk = UInt32(bytes[index]) << 16
            out.append(alphabet[Int(chunk >> 18 & 0x3F)])
            out.append(alphabet[Int(chunk >> 12 & 0x3F)])
        } else if remaining == 2 {
            let chunk = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
            out.append(alphabet[Int(chunk >> 18 & 0x3F)])
            out.append(alphabet[Int(chunk >> 12 & 0x3F)])
            out.append(alphabet[Int(chunk >> 6 & 0x3F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    private static func sextet(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"), UInt8(ascii: "+"): return 62
        case UInt8(ascii: "_"), UInt8(ascii: "/"): return 63
        default: return nil
        }
    }
}
