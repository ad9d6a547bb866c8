import CHearthWire

/// A strict RFC 8259 reader of UTF-8 bytes into `JSONValue`, for the client (answers, ID tokens, session
/// files) and the emulator (requests, tokens, imports) alike.
///
/// Hand-written, because every sign-in parses two answers and an ID token's claims: it reads the bytes
/// once, builds values directly, and copies a string's bytes only when it has escapes.
///
/// Where RFC 8259 leaves room it does what Google's JSON parser (protobuf's JsonLexer, whose legacy mode
/// stands for Google's front end) does: any value may stand at top level; a byte order mark is an error
/// (only space, tab, CR and LF may surround tokens); a repeated object key keeps its last value; more
/// than `maximumDepth` nested arrays and objects are an error (not a stack overflow). Unpaired UTF-16
/// surrogates in `\u` escapes and numbers that overflow a Double are errors too.
@usableFromInline struct JSONParser {
    /// Google's limit (protobuf's `ParseOptions::kDefaultDepth`): 100 nested arrays or objects parse,
    /// 101 do not.
    @usableFromInline static let maximumDepth = 100

    @usableFromInline let bytes: UnsafeBufferPointer<UInt8>
    @usableFromInline var index = 0
    /// Reused for strings with escapes, so a document allocates at most one such buffer.
    @usableFromInline var scratch: [UInt8] = []
    /// While reading members (`JSONMembers`): how deep the object being read is.
    @usableFromInline var memberDepth = 0

    @usableFromInline init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        let result: Result<JSONValue, JSONParseError> = bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(buffer)
            do throws(JSONParseError) {
                return .success(try parser.parseDocument())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    // MARK: - Grammar

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        try startDocument()
        let value = try parseValue(depth: 0)
        try finishDocument()
        return value
    }

    /// Past the whitespace after the document's value, which must end the input.
    @usableFromInline mutating func finishDocument() throws(JSONParseError) {
        skipWhitespace()
        guard index == bytes.count else { throw failure("unexpected data after the JSON value") }
    }

