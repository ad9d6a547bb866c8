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
    func trimmingASCIIWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let start = firstIndex(where: { !isSpace($0) }),
              let end = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[start...end])
    }
}
