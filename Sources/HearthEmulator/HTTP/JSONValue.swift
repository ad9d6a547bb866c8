/// A JSON document as parsed from a request or built for a token: the emulator handles free-form
/// JSON (custom claims, fake tokens) that no fixed Codable type describes.
enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    var boolValue: Bool? { if case .bool(let b) = self { b } else { nil } }
    var numberValue: Double? { if case .number(let n) = self { n } else { nil } }
    var objectValue: JSONObject? { if case .object(let o) = self { o } else { nil } }
    var arrayValue: [JSONValue]? { if case .array(let a) = self { a } else { nil } }

    /// The value as JSON text would show it, for error messages.
    var jsonText: String { JSONCoding.text(self) }

    /// Integral numbers within Int64 are written without a fraction, as JavaScript prints them.
    var integerValue: Int64? {
        guard case .number(let n) = self, n.rounded() == n, abs(n) < 9.2e18 else { return nil }
        return Int64(n)
    }
}

/// A JSON object that remembers the order its keys were set in, so tokens and responses read naturally.
///
/// Keys and values are kept side by side and searched in order; objects with more than a few keys
/// get an index. Request bodies and token claims have a handful of keys, and hashing each one was
/// a visible share of every request.
struct JSONObject: Sendable, Equatable {
    private(set) var keys: [String] = []
    private var storedValues: [JSONValue] = []
    /// Position of each key, for objects larger than `indexThreshold`.
    private var index: [String: Int]?

    private static let indexThreshold = 8

    init() {}

    init(_ pairs: [(String, JSONValue)]) {
        for (key, value) in pairs { self[key] = value }
    }

    private func position(of key: String) -> Int? {
        if let index { return index[key] }
        return keys.firstIndex(of: key)
    }

    subscript(key: String) -> JSONValue? {
        get { position(of: key).map { storedValues[$0] } }
        set {
            if let newValue {
                if let position = position(of: key) {
                    // The key keeps the spelling it was first set with, as a dictionary keeps it.
                    storedValues[position] = newValue
                } else {
                    keys.append(key)
                    storedValues.append(newValue)
                    if index != nil {
                        index![key] = keys.count - 1
                    } else if keys.count > Self.indexThreshold {
                        buildIndex()
                    }
                }
            } else if let position = position(of: key) {
                keys.remove(at: position)
                storedValues.remove(at: position)
                if index != nil { buildIndex() }
            }
        }
    }

    private mutating func buildIndex() {
        var built: [String: Int] = [:]
        built.reserveCapacity(keys.count)
        for (position, key) in keys.enumerated() { built[key] = position }
        index = built
    }

    var isEmpty: Bool { keys.isEmpty }
    var entries: [(key: String, value: JSONValue)] { Array(zip(keys, storedValues)) }
    /// The values in key order (`zip(keys, values)` walks the entries without building an array).
    var values: [JSONValue] { storedValues }

    /// The entries in order without building an array of them.
    func forEachEntry(_ body: (String, JSONValue) throws -> Void) rethrows {
        for position in keys.indices { try body(keys[position], storedValues[position]) }
    }

    func contains(_ key: String) -> Bool { position(of: key) != nil }

    /// Same keys with equal values, in any order.
    static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.keys.count == rhs.keys.count else { return false }
        for position in lhs.keys.indices {
            guard let other = rhs[lhs.keys[position]], other == lhs.storedValues[position] else { return false }
        }
        return true
    }
}

extension JSONValue: Codable {
    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([JSONValue].self) {
            self = .array(array)
        } else {
            let keyed = try decoder.container(keyedBy: DynamicKey.self)
            var object = JSONObject()
            for key in keyed.allKeys {
                object[key.stringValue] = try keyed.decode(JSONValue.self, forKey: key)
            }
            self = .object(object)
        }
    }

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var c = encoder.singleValueContainer(); try c.encodeNil()
        case .bool(let b):
            var c = encoder.singleValueContainer(); try c.encode(b)
        case .number(let n):
            var c = encoder.singleValueContainer()
            if let i = integerValue { try c.encode(i) } else { try c.encode(n) }
        case .string(let s):
            var c = encoder.singleValueContainer(); try c.encode(s)
        case .array(let a):
            var c = encoder.unkeyedContainer()
            for v in a { try c.encode(v) }
        case .object(let o):
            var c = encoder.container(keyedBy: DynamicKey.self)
            for (k, v) in o.entries { try c.encode(v, forKey: DynamicKey(k)) }
        }
    }
}

struct DynamicKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
