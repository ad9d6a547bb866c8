/// Any JSON value: what the client reads from Identity Toolkit's answers and ID tokens, and what the
/// emulator reads from requests and writes into tokens. Both sides read fields by name and tolerate the
/// shapes the service actually sends (numbers as strings, missing optionals), so one dynamic type serves.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// JSON numbers are IEEE doubles here, as in JavaScript: integers above 2^53 lose precision.
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)
}

/// Why bytes could not be read as JSON: what went wrong (`kind`, `reason`) and where (`offset`, in bytes).
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// Not JSON's grammar (a byte order mark included, which Google's parser rejects).
        case syntax
        /// A string's bytes are not UTF-8. The emulator words this one as Google does.
        case invalidUTF8
        /// More nested arrays and objects than `JSONParser.maximumDepth`.
        case tooDeep
        /// A number whose magnitude no Double holds.
        case numberOutOfRange
    }

    public let kind: Kind
    public let reason: String
    public let offset: Int

    public init(_ kind: Kind, _ reason: String, at offset: Int) {
        self.kind = kind
        self.reason = reason
        self.offset = offset
    }

    public var description: String { "invalid JSON: \(reason) at byte \(offset)" }
}

extension JSONValue {
    /// Parses one JSON document (any value at top level) strictly as RFC 8259 says (see `JSONParser`).
    /// Invalid UTF-8, syntax errors, absurd nesting and empty input are errors, never crashes.
    public static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        try JSONParser.parse(bytes)
    }

    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8))
    }
}

// MARK: - Access

extension JSONValue {
    /// The member `key` of an object; nil for a missing key or a non-object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let object) = self else { return nil }
        return object[key]
    }

    /// The element at `index` of an array; nil when out of range or not an array.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let array) = self, array.indices.contains(index) else { return nil }
        return array[index]
    }

    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    public var doubleValue: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// A number that is a whole Int64 (`3600`, `1e3`), nil for fractions, other kinds and numbers out
    /// of range. Strings of digits are `int64Value`'s business.
    public var integerValue: Int64? {
        if case .number(let value) = self { return Int64(exactly: value) }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    public var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }
}

// MARK: - Literals (request bodies and tests read like the JSON they stand for)

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        var object = JSONObject(minimumCapacity: elements.count)
        for (key, value) in elements { object[key] = value }
        self = .object(object)
    }
}
