import Foundation

/// Base64 in the two alphabets tokens use.
///
/// Every sign-in encodes two token segments and a refresh token and every token check decodes two
/// segments, so both directions work on bytes: going through Foundation's `Data` and
/// `replacingOccurrences` cost more than the rest of a sign-in (bench/RESULTS.md).
enum Base64 {
    static func urlEncoded(_ bytes: [UInt8]) -> String {
        encode(bytes, alphabet: urlAlphabet, padded: false)
    }

    static func standardEncoded(_ bytes: [UInt8]) -> String {
        encode(bytes, alphabet: standardAlphabet, padded: true)
    }

    /// Accepts base64url or standard base64, with or without padding (JWT segments come both ways).
    static func decodeLenient(_ text: Substring) -> [UInt8]? {
        if let bytes = decodeUnpadded(text.utf8) { return bytes }
        // Padding, whitespace and anything outside both alphabets: Foundation's rules, which accept
        // oddities such as padding-only text, decide.
        var standard = text
            .replacingOccurrences(of: "-", with: "+")
            .replacingOccurrences(of: "_", with: "/")
            .filter { !$0.isWhitespace }
        while standard.count % 4 != 0 { standard.append("=") }
        return Data(base64Encoded: standard).map(Array.init)
    }

    /// Text made only of characters of either alphabet, without padding; nil for anything else,
    /// including a length no byte sequence encodes to. Leftover bits of a last partial group are
    /// ignored, as Foundation ignores them.
    static func decodeUnpadded(_ text: some Collection<UInt8>) -> [UInt8]? {
        if let decoded = text.withContiguousStorageIfAvailable({ decodeUnpadded(buffer: $0) }) { return decoded }
        return decodeUnpadded(buffer: Array(text))
    }

    private static func decodeUnpadded(buffer text: some Collection<UInt8>) -> [UInt8]? {
        let count = text.count
        if count % 4 == 1 { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(count / 4 * 3 + 2)
        // The table is read through a pointer taken once: its global's lazy-initialization check
        // per character was a tenth of decoding.
        let complete = decodingTable.withUnsafeBufferPointer { table -> Bool in
            var group: UInt32 = 0
            var filled = 0
            for character in text {
                let value = table[Int(character)]
                if value == invalid { return false }
                group = group << 6 | UInt32(value)
                filled += 1
                if filled == 4 {
                    out.append(UInt8(truncatingIfNeeded: group >> 16))
                    out.append(UInt8(truncatingIfNeeded: group >> 8))
                    out.append(UInt8(truncatingIfNeeded: group))
                    group = 0
                    filled = 0
                }
            }
            switch filled {
            case 2:
                out.append(UInt8(truncatingIfNeeded: group >> 4))
            case 3:
                out.append(UInt8(truncatingIfNeeded: group >> 10))
                out.append(UInt8(truncatingIfNeeded: group >> 2))
            default:
                break
            }
            return true
        }
        return complete ? out : nil
    }

    private static let standardAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    private static let urlAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    private static let invalid: UInt8 = 0xFF

    /// Both alphabets at once: `+` and `-` are 62, `/` and `_` are 63.
    private static let decodingTable: [UInt8] = {
        var table = [UInt8](repeating: invalid, count: 256)
        for (value, character) in standardAlphabet.enumerated() { table[Int(character)] = UInt8(value) }
        table[Int(UInt8(ascii: "-"))] = 62
        table[Int(UInt8(ascii: "_"))] = 63
        return table
    }()

    /// Characters of `count` bytes in base64url without padding.
    static func unpaddedLength(of count: Int) -> Int {
        count / 3 * 4 + (count % 3 == 0 ? 0 : count % 3 + 1)
    }

    /// base64url without padding into `out` (at least `unpaddedLength(of:)` long); returns the length.
    static func urlEncode(_ bytes: [UInt8], into out: UnsafeMutableBufferPointer<UInt8>) -> Int {
        encode(bytes, alphabet: urlAlphabet, padded: false, into: out)
    }

    private static func encode(_ bytes: [UInt8], alphabet: [UInt8], padded: Bool) -> String {
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
