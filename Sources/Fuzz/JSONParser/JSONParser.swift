import FuzzSupport
@testable import HearthCore

// The client's JSON reader (every response body, every ID token). Properties: never traps; a
// document it accepts is written back by JSONWriter as one it reads to the same value, and
// writing is deterministic.

func fuzzOne(_ data: [UInt8]) {
    guard let value = try? JSONValue.parse(data) else { return }
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
