import FuzzSupport
@testable import HearthWire

// The JSON reader the client and the emulator share (HearthWire: every response body, ID token and
// request body). Properties: never traps; member-by-member reading (whole, skipped, or only named
// members) accepts exactly what the parser accepts, with the same members; a document it accepts is
// written back as one it reads to the same value, members in the same order, and writing is
// deterministic.

func fuzzOne(_ data: [UInt8]) {
    let parsed = try? JSONValue.parse(data)
    let object = parsed?.objectValue
    let skipped = (try? SkippedMembers(bytes: data)) != nil
    fuzzCheck(skipped == (object != nil), "skipping members disagrees with the parser")
    let members = try? JSONObjectMembers(bytes: data)
    fuzzCheck(members?.object == object, "reading members disagrees with the parser")
    // Token claims keep a few members: the first key the document has, and one it may not have.
    let names = (object?.keys.first).map { [$0, "exp"] } ?? ["exp"]
    switch Result(catching: { () throws(JSONParseError) in try JSONObject.parse(data, keeping: names) }) {
    case .success(let kept):
        fuzzCheck(parsed != nil, "keeping named members accepts what the parser rejects")
        fuzzCheck(kept?.keys == object?.keys.filter(names.contains), "named members are not the parser's")
        for name in names { fuzzCheck(kept?[name] == object?[name], "a named member differs from the parser's") }
    case .failure:
        fuzzCheck(parsed == nil, "keeping named members rejects what the parser accepts")
    }
    guard let value = parsed else { return }
    let written = value.serialized()
    guard let reread = try? JSONValue.parse(written) else {
        fuzzCheck(false, "the writer's output does not parse")
        return
    }
    fuzzCheck(reread == value, "value changed in a write/read round trip")
    fuzzCheck(reread.objectValue?.keys == object?.keys, "members changed order in a write/read round trip")
    fuzzCheck(reread.serialized() == written, "writing is not deterministic")
    // Coercions the decoders use on every field.
    if case .object(let object) = value {
        for (_, field) in object {
            _ = field.int64Value
            _ = field.uint64Value
            _ = field.flexibleBoolValue
            _ = field.nonEmptyStringValue
        }
    }
}

@main enum Main { static func main() { fuzzMain("fuzz-json-parser", fuzzOne) } }
