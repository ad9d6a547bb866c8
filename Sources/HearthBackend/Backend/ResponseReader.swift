import HearthWire

/// Field access for decoding a response object leniently: optional fields of the wrong type read as
/// absent, int64 fields accept strings and numbers, and only required fields can fail the decode.
package struct ResponseReader {
    let object: JSONObject

    package init(_ object: JSONObject) { self.object = object }

    /// A string field that must be present and non-empty.
    func requiredString(_ key: String) throws(AuthError) -> String {
        guard let value = object[key]?.nonEmptyStringValue else {
            throw .malformedResponse("missing \(key)")
        }
        return value
    }

    /// A string field, as sent (possibly empty); nil when absent or not a string.
    func string(_ key: String) -> String? { object[key]?.stringValue }

    /// A non-empty string field; nil when absent, empty, or not a string.
    package func nonEmptyString(_ key: String) -> String? { object[key]?.nonEmptyStringValue }

    func bool(_ key: String) -> Bool? { object[key]?.flexibleBoolValue }

    func int64(_ key: String) -> Int64? { object[key]?.int64Value }

    func uint64(_ key: String) -> UInt64? { object[key]?.uint64Value }

    /// The string elements of an array field (other elements skipped); empty when absent.
    func strings(_ key: String) -> [String] {
        (object[key]?.arrayValue ?? []).compactMap(\.stringValue)
    }

    /// The object elements of an array field (other elements skipped); empty when absent.
    func objects(_ key: String) -> [JSONObject] {
        (object[key]?.arrayValue ?? []).compactMap(\.objectValue)
    }
}
