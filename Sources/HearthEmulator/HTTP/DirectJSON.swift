/// An answer type that writes its own JSON: exactly the bytes `JSONCoding.encode` gives for it
/// (keys in UTF-8 byte order, Foundation's escaping), without ResponseEncoder's tree of boxed
/// nodes, which cost more than the rest of a lookup. Debug builds compare the two on every answer
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

/// Writes one object's members as `ResponseEncoder` does: absent (nil) members are left out, and
/// the caller lists members in ResponseEncoder's key order, which debug builds check.
struct JSONObjectWriter {
    private var isFirst = true
    #if DEBUG
    private var previousKey: String?
    #endif

    /// `{`, the members `body` writes, `}`.
    static func write(into out: inout [UInt8], _ body: (inout JSONObjectWriter, inout [UInt8]) -> Void) {
        out.append(UInt8(ascii: "{"))
        var writer = JSONObjectWriter()
        body(&writer, &out)
        out.append(UInt8(ascii: "}"))
    }

    /// `,"name":` (names are plain ASCII without anything to escape).
    mutating func key(_ name: StaticString, into out: inout [UInt8]) {
        #if DEBUG
        let key = name.description
        if let previousKey {
            assert(previousKey.utf8.lexicographicallyPrecedes(key.utf8), "\(key) written after \(previousKey)")
        }
        previousKey = key
        #endif
        if !isFirst { out.append(UInt8(ascii: ",")) }
        isFirst = false
        out.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { out.append(contentsOf: $0) }
        out.append(contentsOf: "\":".utf8)
    }

    mutating func string(_ name: StaticString, _ value: String?, into out: inout [UInt8]) {
        guard let value else { return }
        key(name, into: &out)
        ResponseEncoder.writeString(value, into: &out)
    }

    mutating func bool(_ name: StaticString, _ value: Bool?, into out: inout [UInt8]) {
        guard let value else { return }
        key(name, into: &out)
        out.append(contentsOf: (value ? "true" : "false").utf8)
    }

    mutating func integer(_ name: StaticString, _ value: Int64?, into out: inout [UInt8]) {
        guard let value else { return }
        key(name, into: &out)
        out.append(contentsOf: String(value).utf8)
    }

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
