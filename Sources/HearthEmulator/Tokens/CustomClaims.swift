import HearthWire

/// Rules for developer claims (custom-token `claims`, admin `customAttributes`).
enum CustomClaims {
    /// Names Firebase reserves in ID tokens; a developer claim may not use them.
    static let forbiddenNames = [
        "iss", "aud", "sub", "iat", "exp", "nbf", "jti", "nonce", "azp", "acr", "amr", "cnf",
        "auth_time", "firebase", "at_hash", "c_hash",
    ]

    static let maxSerializedLength = 1000

    /// Claims must be a JSON object without reserved names.
    static func validate(_ claims: JSONValue) throws(ApiError) -> JSONObject {
        guard let object = claims.objectValue else { throw .badRequest("INVALID_CLAIMS") }
        for name in forbiddenNames where object.contains(name) {
            throw .badRequest("FORBIDDEN_CLAIM : \(name)")
        }
        return object
    }

    /// `customAttributes`: a JSON object serialized as a string of at most 1000 characters.
    static func validateSerialized(_ text: String) throws(ApiError) -> JSONObject {
        try require(text.count <= maxSerializedLength, "CLAIMS_TOO_LARGE")
        guard let parsed = try? JSONValue.parse(Array(text.utf8)) else { throw .badRequest("INVALID_CLAIMS") }
        return try validate(parsed)
    }

    /// The stored claims of an account; unreadable text counts as none (it was validated on the way in).
    static func stored(_ user: UserRecord) -> JSONObject {
        guard let text = user.customAttributes,
              let object = (try? JSONValue.parse(Array(text.utf8)))?.objectValue
        else { return JSONObject() }
        return object
    }
}
