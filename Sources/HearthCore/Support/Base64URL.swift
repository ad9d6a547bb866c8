/// Base64url (RFC 4648 §5), as used by JWTs. Decoding also accepts the standard alphabet's '+' and
/// '/', and tolerates missing or present '=' padding, because tokens from different issuers differ.
public enum Base64URL {
    /// The decoded bytes, or nil if `text` contains a character outside the alphabet or has an impossible
    /// length.
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        var sextets: [UInt8] = []
        sextets.reserveCapacity(text.utf8.count)
        var sawPadding = false
        for byte in text.utf8 {
            if byte == UInt8(ascii: "=") {
                sawPadding = true
                continue
            }
            // Data after padding means the text is not one base64 value.
            if sawPadding { return nil }
            guard let value = sextet(byte) else { return nil }
            sextets.append(value)
        }
        if sextets.count % 4 == 1 { return nil }

        var out: [UInt8] = []
        out.reserveCapacity(sextets.count * 3 / 4)
        var index = 0
        while index + 4 <= sextets.count {
            let chunk = UInt32(sextets[index]) << 18 | UInt32(sextets[index + 1]) << 12
                | UInt32(sextets[index + 2]) << 6 | UInt32(sextets[index + 3])
            out.append(UInt8(truncatingIfNeeded: chunk >> 16))
            out.append(UInt8(truncatingIfNeeded: chunk >> 8))
            out.append(UInt8(truncatingIfNeeded: chunk))
            index += 4
        }
        let remaining = sextets.count - index
        if remaining == 2 {
            let chunk = UInt32(sextets[index]) << 18 | UInt32(sextets[index + 1]) << 12
            out.append(UInt8(truncatingIfNeeded: chunk >> 16))
        } else if remaining == 3 {
            let chunk = UInt32(sextets[index]) << 18 | UInt32(sextets[index + 1]) << 12
                | UInt32(sextets[index + 2]) << 6
            out.append(UInt8(truncatingIfNeeded: chunk >> 16))
            out.append(UInt8(truncatingIfNeeded: chunk >> 8))
        }
        return out
    }

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
