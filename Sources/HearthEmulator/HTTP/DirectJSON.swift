import HearthWire

/// An answer type that writes its own JSON: exactly the bytes `JSONCoding.encode` gives for it (keys
/// in UTF-8 byte order, `JSONWriter`'s escaping, which is Foundation's), without ResponseEncoder's tree
/// of boxed nodes, which cost more than the rest of a lookup. Debug builds compare the two on every answer
/// (`Reply`), so the test suite run against a debug build checks every hand-written writer.
protocol DirectJSON: Encodable {
    func writeJSON(into out: inout [UInt8])
}

extension DirectJSON {
    var jsonBytes: [UInt8] {
        var out: [UInt8] = []
        // A sign-in's answer (two tokens) is about 1.3 KB.
        out.reserveCapacity(2048)
        writeJSON(into: &out)
        return out
    }
}

/// Members only the emulator's answers have: arrays of answer types and parts left to `JSONCoding`.
extension JSONObjectWriter {
    mutating func array<Element: DirectJSON>(_ name: StaticString, _ values: [Element]?, into out: inout [UInt8]) {
        guard let values else { return }
        key(name, into: &out)
        out.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            value.writeJSON(into: &out)
        }
        out.append(UInt8(ascii: "]"))
    }

    /// A member written by `JSONCoding.encode`, for parts too rare to be worth a writer of their own.
    mutating func encoded<Value: Encodable>(_ name: StaticString, _ value: Value?, into out: inout [UInt8]) {
        guard let value else { return }
        key(name, into: &out)
        out.append(contentsOf: JSONCoding.encode(value))
    }
}
