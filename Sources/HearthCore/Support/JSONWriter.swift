import CHearthShims

/// Compact JSON text for a `JSONValue`: request bodies and the profile JSON handed to hosts.
/// Object keys are written in sorted order so the same value always gives the same bytes.
/// Non-finite numbers (which JSON cannot express) are written as `null`.
extension JSONValue {
    /// UTF-8 bytes of the compact JSON text.
    public func serialized() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64)
        JSONWriter.write(self, into: &out)
        return out
    }

    /// The compact JSON text.
    public var jsonText: String {
        String(decoding: serialized(), as: UTF8.self)
    }
}

enum JSONWriter {
    static func write(_ value: JSONValue, into out: inout [UInt8]) {
        switch value {
        case .null:
            out.append(contentsOf: "null".utf8)
        case .bool(let flag):
            out.append(contentsOf: (flag ? "true" : "false").utf8)
        case .number(let number):
            writeNumber(number, into: &out)
        case .string(let string):
            writeString(string, into: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                write(element, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            // Members sorted by key (stable output), without looking each key up again.
            for (index, member) in object.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                writeString(member.key, into: &out)
                out.append(UInt8(ascii: ":"))
                write(member.value, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    static func writeNumber(_ number: Double, into out: inout [UInt8]) {
        guard number.isFinite else {
            out.append(contentsOf: "null".utf8)
            return
        }
        // Integral values print without a fraction ("3600", not "3600.0") while exactly representable.
        if abs(number) < 9_007_199_254_740_992, let integer = Int64(exactly: number) {
            out.append(contentsOf: String(integer).utf8)
        } else {
            // Swift's shortest round-trip form ("0.1", "1e+20", "5e-324") is valid JSON.
            out.append(contentsOf: number.description.utf8)
        }
    }

    static func writeString(_ string: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var string = string
        // Runs of bytes that need no escape are copied whole, found sixteen bytes at a time: ID tokens in
        // request bodies are ~1 KB.
        string.withUTF8 { utf8 in
            var runStart = 0
            var index = 0
            while index < utf8.count {
                index = firstByteToEscape(in: utf8, from: index)
                guard index < utf8.count else { break }
                if runStart < index { out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index])) }
                appendEscape(of: utf8[index], into: &out)
                index += 1
                runStart = index
            }
            // Swift strings are valid UTF-8, so multi-byte sequences pass through unchanged.
            if runStart < utf8.count { out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...])) }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// The index of the first byte from `start` that JSON must escape (a control character, a quote or
    /// a backslash), or `bytes.count`.
    private static func firstByteToEscape(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = bytes.baseAddress, start < bytes.count else { return bytes.count }
        return start + hearth_scan_json_string(base + start, bytes.count - start, 0)
    }

    private static func appendEscape(of byte: UInt8, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(byte)
        case 0x0A: out.append(UInt8(ascii: "n"))
        case 0x0D: out.append(UInt8(ascii: "r"))
        case 0x09: out.append(UInt8(ascii: "t"))
        case 0x08: out.append(UInt8(ascii: "b"))
        case 0x0C: out.append(UInt8(ascii: "f"))
        default:
            out.append(contentsOf: "u00".utf8)
            out.append(hexDigit(byte >> 4))
            out.append(hexDigit(byte & 0x0F))
        }
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}

/// A JSON object written member by member: the request bodies every sign-in and refresh sends, without a
/// `JSONValue` dictionary to build, hash and sort first. Members go in ascending key order, the order
/// `serialized()` writes, so a body reads the same whichever way it was written.
struct JSONObjectWriter {
    private var bytes: [UInt8] = []
    private var isEmpty = true

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
        bytes.append(UInt8(ascii: "{"))
    }

    mutating func add(_ key: StaticString, _ value: String) {
        addKey(key)
        JSONWriter.writeString(value, into: &bytes)
    }

    mutating func add(_ key: StaticString, _ value: Bool) {
        addKey(key)
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    /// Only when there is one: absent optionals are left out of request bodies.
    mutating func addIfPresent(_ key: StaticString, _ value: String?) {
        if let value { add(key, value) }
    }

    consuming func finish() -> [UInt8] {
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    private mutating func addKey(_ key: StaticString) {
        if !isEmpty { bytes.append(UInt8(ascii: ",")) }
        isEmpty = false
        // Keys are Hearth's own constants: plain ASCII without anything to escape.
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }
}