    /// Past the whitespace before the document's value; a byte order mark there is an error.
    @usableFromInline mutating func startDocument() throws(JSONParseError) {
        if bytes.isEmpty { throw failure("empty input") }
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            throw failure("a byte order mark before the value")
        }
        skipWhitespace()
    }

    @usableFromInline mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        switch peek {
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        default:
            throw failure(index < bytes.count ? "unexpected character" : "unexpected end of input")
        }
    }

    mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        .object(try readObject(JSONObjectMembers.self, depth: depth).object)
    }

    mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        var array: [JSONValue] = []
        try walkArray(depth: depth) { parser, depth throws(JSONParseError) in
            array.append(try parser.parseValue(depth: depth))
        }
        return .array(array)
    }

    mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let count = literal.utf8CodeUnitCount
        guard bytes.count - index >= count else { throw failure("invalid literal") }
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: count)
        for offset in 0..<count where bytes[index + offset] != expected[offset] {
            throw failure("invalid literal")
        }
        index += count
    }

    // MARK: - Strings

    mutating func parseString() throws(JSONParseError) -> String {
        let start = index + 1
        guard let plain = try scanPlainString() else { return try parseEscapedString(from: start) }
        return try makeString(UnsafeBufferPointer(rebasing: bytes[plain.range]), isASCII: plain.isASCII)
    }

    /// Reads a string without escapes (index at the opening quote) up to and past its closing quote:
    /// the range of its bytes, not yet validated as UTF-8 unless `isASCII`. Nil when it has an escape:
    /// `index` is then at the first backslash, for `parseEscapedString`.
    ///
    /// Sixteen bytes at a time while none of them needs a look (a quote, a backslash, a control
    /// character, or until the string has shown one, a non-ASCII byte), then straight to the first one
    /// that does (`hearth_scan_json_string`): tokens make up most of the bytes Hearth parses.
    @usableFromInline mutating func scanPlainString() throws(JSONParseError) -> (range: Range<Int>, isASCII: Bool)? {
        let start = index + 1
        guard let base = bytes.baseAddress else { throw failure("unterminated string") }
        let end = bytes.count
        var position = start
        var isASCII = true
        while true {
            if position < end {
                position += hearth_scan_json_string(base + position, end - position, isASCII ? 1 : 0)
            }
            guard position < end else {
                index = position
                throw failure("unterminated string")
            }
            let byte = base[position]
            if byte == UInt8(ascii: "\"") {
                index = position + 1
                return (start..<position, isASCII)
            }
            if byte == UInt8(ascii: "\\") {
                index = position
                return nil
            }
            if byte < 0x20 {
                index = position
                throw failure("unescaped control character in a string")
            }
            // Non-ASCII: from here on only the string's end, escapes and control characters stop the scan.
            isASCII = false
            position += 1
        }
    }

    /// The rest of a string that has escapes, from `start` (just after the opening quote); `index` is at
    /// the first backslash. Raw bytes and decoded escapes go to `scratch`, validated as UTF-8 at the end:
    /// an escape always yields whole characters, so a broken raw sequence stays broken next to one.
    @usableFromInline mutating func parseEscapedString(from start: Int) throws(JSONParseError) -> String {
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                guard let text = String(validating: scratch, as: UTF8.self) else {
                    throw failure("invalid UTF-8 in a string", kind: .invalidUTF8)
                }
                return text
            case UInt8(ascii: "\\"):
                index += 1
                try appendEscape()
            case 0..<0x20:
                throw failure("unescaped control character in a string")
            default:
                scratch.append(byte)
                index += 1
            }
        }
        throw failure("unterminated string")
    }

    mutating func appendEscape() throws(JSONParseError) {
        guard index < bytes.count else { throw failure("unterminated string") }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(byte)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"): appendUTF8(of: try readUnicodeEscape())
        default: throw failure("invalid escape in a string")
        }
    }

    /// The scalar of a `\uXXXX` escape (index just after the `u`), joining a surrogate pair.
    mutating func readUnicodeEscape() throws(JSONParseError) -> UInt32 {
        let unit = try readHex4()
        if UTF16.isTrailSurrogate(unit) { throw failure("unpaired low surrogate in a \\u escape") }
        guard UTF16.isLeadSurrogate(unit) else { return UInt32(unit) }
        guard bytes.count - index >= 2, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
        else { throw failure("unpaired high surrogate in a \\u escape") }
        index += 2
        let low = try readHex4()
        guard UTF16.isTrailSurrogate(low) else { throw failure("unpaired high surrogate in a \\u escape") }
        return 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
    }

    mutating func readHex4() throws(JSONParseError) -> UInt16 {
        guard bytes.count - index >= 4 else { throw failure("truncated \\u escape") }
        var value: UInt16 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("invalid hex digit in a \\u escape")
            }
            value = value << 4 | UInt16(digit)
            index += 1
        }
        return value
    }

    mutating func appendUTF8(of scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
            scratch.append(UInt8(scalar))
        case 0x80..<0x800:
            scratch.append(0xC0 | UInt8(scalar >> 6))
            scratch.append(0x80 | UInt8(scalar & 0x3F))
        case 0x800..<0x10000:
            scratch.append(0xE0 | UInt8(scalar >> 12))
            scratch.append(0x80 | UInt8((scalar >> 6) & 0x3F))
            scratch.append(0x80 | UInt8(scalar & 0x3F))
        default:
            scratch.append(0xF0 | UInt8(scalar >> 18))
            scratch.append(0x80 | UInt8((scalar >> 12) & 0x3F))
            scratch.append(0x80 | UInt8((scalar >> 6) & 0x3F))
            scratch.append(0x80 | UInt8(scalar & 0x3F))
        }
    }

    @usableFromInline func makeString(_ slice: UnsafeBufferPointer<UInt8>, isASCII: Bool) throws(JSONParseError) -> String {
        if isASCII { return String(decoding: slice, as: UTF8.self) }
        guard let text = String(validating: slice, as: UTF8.self) else {
            throw failure("invalid UTF-8 in a string", kind: .invalidUTF8)
        }
        return text
    }

    // MARK: - Numbers

    /// Exact powers of ten a Double holds, for the fast path below.
    private static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    mutating func parseNumber() throws(JSONParseError) -> Double {
        let start = index
        let isNegative = peek == UInt8(ascii: "-")
        if isNegative { index += 1 }
        // Digits accumulate while they fit in 2^53: then a Double holds the mantissa exactly, and one
        // multiplication or division by an exact power of ten rounds correctly (Clinger's fast path).
        var mantissa: UInt64 = 0
        var mantissaIsExact = true
        var fractionDigits = 0

        guard let first = digit(at: index) else { throw failure("expected a digit") }
        index += 1
        mantissa = UInt64(first)
        if first == 0 {
            if digit(at: index) != nil { throw failure("number with a leading zero") }
        } else {
            while let next = digit(at: index) {
                accumulate(next, into: &mantissa, exact: &mantissaIsExact)
                index += 1
            }
        }
        if peek == UInt8(ascii: ".") {
            index += 1
            guard digit(at: index) != nil else { throw failure("expected a digit after '.'") }
            while let next = digit(at: index) {
                accumulate(next, into: &mantissa, exact: &mantissaIsExact)
                fractionDigits += 1
                index += 1
            }
        }
        var exponent = 0
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            index += 1
            var exponentIsNegative = false
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") {
                exponentIsNegative = peek == UInt8(ascii: "-")
                index += 1
            }
            guard digit(at: index) != nil else { throw failure("expected a digit in the exponent") }
            while let next = digit(at: index) {
                // Clamped: any exponent this large already means overflow or zero.
                if exponent < 100_000 { exponent = exponent * 10 + Int(next) }
                index += 1
            }
            if exponentIsNegative { exponent = -exponent }
        }

        let decimalExponent = exponent - fractionDigits
        if mantissaIsExact, abs(decimalExponent) <= 22 {
            let value = Double(mantissa)
            let scaled = decimalExponent >= 0
                ? value * Self.exactPowersOfTen[decimalExponent]
                : value / Self.exactPowersOfTen[-decimalExponent]
            return isNegative ? -scaled : scaled
        }
        // The grammar is checked, so the standard library's correctly rounded conversion sees only JSON.
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw failure("number out of range", kind: .numberOutOfRange) }
        return value
    }

    func accumulate(_ digit: UInt8, into mantissa: inout UInt64, exact: inout Bool) {
        guard exact else { return }
        let next = mantissa &* 10 &+ UInt64(digit)
        if mantissa > (1 << 53) / 10 || next > 1 << 53 {
            exact = false
        } else {
            mantissa = next
        }
    }

    func digit(at position: Int) -> UInt8? {
        guard position < bytes.count else { return nil }
        let byte = bytes[position] &- UInt8(ascii: "0")
        return byte < 10 ? byte : nil
    }

    // MARK: - Bytes

    /// The current byte; 0 at the end, which no branch of the grammar accepts.
    @inlinable var peek: UInt8 { index < bytes.count ? bytes[index] : 0 }

    @inlinable mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    @usableFromInline func failure(_ reason: String, kind: JSONParseError.Kind = .syntax) -> JSONParseError {
        JSONParseError(kind, reason, at: index)
    }
}
