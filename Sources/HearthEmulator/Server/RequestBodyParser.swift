import HearthWire

/// Turns body bytes into the validated JSON object an operation reads.
enum RequestBodyParser {
    static func parse(_ bytes: [UInt8], contentType: String?, as kind: Operation.Body) throws(ApiError) -> JSONObject {
        switch kind {
        case .none:
            return JSONObject()
        case .json(let schema):
            return try schema.validate(try parseJSON(bytes))
        case .jsonOrForm(let schema):
            if let contentType, contentType.lowercased().contains("application/x-www-form-urlencoded") {
                return try schema.validate(try parseForm(bytes))
            }
            return try schema.validate(try parseJSON(bytes))
        case .form:
            return try parseForm(bytes)
        }
    }

    /// An empty body is an empty message (an anonymous `signUp` may send nothing at all).
    private static func parseJSON(_ bytes: [UInt8]) throws(ApiError) -> JSONObject {
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return JSONObject() }
        let value: JSONValue
        do throws(JSONParseError) {
            value = try JSONValue.parse(bytes)
        } catch {
            throw .invalidArgument(error.invalidPayloadMessage, reason: "parseError")
        }
        guard let object = value.objectValue else {
            throw .invalidArgument("Invalid JSON payload received. Root element must be a message.", reason: "parseError")
        }
        return object
    }

    private static func parseForm(_ bytes: [UInt8]) throws(ApiError) -> JSONObject {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .invalidArgument("Invalid JSON payload received. Invalid UTF-8 in request body.", reason: "parseError")
        }
        var object = JSONObject()
        for (name, value) in FormFields(parsing: Substring(text), plusIsSpace: true).pairs { object[name] = .string(value) }
        return object
    }
}
