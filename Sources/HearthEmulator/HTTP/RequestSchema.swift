import HearthWire

/// The fields a request message accepts, as the API description declares them.
///
/// Validation does what Google's front end does before a handler runs: snake_case names become
/// camelCase, numbers become strings where a string is expected, integer enum values become their
/// names, and unknown names or wrong types are rejected with Google's wording.
struct RequestSchema: Sendable {
    indirect enum FieldType: Sendable {
        case string
        /// int64 travels as a JSON string; a number is accepted and converted.
        case int64
        case int32
        case double
        case bool
        case enumeration([String])
        case array(FieldType)
        case message(RequestSchema)
        /// A map or a free-form value (`Struct`): any JSON, keys left as sent.
        case any
        /// A JSON object of any content (the description says only `type: object`), keys left as sent.
        case object
        /// `map<string, string>` (`customParameter`): an object whose values are strings, keys left as sent.
        case stringMap
    }

    let fields: [String: FieldType]

    init(_ fields: [String: FieldType]) {
        self.fields = fields
    }

    /// A copy that also accepts `extra`.
    func adding(_ extra: [String: FieldType]) -> RequestSchema {
        RequestSchema(fields.merging(extra) { _, new in new })
    }

    func validate(_ object: JSONObject) throws(ApiError) -> JSONObject {
        try validate(object, at: nil)
    }

    private func validate(_ object: JSONObject, at path: String?) throws(ApiError) -> JSONObject {
        var result = JSONObject()
        // Every request body is validated: its entries are walked, not copied into an array.
        for (rawName, value) in zip(object.keys, object.values) {
            let name = KeyCase.camelCase(rawName)
            guard let type = fields[name] else {
                let location = path.map { " at '\($0)'" } ?? ""
                throw .invalidArgument(
                    "Invalid JSON payload received. Unknown name \"\(rawName)\"\(location): Cannot find field.")
            }
            // null means "not set", as in proto3 JSON.
            if value == .null { continue }
            let fieldPath = path.map { "\($0).\(name)" } ?? name
            result[name] = try Self.coerce(value, to: type, at: fieldPath)
        }
        return result
    }

    private static func coerce(_ value: JSONValue, to type: FieldType, at path: String) throws(ApiError) -> JSONValue {
        switch (type, value) {
        case (.any, _), (.object, .object):
            return value
        case (.string, .string):
            return value
        case (.string, .number), (.int64, .number):
            guard let text = numberText(value) else { throw invalidValue(value, type, path) }
            return .string(text)
        case (.int64, .string(let s)):
            guard Int64(s) != nil else { throw invalidValue(value, type, path) }
            return value
        case (.int32, .number):
            guard let i = value.integerValue, i >= Int64(Int32.min), i <= Int64(Int32.max) else {
                throw invalidValue(value, type, path)
            }
            return value
        case (.int32, .string(let s)):
            guard let i = Int32(s) else { throw invalidValue(value, type, path) }
            return .number(Double(i))
        case (.double, .number):
            return value
        case (.double, .string(let s)):
            guard let d = Double(s), d.isFinite else { throw invalidValue(value, type, path) }
            return .number(d)
        case (.bool, .bool):
            return value
        case (.enumeration(let names), .string(let s)):
            guard names.contains(s) else { throw invalidValue(value, type, path) }
            return value
        case (.enumeration(let names), .number):
            guard let i = value.integerValue, i >= 0, i < Int64(names.count) else {
                throw invalidValue(value, type, path)
            }
            return .string(names[Int(i)])
        case (.array(let element), .array(let items)):
            var out: [JSONValue] = []
            out.reserveCapacity(items.count)
            for (index, item) in items.enumerated() {
                if item == .null { throw invalidValue(item, element, "\(path)[\(index)]") }
                out.append(try coerce(item, to: element, at: "\(path)[\(index)]"))
            }
            return .array(out)
        case (.message(let schema), .object(let object)):
            return .object(try schema.validate(object, at: path))
        case (.stringMap, .object(let object)):
            var out = JSONObject()
            for (key, item) in object where item != .null {
                out[key] = try coerce(item, to: .string, at: "\(path)[\(key)]")
            }
            return .object(out)
        default:
            throw invalidValue(value, type, path)
        }
    }

    private static func numberText(_ value: JSONValue) -> String? {
        if let i = value.integerValue { return String(i) }
        if case .number(let d) = value, d.isFinite { return String(d) }
        return nil
    }

    private static func invalidValue(_ value: JSONValue, _ type: FieldType, _ path: String) -> ApiError {
        .invalidArgument("Invalid JSON payload received. Invalid value at '\(path)' (\(type.protoName)), \(value.jsonText)")
    }
}

extension RequestSchema.FieldType {
    /// The proto type name Google's error messages use.
    var protoName: String {
        switch self {
        case .string: "TYPE_STRING"
        case .int64: "TYPE_INT64"
        case .int32: "TYPE_INT32"
        case .double: "TYPE_DOUBLE"
        case .bool: "TYPE_BOOL"
        case .enumeration: "TYPE_ENUM"
        case .array(let element): element.protoName
        case .message: "TYPE_MESSAGE"
        case .any, .object, .stringMap: "TYPE_MESSAGE"
        }
    }
}

/// Google accepts both `return_secure_token` and `returnSecureToken`.
enum KeyCase {
    static func camelCase(_ name: String) -> String {
        // Bytes first: a name without an underscore byte has no "_" Character either.
        guard name.utf8.contains(UInt8(ascii: "_")), name.contains("_") else { return name }
        var out = ""
        var upperNext = false
        for ch in name {
            if ch == "_" {
                upperNext = !out.isEmpty
            } else if upperNext {
                out += ch.uppercased()
                upperNext = false
            } else {
                out.append(ch)
            }
        }
        return out
    }
}
