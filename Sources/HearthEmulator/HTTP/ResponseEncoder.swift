import Foundation
import HearthWire

/// Encodes responses to the bytes Foundation's `JSONEncoder` writes with `[.sortedKeys,
/// .withoutEscapingSlashes]` on Linux: keys ordered by their UTF-8 bytes, `\b` `\f` `\n` `\r` `\t`
/// and other control characters escaped as Foundation escapes them, integers in decimal.
///
/// Foundation's encoder boxes every value and looks up type metadata per field; it cost more than
/// the rest of a lookup. Anything this encoder does not mirror exactly (floating-point numbers,
/// Foundation's special types, super encoders, a value that encodes nothing) makes it give up, and
/// `JSONCoding.encode` then uses Foundation, so the bytes never differ.
enum ResponseEncoder {
    struct Unsupported: Error {}

    static func encode<T: Encodable>(_ value: T) throws(Unsupported) -> [UInt8] {
        let state = EncoderState()
        let root = Slot()
        do {
            try encodeValue(value, into: root, state: state, codingPath: [])
        } catch {
            throw Unsupported()
        }
        guard !state.unsupported, let node = root.node else { throw Unsupported() }
        var out: [UInt8] = []
        out.reserveCapacity(256)
        try write(node, into: &out)
        return out
    }

    // MARK: Tree

    fileprivate final class EncoderState {
        var unsupported = false
    }

    /// Where one value goes: a field, an array element or the root.
    fileprivate final class Slot {
        var node: Node?
    }

    /// Members in the order set; a key set twice keeps its last value (see `write`). A list, not a
    /// dictionary: hashing every field name cost more than sorting the few a response has.
    fileprivate final class ObjectBox {
        var members: [(key: String, node: Node)]

        init() {
            members = []
            members.reserveCapacity(16)
        }
    }

    fileprivate final class ArrayBox {
        var items: [Node] = []
    }

    fileprivate enum Node {
        case null
        case bool(Bool)
        case number(String)
        case string(String)
        case array(ArrayBox)
        case object(ObjectBox)
    }

    // MARK: Writing

