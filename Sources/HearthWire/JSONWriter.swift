import CHearthWire

/// Compact JSON text for a `JSONValue`: members in each object's own order (a parsed object writes back
/// in document order). Non-finite numbers, which JSON cannot express, are written as `null`.
extension JSONValue {
    /// UTF-8 bytes of the compact JSON text.
    public func serialized() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(128)
        JSONWriter.write(self, into: &out)
        return out
    }

    /// The compact JSON text.
    public var jsonText: String {
        String(decoding: serialized(), as: UTF8.self)
    }
}

/// The one way JSON text is written, by the client and the emulator: strings escaped as JavaScript's
/// `JSON.stringify` escapes them (Firebase's emulator is JavaScript; Google's servers agree), whole
/// numbers without a fraction.
package enum JSONWriter {
    package static func write(_ value: JSONValue, into out: inout [UInt8]) {
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
            for position in 0..<object.count {
                if position > 0 { out.append(UInt8(ascii: ",")) }
                writeString(object.keys[position], into: &out)
                out.append(UInt8(ascii: ":"))
                write(object.values[position], into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// A whole number within Int64 in plain digits ("3600", not "3600.0" or "1e+16"), as JavaScript
    /// prints it; any other number in Swift's shortest round-trip form ("0.1", "1e+300"), valid JSON too.
    package static func writeNumber(_ number: Double, into out: inout [UInt8]) {
        if let integer = Int64(exactly: number) {
            out.append(contentsOf: String(integer).utf8)
        } else if number.isFinite {
            out.append(contentsOf: number.description.utf8)
        } else {
            out.append(contentsOf: "null".utf8)
        }
    }

    /// Runs of bytes that need no escape are copied whole, found sixteen bytes at a time
    /// (`hearth_scan_json_string`): tokens, ~1 KB each, are most of what Hearth writes.
    package static func writeString(_ string: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { utf8 in
            guard let base = utf8.baseAddress else { return }
            var runStart = 0
            while runStart < utf8.count {
                let stop = runStart + hearth_scan_json_string(base + runStart, utf8.count - runStart, 0)
                if runStart < stop { out.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: stop - runStart)) }
                guard stop < utf8.count else { break }
                appendEscape(of: base[stop], into: &out)
                runStart = stop + 1
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// The one escape table: the two-character escapes JSON has for `"`, `\` and five controls, and
    /// `\u00xx` (lower-case hex) for every other byte below 0x20. Other bytes, `/` and non-ASCII text
    /// included, stay as they are.
    private static func appendEscape(of byte: UInt8, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(byte)
        case 0x08: out.append(UInt8(ascii: "b"))
        case 0x0C: out.append(UInt8(ascii: "f"))
        case 0x0A: out.append(UInt8(ascii: "n"))
        case 0x0D: out.append(UInt8(ascii: "r"))
        case 0x09: out.append(UInt8(ascii: "t"))
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

/// One object written member by member straight into a buffer, for the bodies and answers written on
/// every request (no `JSONValue` to build first). Absent (nil) members are left out. Members must come in
/// ascending key order, which debug builds check: the emulator's answers must be the bytes its sorted
/// encoder gives, and the client's bodies then read the same however they were written.
package struct JSONObjectWriter {
    private var isFirst = true
    #if DEBUG
    private var previousKey: String?
    #endif

    /// `{`, the members `body` writes, `}`.
    package static func write(into out: inout [UInt8], _ body: (inout JSONObjectWriter, inout [UInt8]) -> Void) {
        out.append(UInt8(ascii: "{"))
        var writer = JSONObjectWriter()
        body(&writer, &out)
        out.append(UInt8(ascii: "}"))
    }

    /// A document that is one object: `write`'s bytes in a buffer of their own.
    package static func document(capacity: Int, _ body: (inout JSONObjectWriter, inout [UInt8]) -> Void) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(capacity)
        write(into: &out, body)
        return out
    }

    /// `,"name":`. Names are the caller's constants: plain ASCII with nothing to escape.
    package mutating func key(_ name: StaticString, into out: inout [UInt8]) {
        #if DEBUG
        let key = name.description
        if let previousKey {
            assert(previousKey.utf8.lexicographicallyPrecedes(key.utf8), "\(key) written after \(previousKey)")
        }
        previousKey = key
        #endif
        if !isFirst { out.append(UInt8(ascii: ",")) }
        isFirst = false
        out.append(UInt8(ascii: "\""))
        out.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        out.append(contentsOf: "\":".utf8)
    }

    package mutating func string(_ name: StaticString, _ value: String?, into out: inout [UInt8]) {
        guard let value else { return }
        key(name, into: &out)
        JSONWriter.writeString(value, into: &out)
    }

    package mutating func bool(_ name: StaticString, _ value: Bool?, into out: inout [UInt8]) {
        guard let value else { return }
        key(name, into: &out)
        out.append(contentsOf: (value ? "true" : "false").utf8)
    }

    package mutating func integer(_ name: StaticString, _ value: Int64?, into out: inout [UInt8]) {
        guard let value else { return }
        key(name, into: &out)
        out.append(contentsOf: String(value).utf8)
    }
}
