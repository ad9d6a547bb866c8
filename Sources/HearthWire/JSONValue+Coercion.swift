/// Lenient readings of values the service sends in more than one shape: Identity Toolkit encodes
/// int64 fields (`expiresIn`, `createdAt`, `lastLoginAt`, securetoken `expires_in`) as JSON strings, while
/// other servers and older deployments send plain numbers.
extension JSONValue {
    /// An integer from a JSON number without a fraction, or from a string of decimal digits
    /// (optional leading '-'). Anything else, including out-of-range values, is nil.
    public var int64Value: Int64? {
        switch self {
        case .number(let number):
            // nil for fractions, non-finite and out-of-range values.
            return Int64(exactly: number)
        case .string(let text):
            if let plain = Self.plainInteger(text) { return plain }
            return Self.parseInteger(text)
        default:
            return nil
        }
    }

    /// Like `int64Value`, for values that cannot be negative (timestamps in ms since the epoch).
    public var uint64Value: UInt64? {
        switch self {
        case .number(let number):
            return UInt64(exactly: number)
        case .string(let text):
            if let digits = Self.plainDigits(text) { return digits }
            let trimmed = text.trimmingASCIIWhitespace()
            guard !trimmed.isEmpty, trimmed.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            return UInt64(trimmed)
        default:
            return nil
        }
    }

    /// A boolean from `true`/`false`, or from the strings "true"/"false".
    public var flexibleBoolValue: Bool? {
        switch self {
        case .bool(let flag): return flag
        case .string("true"): return true
        case .string("false"): return false
        default: return nil
        }
    }

    /// A string that is present and not empty.
    public var nonEmptyStringValue: String? {
        guard case .string(let text) = self, !text.isEmpty else { return nil }
        return text
    }

    /// The value of `text` when it is nothing but 1...19 ASCII digits (timestamps and lifetimes as the
    /// service sends them), without the general path's trimming and String parsing; nil sends `text`
    /// down the general path.
    private static func plainDigits(_ text: String) -> UInt64? {
        var text = text
        return text.withUTF8 { plainDigits($0) }
    }

    private static func plainDigits(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64? {
        // 19 digits always fit a UInt64; longer numbers take the general path.
        guard !bytes.isEmpty, bytes.count <= 19 else { return nil }
        var value: UInt64 = 0
        for byte in bytes {
            let digit = byte &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            value = value * 10 + UInt64(digit)
        }
        return value
    }

    /// `plainDigits` after an optional '-', when the value fits an Int64.
    private static func plainInteger(_ text: String) -> Int64? {
        var text = text
        return text.withUTF8 { bytes -> Int64? in
            let isNegative = bytes.first == UInt8(ascii: "-")
            guard let magnitude = plainDigits(isNegative ? UnsafeBufferPointer(rebasing: bytes.dropFirst()) : bytes)
            else { return nil }
            if isNegative {
                return magnitude <= UInt64(Int64.max) + 1 ? Int64(truncatingIfNeeded: 0 &- magnitude) : nil
            }
            return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
        }
    }

    private static func parseInteger(_ text: String) -> Int64? {
        let trimmed = text.trimmingASCIIWhitespace()
        var digits = Substring(trimmed)
        if digits.first == "-" { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int64(trimmed)
    }
}

extension String {
    /// The string without leading and trailing ASCII spaces, tabs and line breaks.
    package func trimmingASCIIWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let start = firstIndex(where: { !isSpace($0) }),
              let end = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[start...end])
    }
}
