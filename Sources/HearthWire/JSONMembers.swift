import CHearthWire

/// Member-by-member reading of JSON objects, from bytes or from a parsed tree.
///
/// A record that knows which members it wants (`JSONMembers`) reads them one at a time as they come,
/// so the answers every sign-in gets (token RPCs, lookup, token refresh, the ID token's claims) are read
/// straight from the bytes: no `JSONValue` tree, no keys and no strings for the members nobody reads.
/// The same `read` decodes a tree when one was built anyway (an answer that needed a closer look), so
/// each record has one decoder, not two.

// Public rather than `package`, with the reading `@inlinable`: the client's and the emulator's records
// must specialize the reader and inline `~=`, and Swift 6.3 serializes the bodies of `@inlinable package`
// declarations only under library evolution (which would cost more than it saves).

/// An object member's name. Only valid during the `JSONMembers.read` call that receives it.
public struct JSONKey {
    @usableFromInline let bytes: UnsafeBufferPointer<UInt8>?
    @usableFromInline let text: String?

    /// Bytes of the document (a key without escapes).
    @usableFromInline init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        self.text = nil
    }

    /// A key that had escapes, or a tree's key.
    @usableFromInline init(text: String) {
        self.bytes = nil
        self.text = text
    }

    /// The key as a string (keys are valid UTF-8 by the time a reader sees them).
    var string: String {
        text ?? bytes.map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    // Always inlined: a `switch` calls it once per case, and nearly every call ends at the length check.
    @inlinable @inline(__always) public static func ~= (name: StaticString, key: JSONKey) -> Bool {
        let expected = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
        if let bytes = key.bytes {
            // Lengths differ for almost every pair a `switch` tries: one comparison, no loop.
            guard bytes.count == expected.count else { return false }
            guard let base = bytes.baseAddress else { return expected.isEmpty }
            return hearth_bytes_equal(base, name.utf8Start, expected.count) != 0
        }
        return key.text?.utf8.elementsEqual(expected) ?? false
    }
}

/// A record read member by member. `read` is called once per member in document order, and must take
/// the value (`value`, `objects`, `object`) or `skip` it. A repeated key is read again: the last one
/// wins, as in a parsed `JSONObject`.
public protocol JSONMembers {
    init()
    mutating func read<Source: JSONMemberSource>(_ key: JSONKey, _ source: inout Source) throws(JSONParseError)
}

/// Where a member's value comes from: the bytes (`JSONParser`) or a tree (`JSONTreeMember`).
public protocol JSONMemberSource {
    /// The value, parsed.
    mutating func value() throws(JSONParseError) -> JSONValue
    /// The object elements of an array value, each read as `T` (other elements are skipped); empty when
    /// the value is not an array.
    mutating func objects<T: JSONMembers>(_ type: T.Type) throws(JSONParseError) -> [T]
    /// An object value read as `T`; nil when the value is not an object.
    mutating func object<T: JSONMembers>(_ type: T.Type) throws(JSONParseError) -> T?
    mutating func skip() throws(JSONParseError)
}

extension JSONMembers {
    /// Reads a parsed object.
    public init(_ object: JSONObject) {
        self.init()
        for (key, value) in object {
            var member = JSONTreeMember(value)
            // A tree source never throws: its values are already parsed.
            try? read(JSONKey(text: key), &member)
        }
    }

    /// Reads a whole document that must be one object; the same strictness as `JSONValue.parse`
    /// (the rest of the document is checked too, even where nobody reads it).
    @inlinable public init(bytes: [UInt8]) throws(JSONParseError) {
        // Thrown straight through, not carried out in a `Result`: `Result.get()` copied the members (every
        // string retained, then the `Result` destroyed), ~1k instructions a sign-in (bench/FINDINGS.md).
        self = try bytes.withUnsafeBufferPointer { (buffer) throws(JSONParseError) -> Self in
            var parser = JSONParser(buffer)
            return try parser.readDocument(Self.self)
        }
    }
}

/// A member value of a parsed tree.
struct JSONTreeMember: JSONMemberSource {
    let tree: JSONValue

    init(_ tree: JSONValue) { self.tree = tree }

