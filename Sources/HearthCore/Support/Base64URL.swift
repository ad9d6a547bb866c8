import CHearthShims

/// Base64url (RFC 4648 §5), as used by JWTs. Decoding also accepts the standard alphabet's '+' and
/// '/', and tolerates missing or present '=' padding, because tokens from different issuers differ.
public enum Base64URL {
    /// The decoded bytes, or nil if `text` contains a character outside the alphabet or has an impossible
    /// length.
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        if let decoded = text.utf8.withContiguousStorageIfAvailable({ decode(bytes: $0) }) { return decoded }
        return Array(text.utf8).withUnsafeBufferPointer { decode(bytes: $0) }
    }

    /// `decode` over UTF-8 bytes (an ID token's payload is ~700 characters, decoded on every sign-in and
    /// refresh): `hearth_base64_decode`.
    public static func decode(bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        // Trailing padding, in any amount, is tolerated; data after padding is not one base64 value.
        var end = bytes.count
        while end > 0 && bytes[end - 1] == UInt8(ascii: "=") { end -= 1 }
        guard end % 4 != 1 else { return nil }
        guard let base = bytes.baseAddress, end > 0 else { return [] }
        var valid = true
        let out = [UInt8](unsafeUninitializedCapacity: end / 4 * 3 + 2) { out, initialized in
            let written = out.baseAddress.map { hearth_base64_decode(base, end, $0) } ?? -1
            valid = written >= 0
            initialized = max(written, 0)
        }
        return valid ? out : nil
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
}
