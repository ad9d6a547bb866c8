import Foundation
import HearthWire

/// Decodes a typed request straight from the validated `JSONObject`: Foundation's decoder needs the
/// object written out as text and parsed again, boxing every value on the way.
///
/// It only ever gives the value Foundation's `JSONDecoder` would give for that object's text:
/// whatever it does not mirror exactly (a type mismatch, a missing key, floating-point `Float`,
/// Foundation's special types) throws, and `JSONCoding.decode` then asks Foundation, which decides
/// and words any error as before.
enum RequestDecoder {
    struct Unsupported: Error {}

    static func decode<T: Decodable>(_ type: T.Type, from object: JSONObject) throws(Unsupported) -> T {
        do {
            return try decodeValue(type, from: .object(object), codingPath: [])
        } catch {
            throw Unsupported()
        }
    }

    fileprivate static func decodeValue<T: Decodable>(_ type: T.Type, from value: JSONValue, codingPath: [any CodingKey]) throws -> T {
        switch type {
        case is String.Type:
            guard case .string(let text) = value else { throw Unsupported() }
            return text as! T
        case is Bool.Type:
            guard case .bool(let flag) = value else { throw Unsupported() }
            return flag as! T
        default:
            let any = type as Any.Type
            if any == Date.self || any == Data.self || any == URL.self || any == Decimal.self {
                throw Unsupported()
            }
            return try T(from: ValueDecoder(value: value, codingPath: codingPath))
        }
    }

    /// Foundation reads the number from the text `JSONWriter` made of it: integral values within
    /// Int64 as integers, others in Swift's shortest round-trip form. Both read back as the same
    /// `Double`, and as an integer exactly when integral and within the type's range.
    fileprivate static func integer<I: FixedWidthInteger>(_ type: I.Type, from value: JSONValue) throws -> I {
        guard let integer = value.integerValue, let result = I(exactly: integer) else { throw Unsupported() }
        return result
    }

    fileprivate static func double(from value: JSONValue) throws -> Double {
        guard case .number(let number) = value else { throw Unsupported() }
        return number
    }

    fileprivate struct ValueDecoder: Decoder {
        let value: JSONValue
        let codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            guard case .object(let object) = value else { throw Unsupported() }
            return KeyedDecodingContainer(KeyedContainer<Key>(object: object, codingPath: codingPath))
        }

