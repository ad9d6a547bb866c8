import CHearthWire

/// Base64 (RFC 4648 §4) and base64url (§5): tokens' segments, refresh tokens, OAuth state, data URLs.
///
/// Decoding accepts either alphabet with or without trailing `=` padding, because tokens from different
/// issuers differ; anything else (whitespace, padding inside, a length no bytes encode to) is not base64.
/// Both directions work on bytes: every sign-in decodes an ID token's payload and the emulator encodes
/// two tokens per answer.
package enum Base64 {
    /// base64url without padding, as JWTs carry it.
    package static func urlEncoded(_ bytes: [UInt8]) -> String {
        encoded(bytes, alphabet: urlAlphabet, padded: false)
    }

    /// Standard base64 with padding.
    package static func standardEncoded(_ bytes: [UInt8]) -> String {
        encoded(bytes, alphabet: standardAlphabet, padded: true)
    }

    /// Characters of `count` bytes in base64url without padding.
    package static func unpaddedLength(of count: Int) -> Int {
        count / 3 * 4 + (count % 3 == 0 ? 0 : count % 3 + 1)
    }

    /// base64url without padding into `out` (at least `unpaddedLength(of:)` long); returns the length.
    package static func urlEncode(_ bytes: [UInt8], into out: UnsafeMutableBufferPointer<UInt8>) -> Int {
        encode(bytes, alphabet: urlAlphabet, padded: false, into: out)
    }

    /// The decoded bytes, or nil when `text` is not base64 in either alphabet.
    package static func decode(_ text: some StringProtocol) -> [UInt8]? {
        if let decoded = text.utf8.withContiguousStorageIfAvailable({ decode(bytes: $0) }) { return decoded }
        return Array(text.utf8).withUnsafeBufferPointer { decode(bytes: $0) }
    }

    /// `decode` over UTF-8 bytes, in C (`hearth_base64_decode`): Swift's bounds checks cost more than
    /// the decoding itself.
    package static func decode(bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
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

    private static let standardAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    private static let urlAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    private static func encoded(_ bytes: [UInt8], alphabet: [UInt8], padded: Bool) -> String {
        let length = padded ? (bytes.count + 2) / 3 * 4 : unpaddedLength(of: bytes.count)
        return String(unsafeUninitializedCapacity: length) { out in
            encode(bytes, alphabet: alphabet, padded: padded, into: out)
        }
    }

    private static func encode(_ bytes: [UInt8], alphabet: [UInt8], padded: Bool,
                               into out: UnsafeMutableBufferPointer<UInt8>) -> Int {
        let rest = bytes.count % 3
        return alphabet.withUnsafeBufferPointer { alphabet in
            var o = 0
            var i = 0
            while i + 3 <= bytes.count {
                let group = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
                out[o] = alphabet[Int(group >> 18)]
                out[o + 1] = alphabet[Int(group >> 12 & 0x3F)]
                out[o + 2] = alphabet[Int(group >> 6 & 0x3F)]
                out[o + 3] = alphabet[Int(group & 0x3F)]
                i += 3
                o += 4
            }
            if rest > 0 {
                let group = UInt32(bytes[i]) << 16 | (rest == 2 ? UInt32(bytes[i + 1]) << 8 : 0)
                out[o] = alphabet[Int(group >> 18)]
                out[o + 1] = alphabet[Int(group >> 12 & 0x3F)]
                o += 2
                if rest == 2 {
                    out[o] = alphabet[Int(group >> 6 & 0x3F)]
                    o += 1
                }
                if padded {
                    out[o] = UInt8(ascii: "=")
                    o += 1
                    if rest == 1 {
                        out[o] = UInt8(ascii: "=")
                        o += 1
                    }
                }
            }
            return o
        }
    }
}
