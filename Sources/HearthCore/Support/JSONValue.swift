/// A JSON object as decoded from the wire.
public typealias JSONObject = [String: JSONValue]

/// Any JSON value. Server responses are decoded into this first, so every RPC reads fields by name
/// and tolerates the shapes the service actually sends (numbers as strings, missing optionals).
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    /// JSON numbers are IEEE doubles here, as in JavaScript: integers above 2^53 lose precision.
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)
}

/// Why bytes could not be read as JSON.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
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

// MARK: - Codable

extension JSONValue: Codable {
    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { return nil }
    }

    public init(from decoder: any Decoder) throws {
        // Decoder offers no way to peek at the kind of value, so try each kind, cheapest and most common
        // first: strings dominate the leaves of Identity Toolkit responses.
        if let single = try? decoder.singleValueContainer() {
            if single.decodeNil() { self = .null; return }
            if let value = try? single.decode(String.self) { self = .string(value); return }
            if let value = try? single.decode(Bool.self) { self = .bool(value); return }
            if let value = try? single.decode(Double.self) { self = .number(value); return }
        }
        if let keyed = try? decoder.container(keyedBy: AnyKey.self) {
            var object = JSONObject(minimumCapacity: keyed.allKeys.count)
            for key in keyed.allKeys {
                object[key.stringValue] = try keyed.decode(JSONValue.self, forKey: key)
            }
            self = .object(object)
            return
        }
        var unkeyed = try decoder.unkeyedContainer()
        var array: [JSONValue] = []
        if let count = unkeyed.count { array.reserveCapacity(count) }
        while !unkeyed.isAtEnd {
            array.append(try unkeyed.decode(JSONValue.self))
        }
        self = .array(array)
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case .bool(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .number(let value):
            var single = encoder.singleValueContainer()
            if value.isFinite {
                try single.encode(value)
            } else {
                try single.encodeNil()
            }
        case .string(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .array(let values):
            var unkeyed = encoder.unkeyedContainer()
            for value in values { try unkeyed.encode(value) }
        case .object(let object):
            var keyed = encoder.container(keyedBy: AnyKey.self)
            for (key, value) in object { try keyed.encode(value, forKey: AnyKey(stringValue: key)) }
        }
    }
}