    func value() -> JSONValue { tree }

    func objects<T: JSONMembers>(_ type: T.Type) -> [T] {
        (tree.arrayValue ?? []).compactMap { $0.objectValue.map(T.init) }
    }

    func object<T: JSONMembers>(_ type: T.Type) -> T? {
        tree.objectValue.map(T.init)
    }

    func skip() {}
}

extension JSONParser: JSONMemberSource {
    /// The document's one object, read as `T`.
    @inlinable mutating func readDocument<T: JSONMembers>(_ type: T.Type) throws(JSONParseError) -> T {
        var members = T()
        try readDocument(into: &members)
        return members
    }

    /// The document's one object, read into `members`.
    @inlinable mutating func readDocument<T: JSONMembers>(into members: inout T) throws(JSONParseError) {
        try startDocument()
        guard peek == UInt8(ascii: "{") else { throw failure("expected an object") }
        try readObject(into: &members, depth: 1)
        try finishDocument()
    }

    @inlinable mutating func value() throws(JSONParseError) -> JSONValue {
        try parseValue(depth: memberDepth)
    }

    @inlinable mutating func objects<T: JSONMembers>(_ type: T.Type) throws(JSONParseError) -> [T] {
        guard peek == UInt8(ascii: "[") else {
            try skip()
            return []
        }
        var elements: [T] = []
        try walkArray(depth: memberDepth + 1) { parser, depth throws(JSONParseError) in
            if parser.peek == UInt8(ascii: "{") {
                elements.append(try parser.readObject(T.self, depth: depth + 1))
            } else {
                try parser.skipValue(depth: depth)
            }
        }
        return elements
    }

    @inlinable mutating func object<T: JSONMembers>(_ type: T.Type) throws(JSONParseError) -> T? {
        guard peek == UInt8(ascii: "{") else {
            try skip()
            return nil
        }
        return try readObject(T.self, depth: memberDepth + 1)
    }

    @inlinable mutating func skip() throws(JSONParseError) {
        try skipValue(depth: memberDepth)
    }

    /// The object at `index` (its `{`), `depth` levels deep, member by member. `parseObject` too reads
    /// objects this way, into `JSONObjectMembers`.
    @inlinable mutating func readObject<T: JSONMembers>(_ type: T.Type, depth: Int) throws(JSONParseError) -> T {
        var members = T()
        try readObject(into: &members, depth: depth)
        return members
    }

    /// `readObject`, into a record made by the caller (one that needs more than `init()`).
    @inlinable mutating func readObject<T: JSONMembers>(into members: inout T, depth: Int) throws(JSONParseError) {
        guard depth <= Self.maximumDepth else { throw tooDeep() }
        index += 1
        skipWhitespace()
        if peek == UInt8(ascii: "}") {
            index += 1
            return
        }
        let outerDepth = memberDepth
        memberDepth = depth
        defer { memberDepth = outerDepth }
        while true {
            // Also what rejects a trailing comma: after "," only a key may follow.
            guard peek == UInt8(ascii: "\"") else { throw failure("expected a string key") }
            let keyStart = index + 1
            let plainKey = try scanPlainString()
            var escapedKey: String?
            if plainKey == nil {
                escapedKey = try parseEscapedString(from: keyStart)
            } else if let plainKey, !plainKey.isASCII {
                _ = try makeString(UnsafeBufferPointer(rebasing: bytes[plainKey.range]), isASCII: false)
            }
            skipWhitespace()
            guard peek == UInt8(ascii: ":") else { throw failure("expected ':' after an object key") }
            index += 1
            skipWhitespace()
            let valueStart = index
            let key = escapedKey.map(JSONKey.init(text:))
                ?? JSONKey(bytes: UnsafeBufferPointer(rebasing: bytes[plainKey?.range ?? keyStart..<keyStart]))
            try members.read(key, &self)
            // A reader that forgot to take its value would misread the rest as keys: take it here.
            if index == valueStart { try skipValue(depth: depth) }
            skipWhitespace()
            switch peek {
            case UInt8(ascii: ","):
                index += 1
                skipWhitespace()
            case UInt8(ascii: "}"):
                index += 1
                return
            default:
                throw failure("expected ',' or '}' in an object")
            }
        }
    }

