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
struct JSONObject: Sendable, Equatable {
    private(set) var keys: [String] = []
    private var values: [String: JSONValue] = [:]

    init() {}

    init(_ pairs: [(String, JSONValue)]) {
        for (key, value) in pairs { self[key] = value }
    }

    subscript(key: String) -> JSONValue? {
        get { values[key] }
        set {
            if let newValue {
                if values.updateValue(newValue, forKey: key) == nil { keys.append(key) }
            } else if values.removeValue(forKey: key) != nil {
                keys.removeAll { $0 == key }
            }
        }
    }

    var isEmpty: Bool { keys.isEmpty }
    var entries: [(key: String, value: JSONValue)] { keys.compactMap { k in values[k].map { (k, $0) } } }
    func contains(_ key: String) -> Bool { values[key] != nil }

    static func == (lhs: JSONObject, rhs: JSONObject) -> Bool { lhs.values == rhs.values }
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
