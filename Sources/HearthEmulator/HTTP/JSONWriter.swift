/// Serializes a `JSONValue` keeping object keys in insertion order, so tokens and error envelopes
/// read like the reference's (and the same every time).
enum JSONWriter {
    static func bytes(_ value: JSONValue) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(value, into: &out)
        return out
    }

    static func write(_ value: JSONValue, into out: inout [UInt8]) {
        switch value {
        case .null:
            out.append(contentsOf: "null".utf8)
        case .bool(let b):
            out.append(contentsOf: (b ? "true" : "false").utf8)
        case .number(let n):
            if let i = value.integerValue {
                out.append(contentsOf: String(i).utf8)
            } else if n.isFinite {
                out.append(contentsOf: "\(n)".utf8)
            } else {
                out.append(contentsOf: "null".utf8)
            }
        case .string(let s):
            writeString(s, into: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                write(item, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            var first = true
            object.forEachEntry { key, value in
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                writeString(key, into: &out)
                out.append(UInt8(ascii: ":"))
                write(value, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Runs without escapes are copied whole: tokens are mostly such runs, and byte-by-byte
    /// appends dominated writing them.
    static func writeString(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { bytes in
            var start = 0
            var index = JSONEscapes.next(in: bytes, from: 0)
            while index < bytes.count {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "\""): out.append(contentsOf: "\\\"".utf8)
                case UInt8(ascii: "\\"): out.append(contentsOf: "\\\\".utf8)
                case 0x0A: out.append(contentsOf: "\\n".utf8)
                case 0x0D: out.append(contentsOf: "\\r".utf8)
                case 0x09: out.append(contentsOf: "\\t".utf8)
                default:
                    out.append(contentsOf: "\\u00".utf8)
                    out.append(hexDigits[Int(byte >> 4)])
                    out.append(hexDigits[Int(byte & 0x0F)])
                }
                start = index + 1
                index = JSONEscapes.next(in: bytes, from: start)
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
        }
        out.append(UInt8(ascii: "\""))
    }
}

/// Where JSON strings need escapes: tokens are long runs without any, skipped eight bytes at a time.
enum JSONEscapes {
    /// The index of the first byte at or after `start` that must be escaped (a control character,
    /// `"` or `\`), or `bytes.count`.
    static func next(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        if let base = bytes.baseAddress {
            while index + 8 <= bytes.count {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                if needsEscape(word) { break }
                index += 8
            }
        }
        while index < bytes.count, !needsEscape(bytes[index]) { index += 1 }
        return index
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// Whether any of the eight bytes needs an escape: the classic "has a byte less than n" and
    /// "has a zero byte" tests, exact as to whether some byte qualifies.
    private static func needsEscape(_ word: UInt64) -> Bool {
        let control = (word &- ones &* 0x20) & ~word & highBits
        let quote = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
        let backslash = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
        let special = ((quote &- ones) & ~quote | (backslash &- ones) & ~backslash) & highBits
        return control | special != 0
    }
}