    private static func write(_ node: Node, into out: inout [UInt8]) throws(Unsupported) {
        switch node {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
        case .number(let text): out.append(contentsOf: text.utf8)
        case .string(let text): JSONWriter.writeString(text, into: &out)
        case .array(let box):
            out.append(UInt8(ascii: "["))
            var first = true
            for item in box.items {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                try write(item, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let box):
            out.append(UInt8(ascii: "{"))
            var first = true
            let members = box.members
            let order = sortedIndices(members)
            for (position, index) in order.enumerated() {
                // A key set twice: Foundation keeps the first key's spelling with the last value,
                // and counts canonically equivalent spellings as one key; none of the emulator's
                // types does it, so it is left to Foundation.
                if position + 1 < order.count, !precedes(members[index].key, members[order[position + 1]].key) {
                    throw Unsupported()
                }
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                JSONWriter.writeString(members[index].key, into: &out)
                out.append(UInt8(ascii: ":"))
                try write(members[index].node, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Member indices by key in byte order of the UTF-8 forms (how Foundation sorts keys on
    /// Linux). Sorting
    /// indices keeps the strings and nodes from being copied (and reference-counted) per swap.
    private static func sortedIndices(_ members: [(key: String, node: Node)]) -> [Int] {
        var order = Array(members.indices)
        if members.count > 32 {
            order.sort { a, b in
                precedes(members[a].key, members[b].key) || (a < b && !precedes(members[b].key, members[a].key))
            }
            return order
        }
        // Responses have a handful of fields: insertion sort, no closure context.
        for position in order.indices.dropFirst() {
            let current = order[position]
            var slot = position
            while slot > 0, precedes(members[current].key, members[order[slot - 1]].key) {
                order[slot] = order[slot - 1]
                slot -= 1
            }
            order[slot] = current
        }
        return order
    }

    private static func precedes(_ a: String, _ b: String) -> Bool {
        let contiguous = a.utf8.withContiguousStorageIfAvailable { x in
            b.utf8.withContiguousStorageIfAvailable { y in
                let common = min(x.count, y.count)
                let order = common == 0 ? 0 : memcmp(x.baseAddress!, y.baseAddress!, common)
                return order != 0 ? order < 0 : x.count < y.count
            }
        }
        if let result = contiguous ?? nil { return result }
        return a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    // MARK: Encoder

    fileprivate struct NodeEncoder: Encoder {
        let state: EncoderState
        let slot: Slot
        let codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            KeyedEncodingContainer(KeyedContainer<Key>(state: state, box: objectBox(), codingPath: codingPath))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            UnkeyedContainer(state: state, box: arrayBox(), codingPath: codingPath)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer {
            SingleValueContainer(state: state, slot: slot, codingPath: codingPath)
        }

        /// Asking twice for a keyed container gives the same object, as Foundation does; asking
        /// for a different kind of container than the one already made is not mirrored.
        private func objectBox() -> ObjectBox {
            switch slot.node {
            case .object(let box): return box
            case nil:
                let box = ObjectBox()
                slot.node = .object(box)
                return box
            default:
                state.unsupported = true
                return ObjectBox()
            }
        }

        private func arrayBox() -> ArrayBox {
            switch slot.node {
            case .array(let box): return box
            case nil:
                let box = ArrayBox()
                slot.node = .array(box)
                return box
            default:
                state.unsupported = true
                return ArrayBox()
            }
        }
    }

    /// A value that is not a plain string, integer or Boolean. Foundation gives `Date`, `Data`,
    /// `URL` and `Decimal` its own encodings and prints floating-point numbers its own way; those
    /// are left to it.
    fileprivate static func encodeValue<T: Encodable>(_ value: T, into slot: Slot, state: EncoderState, codingPath: [any CodingKey]) throws {
        switch value {
        case let text as String: slot.node = .string(text)
        case let flag as Bool: slot.node = .bool(flag)
        case let number as Int: slot.node = .number(String(number))
        case let number as Int64: slot.node = .number(String(number))
        case let number as Int32: slot.node = .number(String(number))
        case let number as UInt64: slot.node = .number(String(number))
        case let number as UInt32: slot.node = .number(String(number))
        case let number as UInt: slot.node = .number(String(number))
        case is Double, is Float:
            throw Unsupported()
        default:
            let type = T.self as Any.Type
            if type == Date.self || type == Data.self || type == URL.self || type == Decimal.self {
                throw Unsupported()
            }
            try value.encode(to: NodeEncoder(state: state, slot: slot, codingPath: codingPath))
            // Foundation writes `{}` for a value that encodes nothing; rare enough to leave to it.
            if slot.node == nil { throw Unsupported() }
        }
    }

    fileprivate struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let state: EncoderState
        let box: ObjectBox
        let codingPath: [any CodingKey]

        private func set(_ node: Node, _ key: Key) {
            box.members.append((key.stringValue, node))
        }

        mutating func encodeNil(forKey key: Key) throws { set(.null, key) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), key) }
        mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), key) }
        mutating func encode(_ value: Double, forKey key: Key) throws { throw Unsupported() }
        mutating func encode(_ value: Float, forKey key: Key) throws { throw Unsupported() }
        mutating func encode(_ value: Int, forKey key: Key) throws { set(.number(String(value)), key) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { set(.number(String(value)), key) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { set(.number(String(value)), key) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { set(.number(String(value)), key) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { set(.number(String(value)), key) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { set(.number(String(value)), key) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { set(.number(String(value)), key) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { set(.number(String(value)), key) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { set(.number(String(value)), key) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { set(.number(String(value)), key) }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            let slot = Slot()
            try ResponseEncoder.encodeValue(value, into: slot, state: state, codingPath: codingPath + [key])
            if let node = slot.node { set(node, key) }
        }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type, forKey key: Key
        ) -> KeyedEncodingContainer<NestedKey> {
            let nested = ObjectBox()
            set(.object(nested), key)
            return KeyedEncodingContainer(KeyedContainer<NestedKey>(state: state, box: nested, codingPath: codingPath + [key]))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let nested = ArrayBox()
            set(.array(nested), key)
            return UnkeyedContainer(state: state, box: nested, codingPath: codingPath + [key])
        }

        mutating func superEncoder() -> any Encoder {
            state.unsupported = true
            return NodeEncoder(state: state, slot: Slot(), codingPath: codingPath)
        }

        mutating func superEncoder(forKey key: Key) -> any Encoder {
            state.unsupported = true
            return NodeEncoder(state: state, slot: Slot(), codingPath: codingPath)
        }
    }

    fileprivate struct IndexKey: CodingKey {
        var stringValue: String { "Index \(index)" }
        var intValue: Int? { index }
        let index: Int
        init(index: Int) { self.index = index }
        init?(stringValue: String) { nil }
        init?(intValue: Int) { index = intValue }
    }

    fileprivate struct UnkeyedContainer: UnkeyedEncodingContainer {
        let state: EncoderState
        let box: ArrayBox
        let codingPath: [any CodingKey]
        var count: Int { box.items.count }

        private func append(_ node: Node) {
            box.items.append(node)
        }

        mutating func encodeNil() throws { append(.null) }
        mutating func encode(_ value: Bool) throws { append(.bool(value)) }
        mutating func encode(_ value: String) throws { append(.string(value)) }
        mutating func encode(_ value: Double) throws { throw Unsupported() }
        mutating func encode(_ value: Float) throws { throw Unsupported() }
        mutating func encode(_ value: Int) throws { append(.number(String(value))) }
        mutating func encode(_ value: Int8) throws { append(.number(String(value))) }
        mutating func encode(_ value: Int16) throws { append(.number(String(value))) }
        mutating func encode(_ value: Int32) throws { append(.number(String(value))) }
        mutating func encode(_ value: Int64) throws { append(.number(String(value))) }
        mutating func encode(_ value: UInt) throws { append(.number(String(value))) }
        mutating func encode(_ value: UInt8) throws { append(.number(String(value))) }
        mutating func encode(_ value: UInt16) throws { append(.number(String(value))) }
        mutating func encode(_ value: UInt32) throws { append(.number(String(value))) }
        mutating func encode(_ value: UInt64) throws { append(.number(String(value))) }

        mutating func encode<T: Encodable>(_ value: T) throws {
            let slot = Slot()
            try ResponseEncoder.encodeValue(value, into: slot, state: state, codingPath: codingPath + [IndexKey(index: count)])
            // encodeValue either fills the slot or throws.
            if let node = slot.node { append(node) }
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            let path = codingPath + [IndexKey(index: count)]
            let nested = ObjectBox()
            append(.object(nested))
            return KeyedEncodingContainer(KeyedContainer<NestedKey>(state: state, box: nested, codingPath: path))
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let path = codingPath + [IndexKey(index: count)]
            let nested = ArrayBox()
            append(.array(nested))
            return UnkeyedContainer(state: state, box: nested, codingPath: path)
        }

        mutating func superEncoder() -> any Encoder {
            state.unsupported = true
            return NodeEncoder(state: state, slot: Slot(), codingPath: codingPath)
        }
    }

    fileprivate struct SingleValueContainer: SingleValueEncodingContainer {
        let state: EncoderState
        let slot: Slot
        let codingPath: [any CodingKey]

        private func set(_ node: Node) {
            // Foundation traps on a second value; never done by the emulator's types.
            if slot.node != nil { state.unsupported = true }
            slot.node = node
        }

        mutating func encodeNil() throws { set(.null) }
        mutating func encode(_ value: Bool) throws { set(.bool(value)) }
        mutating func encode(_ value: String) throws { set(.string(value)) }
        mutating func encode(_ value: Double) throws { throw Unsupported() }
        mutating func encode(_ value: Float) throws { throw Unsupported() }
        mutating func encode(_ value: Int) throws { set(.number(String(value))) }
        mutating func encode(_ value: Int8) throws { set(.number(String(value))) }
        mutating func encode(_ value: Int16) throws { set(.number(String(value))) }
        mutating func encode(_ value: Int32) throws { set(.number(String(value))) }
        mutating func encode(_ value: Int64) throws { set(.number(String(value))) }
        mutating func encode(_ value: UInt) throws { set(.number(String(value))) }
        mutating func encode(_ value: UInt8) throws { set(.number(String(value))) }
        mutating func encode(_ value: UInt16) throws { set(.number(String(value))) }
        mutating func encode(_ value: UInt32) throws { set(.number(String(value))) }
        mutating func encode(_ value: UInt64) throws { set(.number(String(value))) }

        mutating func encode<T: Encodable>(_ value: T) throws {
            if slot.node != nil { state.unsupported = true }
            try ResponseEncoder.encodeValue(value, into: slot, state: state, codingPath: codingPath)
        }
    }
}
