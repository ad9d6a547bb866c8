/// A strict RFC 8259 parser: no trailing commas, comments or single quotes (Google rejects them,
/// Foundation's decoder accepts some), object keys kept in order, and nesting bounded so hostile
/// input cannot exhaust the stack.
struct JSONParser {
    struct SyntaxError: Error {
        var message: String
    }

    static let maxDepth = 256

    private let bytes: [UInt8]
    private var index = 0

    private init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Parses one JSON text. The bytes must already be valid UTF-8.
    static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> JSONValue {
        var parser = JSONParser(bytes)
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.unexpected() }
        return value
    }

    /// The top-level object of one JSON text with only the members named in `keep`, each parsed as
    /// `parse` parses it; the other members are checked as strictly but never built. nil when the
    /// text is valid JSON but not an object; throws exactly when `parse` throws. For tokens, whose
    /// readers want a few of a dozen claims.
    static func parseObject(_ bytes: [UInt8], keeping keep: [String]) throws(SyntaxError) -> JSONObject? {
        var parser = JSONParser(bytes)
        parser.skipWhitespace()
        var object: JSONObject?
        if parser.peek(UInt8(ascii: "{")) {
            object = try parser.parseObject(depth: 0, keeping: keep)
        } else {
            try parser.skipValue(depth: 0)
        }
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.unexpected() }
        return object
    }

    private mutating func parseValue(depth: Int) throws(SyntaxError) -> JSONValue {
        guard depth < Self.maxDepth else { throw SyntaxError(message: "Nesting is deeper than \(Self.maxDepth) levels.") }
        guard index < bytes.count else { throw SyntaxError(message: "Unexpected end of input.") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return .object(try parseObject(depth: depth, keeping: nil))
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw unexpected()
        }
    }

    /// Members not in `keep` (when given) are checked, not built.
    private mutating func parseObject(depth: Int, keeping keep: [String]?) throws(SyntaxError) -> JSONObject {
        index += 1
        var object = JSONObject()
        skipWhitespace()
        if peek(UInt8(ascii: "}")) { index += 1; return object }
        while true {
            skipWhitespace()
            guard peek(UInt8(ascii: "\"")) else { throw unexpected() }
            let key = try parseString()
            skipWhitespace()
            guard peek(UInt8(ascii: ":")) else { throw unexpected() }
            index += 1
            skipWhitespace()
            if let keep, !keep.contains(key) {
                try skipValue(depth: depth + 1)
            } else {
                object[key] = try parseValue(depth: depth + 1)
            }
            skipWhitespace()
            if peek(UInt8(ascii: ",")) { index += 1; continue }
            if peek(UInt8(ascii: "}")) { index += 1; return object }
            throw unexpected()
        }
    }

    /// `parseValue`'s checks without building anything.
    private mutating func skipValue(depth: Int) throws(SyntaxError) {
        guard depth < Self.maxDepth else { throw SyntaxError(message: "Nesting is deeper than \(Self.maxDepth) levels.") }
        guard index < bytes.count else { throw SyntaxError(message: "Unexpected end of input.") }
        switch bytes[index] {
        case UInt8(ascii: "{"): _ = try parseObject(depth: depth, keeping: [])
        case UInt8(ascii: "["):
            index += 1
            skipWhitespace()
            if peek(UInt8(ascii: "]")) { index += 1; return }
            while true {
                skipWhitespace()
                try skipValue(depth: depth + 1)
                skipWhitespace()
                if peek(UInt8(ascii: ",")) { index += 1; continue }
                if peek(UInt8(ascii: "]")) { index += 1; return }
                throw unexpected()
            }
        case UInt8(ascii: "\""): try skipString()
        case UInt8(ascii: "t"): try expectLiteral("true")
        case UInt8(ascii: "f"): try expectLiteral("false")
        case UInt8(ascii: "n"): try expectLiteral("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): _ = try parseNumber()
        default: throw unexpected()
        }
    }

    private mutating func parseArray(depth: Int) throws(SyntaxError) -> JSONValue {
        index += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if peek(UInt8(ascii: "]")) { index += 1; return .array(items) }
        while true {
            skipWhitespace()
            items.append(try parseValue(depth: depth + 1))
            skipWhitespace()
            if peek(UInt8(ascii: ",")) { index += 1; continue }
            if peek(UInt8(ascii: "]")) { index += 1; return .array(items) }
            throw unexpected()
        }
    }

    private mutating func parseString() throws(SyntaxError) -> String {
        index += 1
        // Most strings have no escapes: take them in one piece.
        let start = index
        if scanPlainRun() {
            return String(decoding: bytes[start..<index - 1], as: UTF8.self)
        }
        var out = Array(bytes[start..<index])
        try finishString(into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// `parseString`'s checks without building the string.
    private mutating func skipString() throws(SyntaxError) {
        index += 1
        if scanPlainRun() { return }
        var scratch: [UInt8] = []
        try finishString(into: &scratch)
    }

    /// Moves past bytes that need no attention (eight at a time: tokens are long runs of them).
    /// True when the string's closing quote was reached (and passed); false at an escape, a control
    /// character or the end of input, left for `finishString`.
    private mutating func scanPlainRun() -> Bool {
        let stop = bytes.withUnsafeBufferPointer { JSONEscapes.next(in: $0, from: index) }
        index = stop
        if stop < bytes.count, bytes[stop] == UInt8(ascii: "\"") {
            index += 1
            return true
        }
        return false
    }

    /// The rest of a string from an escape or control character on, appended to `out` unescaped.
    private mutating func finishString(into out: inout [UInt8]) throws(SyntaxError) {
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return
            case UInt8(ascii: "\\"):
                try parseEscape(into: &out)
            case 0x00..<0x20:
                index -= 1
                throw SyntaxError(message: "Unescaped control character in string at position \(index).")
            default:
                out.append(byte)
            }
        }
        throw SyntaxError(message: "Unterminated string.")
    }

    private mutating func parseEscape(into out: inout [UInt8]) throws(SyntaxError) {
        guard index < bytes.count else { throw SyntaxError(message: "Unterminated string.") }
        let escape = bytes[index]
        index += 1
        switch escape {
        case UInt8(ascii: "\""): out.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\"))
        case UInt8(ascii: "/"): out.append(UInt8(ascii: "/"))
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try parseHex4()
            if (0xD800..<0xDC00).contains(scalar) {
                // A high surrogate must be followed by an escaped low surrogate.
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else { throw SyntaxError(message: "Unpaired surrogate in string.") }
                index += 2
                let low = try parseHex4()
                guard (0xDC00..<0xE000).contains(low) else { throw SyntaxError(message: "Unpaired surrogate in string.") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00..<0xE000).contains(scalar) {
                throw SyntaxError(message: "Unpaired surrogate in string.")
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw SyntaxError(message: "Invalid \\u escape.") }
            out.append(contentsOf: String(Character(unicode)).utf8)
        default:
            index -= 1
            throw unexpected()
        }
    }

    private mutating func parseHex4() throws(SyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw SyntaxError(message: "Invalid \\u escape.") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw SyntaxError(message: "Invalid \\u escape.")
            }
            value = value * 16 + UInt32(digit)
            index += 1
        }
        return value
    }

    private mutating func parseNumber() throws(SyntaxError) -> JSONValue {
        let start = index
        if peek(UInt8(ascii: "-")) { index += 1 }
        if peek(UInt8(ascii: "0")) {
            index += 1
        } else {
            guard consumeDigits() > 0 else { throw unexpected() }
        }
        if peek(UInt8(ascii: ".")) {
            index += 1
            guard consumeDigits() > 0 else { throw unexpected() }
        }
        if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            index += 1
            if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { index += 1 }
            guard consumeDigits() > 0 else { throw unexpected() }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let number = Double(text), number.isFinite else {
            throw SyntaxError(message: "Number out of range at position \(start).")
        }
        return .number(number)
    }

    private mutating func consumeDigits() -> Int {
        let start = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        return index - start
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(SyntaxError) {
        let count = literal.utf8CodeUnitCount
        let matches = index + count <= bytes.count && literal.withUTF8Buffer { expected in
            bytes[index..<index + count].elementsEqual(expected)
        }
        guard matches else { throw unexpected() }
        index += count
    }

    private func peek(_ byte: UInt8) -> Bool { index < bytes.count && bytes[index] == byte }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private func unexpected() -> SyntaxError {
        guard index < bytes.count else { return SyntaxError(message: "Unexpected end of input.") }
        let scalar = Unicode.Scalar(bytes[index])
        let shown = bytes[index] < 0x80 && bytes[index] >= 0x20 ? "'\(Character(scalar))'" : "byte \(bytes[index])"
        return SyntaxError(message: "Unexpected token \(shown) at position \(index).")
    }
}