    /// The array at `index` (its `[`), `depth` levels deep: `element` takes each element (`parseArray`
    /// builds its arrays this way too).
    @inlinable mutating func walkArray(depth: Int,
                                    _ element: (inout JSONParser, Int) throws(JSONParseError) -> Void)
        throws(JSONParseError)
    {
        guard depth <= Self.maximumDepth else { throw tooDeep() }
        index += 1
        skipWhitespace()
        if peek == UInt8(ascii: "]") {
            index += 1
            return
        }
        while true {
            try element(&self, depth)
            skipWhitespace()
            switch peek {
            case UInt8(ascii: ","):
                index += 1
                skipWhitespace()
                if peek == UInt8(ascii: "]") { throw failure("trailing comma in an array") }
            case UInt8(ascii: "]"):
                index += 1
                return
            default:
                throw failure("expected ',' or ']' in an array")
            }
        }
    }

    @usableFromInline func tooDeep() -> JSONParseError {
        failure("more than \(Self.maximumDepth) nested arrays and objects", kind: .tooDeep)
    }

    /// Checks one value as strictly as `parseValue` without building it: strings are scanned, not copied
    /// (non-ASCII ones still validated), containers walked.
    @usableFromInline mutating func skipValue(depth: Int) throws(JSONParseError) {
        switch peek {
        case UInt8(ascii: "\""):
            let start = index + 1
            if let plain = try scanPlainString() {
                if !plain.isASCII {
                    _ = try makeString(UnsafeBufferPointer(rebasing: bytes[plain.range]), isASCII: false)
                }
            } else {
                _ = try parseEscapedString(from: start)
            }
        case UInt8(ascii: "{"):
            _ = try readObject(SkippedMembers.self, depth: depth + 1)
        case UInt8(ascii: "["):
            try walkArray(depth: depth + 1) { parser, depth throws(JSONParseError) in try parser.skipValue(depth: depth) }
        default:
            // Numbers and literals: parsing them allocates nothing.
            _ = try parseValue(depth: depth)
        }
    }
}

/// Every member, parsed: the object as a tree (what `parseObject` builds).
struct JSONObjectMembers: JSONMembers {
    var object = JSONObject()

    mutating func read<Source: JSONMemberSource>(_ key: JSONKey, _ source: inout Source) throws(JSONParseError) {
        object[key.string] = try source.value()
    }
}

/// An object nobody reads, checked all the same.
@usableFromInline struct SkippedMembers: JSONMembers {
    @usableFromInline init() {}

    @inlinable mutating func read<Source: JSONMemberSource>(_ key: JSONKey, _ source: inout Source) throws(JSONParseError) {
        try source.skip()
    }
}

/// The members named in `names`, parsed; the others checked as strictly but never built. For tokens,
/// whose readers want a few of a dozen claims.
struct NamedMembers: JSONMembers {
    let names: [String]
    var object = JSONObject()

    init() { names = [] }
    init(names: [String]) { self.names = names }

    mutating func read<Source: JSONMemberSource>(_ key: JSONKey, _ source: inout Source) throws(JSONParseError) {
        let name = key.string
        if names.contains(name) {
            object[name] = try source.value()
        } else {
            try source.skip()
        }
    }
}

extension JSONObject {
    /// The object `bytes` hold with only the members named in `names`: the whole document is checked as
    /// `JSONValue.parse` checks it, and throws exactly when that throws. nil when the document is valid
    /// JSON but not an object.
    package static func parse(_ bytes: [UInt8], keeping names: [String]) throws(JSONParseError) -> JSONObject? {
        let result: Result<JSONObject?, JSONParseError> = bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(buffer)
            do throws(JSONParseError) {
                try parser.startDocument()
                guard parser.peek == UInt8(ascii: "{") else {
                    _ = try parser.parseValue(depth: 0)
                    try parser.finishDocument()
                    return .success(nil)
                }
                var members = NamedMembers(names: names)
                try parser.readObject(into: &members, depth: 1)
                try parser.finishDocument()
                return .success(members.object)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
