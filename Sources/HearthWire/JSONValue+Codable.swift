/// Free-form JSON inside Codable types: the emulator's typed requests and answers carry custom claims,
/// raw provider profiles and blocking-function answers that no fixed type describes.
extension JSONValue: Codable {
    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { return nil }
    }

    public init(from decoder: any Decoder) throws {
        // A Decoder cannot say which kind of value it holds, so each kind is tried, strings (most of the
        // leaves) first. Every decoder Hearth meets is strict: a kind never reads as another.
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
            // Whole numbers as integers, so an encoder writes them as `JSONWriter` does ("3600").
            if let integer = integerValue {
                try single.encode(integer)
            } else if value.isFinite {
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
