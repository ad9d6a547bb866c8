import FuzzSupport
@testable import HearthCore

// The client's JSON reader (every response body, every ID token). Properties: never traps; a
// document it accepts is written back by JSONWriter as one it reads to the same value, and
// writing is deterministic.

func fuzzOne(_ data: [UInt8]) {
    // Member-by-member reading accepts exactly the objects the parser accepts, with the same members.
    let parsed = try? JSONValue.parse(data)
    let isObject: Bool
    if case .object? = parsed { isObject = true } else { isObject = false }
    let skipped = (try? SkippedMembers(bytes: data)) != nil
    fuzzCheck(skipped == isObject, "skipping members disagrees with the parser")
    let members = try? JSONObjectMembers(bytes: data)
    fuzzCheck(members.map { JSONValue.object($0.object) } == (isObject ? parsed : nil),
              "reading members disagrees with the parser")
    guard let value = parsed else { return }
    let written = value.serialized()
    guard let reread = try? JSONValue.parse(written) else {
        fuzzCheck(false, "the writer's output does not parse")
        return
    }
    fuzzCheck(reread == value, "value changed in a write/read round trip")
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
