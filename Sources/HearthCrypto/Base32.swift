/// Base32 (RFC 4648 §6: A–Z, 2–7, '=' padding), the encoding of TOTP shared secrets.
public enum Base32 {
    private static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

    /// The text for `bytes`: upper case, padded with '=' to a multiple of 8 characters unless `padding` is
    /// false (the `otpauth://` secret is written without padding).
    public static func encode(_ bytes: [UInt8], padding: Bool = true) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 4) / 5 * 8)
        var buffer: UInt32 = 0
        var bitCount = 0
        for byte in bytes {
            buffer = buffer << 8 | UInt32(byte)
            bitCount += 8
            while bitCount >= 5 {
                bitCount -= 5
                out.append(alphabet[Int(buffer >> UInt32(bitCount) & 0x1F)])
            }
        }
        if bitCount > 0 {
            out.append(alphabet[Int(buffer << UInt32(5 - bitCount) & 0x1F)])
        }
        if padding {
            while out.count % 8 != 0 { out.append(UInt8(ascii: "=")) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes of a base32 text, or nil when it is not one.
    ///
    /// Accepts what people and servers hand over for a shared secret: lower case, padding present or
    /// missing, and spaces or '-' between groups ("jbsw y3dp ehpk 3pxp"). Rejects characters outside the
    /// alphabet, text after padding, and lengths no byte count encodes to (1, 3 or 6 characters past a
    /// multiple of 8). Bits left over after the last whole byte are ignored.
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count * 5 / 8)
        var buffer: UInt32 = 0
        var bitCount = 0
        var characterCount = 0
        var sawPadding = false
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "-"):
                continue
            case UInt8(ascii: "="):
                sawPadding = true
                continue
            default:
                break
            }
            if sawPadding { return nil }
            guard let value = quintet(byte) else { return nil }
            characterCount += 1
            // At most 7 leftover bits plus 5 new ones are pending.
            buffer = (buffer << 5 | UInt32(value)) & 0xFFF
            bitCount += 5
            if bitCount >= 8 {
                bitCount -= 8
                out.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bitCount)))
            }
        }
        switch characterCount % 8 {
        case 1, 3, 6: return nil
        default: return out
        }
    }

    private static func quintet(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return byte - UInt8(ascii: "a")
        case UInt8(ascii: "2")...UInt8(ascii: "7"): return byte - UInt8(ascii: "2") + 26
        default: return nil
        }
    }
}
