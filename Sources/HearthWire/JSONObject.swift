/// A JSON object that keeps its members in the order they were first set (a parsed object: document
/// order), so the emulator's tokens and envelopes read like Firebase's and one value always writes the
/// same bytes.
///
/// Keys and values side by side, searched in order, with an index only past `indexThreshold` keys:
/// bodies, answers and claims have a handful of members, and hashing each key cost more than the search.
public struct JSONObject: Sendable {
    public private(set) var keys: [String] = []
    public private(set) var values: [JSONValue] = []
    /// Each key's position, once there are more than `indexThreshold`.
    private var index: [String: Int]?

    private static let indexThreshold = 8

    public init() {}

    public init(minimumCapacity: Int) {
        keys.reserveCapacity(minimumCapacity)
        values.reserveCapacity(minimumCapacity)
    }

    /// The pairs in order; a repeated key keeps its first position and its last value.
    public init(_ pairs: [(String, JSONValue)]) {
        self.init(minimumCapacity: pairs.count)
        for (key, value) in pairs { self[key] = value }
    }

    public var count: Int { keys.count }
    public var isEmpty: Bool { keys.isEmpty }

    public func contains(_ key: String) -> Bool { position(of: key) != nil }

    /// Setting nil removes the member; setting a present key replaces its value where it stands.
    public subscript(key: String) -> JSONValue? {
        get { position(of: key).map { values[$0] } }
        set {
            if let newValue {
                set(newValue, for: key)
            } else {
                removeValue(forKey: key)
            }
        }
    }

    @discardableResult
    public mutating func removeValue(forKey key: String) -> JSONValue? {
        guard let position = position(of: key) else { return nil }
        keys.remove(at: position)
        let removed = values.remove(at: position)
        if index != nil { buildIndex() }
        return removed
    }

    private func position(of key: String) -> Int? {
        if let index { return index[key] }
        return keys.firstIndex(of: key)
    }

    private mutating func set(_ value: JSONValue, for key: String) {
        if let position = position(of: key) {
            values[position] = value
            return
        }
        keys.append(key)
        values.append(value)
        if index != nil {
            index![key] = keys.count - 1
        } else if keys.count > Self.indexThreshold {
            buildIndex()
        }
    }

    private mutating func buildIndex() {
        guard keys.count > Self.indexThreshold else {
            index = nil
            return
        }
        var built: [String: Int] = [:]
        built.reserveCapacity(keys.count)
        for (position, key) in keys.enumerated() { built[key] = position }
        index = built
    }
}

extension JSONObject: Sequence {
    public struct Iterator: IteratorProtocol {
        private let object: JSONObject
        private var position = 0

        init(_ object: JSONObject) { self.object = object }

        public mutating func next() -> (key: String, value: JSONValue)? {
            guard position < object.keys.count else { return nil }
            defer { position += 1 }
            return (object.keys[position], object.values[position])
        }
    }

    public func makeIterator() -> Iterator { Iterator(self) }
    public var underestimatedCount: Int { keys.count }
}

extension JSONObject: Equatable {
    /// The same keys with equal values, in any order: order is how an object is written, not what it says.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.keys.count == rhs.keys.count else { return false }
        for position in lhs.keys.indices {
            guard let other = rhs[lhs.keys[position]], other == lhs.values[position] else { return false }
        }
        return true
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements)
    }
}