        func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
            guard case .array(let items) = value else { throw Unsupported() }
            return UnkeyedContainer(items: items, codingPath: codingPath)
        }

        func singleValueContainer() throws -> any SingleValueDecodingContainer {
            SingleValueContainer(value: value, codingPath: codingPath)
        }
    }

    fileprivate struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let object: JSONObject
        let codingPath: [any CodingKey]

        var allKeys: [Key] { object.keys.compactMap { Key(stringValue: $0) } }

        func contains(_ key: Key) -> Bool { object.contains(key.stringValue) }

        private func value(_ key: Key) throws -> JSONValue {
            guard let value = object[key.stringValue] else { throw Unsupported() }
            return value
        }

        func decodeNil(forKey key: Key) throws -> Bool { try value(key) == .null }
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
            guard case .bool(let flag) = try value(key) else { throw Unsupported() }
            return flag
        }
        func decode(_ type: String.Type, forKey key: Key) throws -> String {
            guard case .string(let text) = try value(key) else { throw Unsupported() }
            return text
        }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try RequestDecoder.double(from: value(key)) }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { throw Unsupported() }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try RequestDecoder.integer(type, from: value(key)) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try RequestDecoder.integer(type, from: value(key)) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try RequestDecoder.integer(type, from: value(key)) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try RequestDecoder.integer(type, from: value(key)) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try RequestDecoder.integer(type, from: value(key)) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try RequestDecoder.integer(type, from: value(key)) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try RequestDecoder.integer(type, from: value(key)) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try RequestDecoder.integer(type, from: value(key)) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try RequestDecoder.integer(type, from: value(key)) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try RequestDecoder.integer(type, from: value(key)) }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            try RequestDecoder.decodeValue(type, from: value(key), codingPath: codingPath + [key])
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            try ValueDecoder(value: value(key), codingPath: codingPath + [key]).container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try ValueDecoder(value: value(key), codingPath: codingPath + [key]).unkeyedContainer()
        }

        func superDecoder() throws -> any Decoder { throw Unsupported() }
        func superDecoder(forKey key: Key) throws -> any Decoder { throw Unsupported() }
    }

    fileprivate struct IndexKey: CodingKey {
        var stringValue: String { "Index \(index)" }
        var intValue: Int? { index }
        let index: Int
        init(index: Int) { self.index = index }
        init?(stringValue: String) { nil }
        init?(intValue: Int) { index = intValue }
    }

    fileprivate struct UnkeyedContainer: UnkeyedDecodingContainer {
        let items: [JSONValue]
        let codingPath: [any CodingKey]
        var currentIndex = 0

        init(items: [JSONValue], codingPath: [any CodingKey]) {
            self.items = items
            self.codingPath = codingPath
        }

        var count: Int? { items.count }
        var isAtEnd: Bool { currentIndex >= items.count }

        private mutating func next() throws -> JSONValue {
            guard currentIndex < items.count else { throw Unsupported() }
            defer { currentIndex += 1 }
            return items[currentIndex]
        }

        mutating func decodeNil() throws -> Bool {
            guard currentIndex < items.count else { throw Unsupported() }
            if items[currentIndex] == .null {
                currentIndex += 1
                return true
            }
            return false
        }

        mutating func decode(_ type: Bool.Type) throws -> Bool {
            guard case .bool(let flag) = try next() else { throw Unsupported() }
            return flag
        }
        mutating func decode(_ type: String.Type) throws -> String {
            guard case .string(let text) = try next() else { throw Unsupported() }
            return text
        }
        mutating func decode(_ type: Double.Type) throws -> Double { try RequestDecoder.double(from: next()) }
        mutating func decode(_ type: Float.Type) throws -> Float { throw Unsupported() }
        mutating func decode(_ type: Int.Type) throws -> Int { try RequestDecoder.integer(type, from: next()) }
        mutating func decode(_ type: Int8.Type) throws -> Int8 { try RequestDecoder.integer(type, from: next()) }
        mutating func decode(_ type: Int16.Type) throws -> Int16 { try RequestDecoder.integer(type, from: next()) }
        mutating func decode(_ type: Int32.Type) throws -> Int32 { try RequestDecoder.integer(type, from: next()) }
        mutating func decode(_ type: Int64.Type) throws -> Int64 { try RequestDecoder.integer(type, from: next()) }
        mutating func decode(_ type: UInt.Type) throws -> UInt { try RequestDecoder.integer(type, from: next()) }
        mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try RequestDecoder.integer(type, from: next()) }
        mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try RequestDecoder.integer(type, from: next()) }
        mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try RequestDecoder.integer(type, from: next()) }
        mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try RequestDecoder.integer(type, from: next()) }

        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            let path = codingPath + [IndexKey(index: currentIndex)]
            return try RequestDecoder.decodeValue(type, from: next(), codingPath: path)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            let path = codingPath + [IndexKey(index: currentIndex)]
            return try ValueDecoder(value: next(), codingPath: path).container(keyedBy: type)
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            let path = codingPath + [IndexKey(index: currentIndex)]
            return try ValueDecoder(value: next(), codingPath: path).unkeyedContainer()
        }

        mutating func superDecoder() throws -> any Decoder { throw Unsupported() }
    }

    fileprivate struct SingleValueContainer: SingleValueDecodingContainer {
        let value: JSONValue
        let codingPath: [any CodingKey]

        func decodeNil() -> Bool { value == .null }
        func decode(_ type: Bool.Type) throws -> Bool {
            guard case .bool(let flag) = value else { throw Unsupported() }
            return flag
        }
        func decode(_ type: String.Type) throws -> String {
            guard case .string(let text) = value else { throw Unsupported() }
            return text
        }
        func decode(_ type: Double.Type) throws -> Double { try RequestDecoder.double(from: value) }
        func decode(_ type: Float.Type) throws -> Float { throw Unsupported() }
        func decode(_ type: Int.Type) throws -> Int { try RequestDecoder.integer(type, from: value) }
        func decode(_ type: Int8.Type) throws -> Int8 { try RequestDecoder.integer(type, from: value) }
        func decode(_ type: Int16.Type) throws -> Int16 { try RequestDecoder.integer(type, from: value) }
        func decode(_ type: Int32.Type) throws -> Int32 { try RequestDecoder.integer(type, from: value) }
        func decode(_ type: Int64.Type) throws -> Int64 { try RequestDecoder.integer(type, from: value) }
        func decode(_ type: UInt.Type) throws -> UInt { try RequestDecoder.integer(type, from: value) }
        func decode(_ type: UInt8.Type) throws -> UInt8 { try RequestDecoder.integer(type, from: value) }
        func decode(_ type: UInt16.Type) throws -> UInt16 { try RequestDecoder.integer(type, from: value) }
        func decode(_ type: UInt32.Type) throws -> UInt32 { try RequestDecoder.integer(type, from: value) }
        func decode(_ type: UInt64.Type) throws -> UInt64 { try RequestDecoder.integer(type, from: value) }

        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            try RequestDecoder.decodeValue(type, from: value, codingPath: codingPath)
        }
    }
}
