import HearthWire

/// The claims of the fake IdP credential a client sent (the reference's `parseClaims`): `id_token`,
/// else `access_token`, each either strict JSON starting with `{` or any JWT, decoded without
/// checking its signature, issuer, audience or times.
struct IdpClaims: Sendable {
    enum Source: Sendable { case idToken, accessToken }

    var claims: JSONObject
    var source: Source
    /// The provider's user id (`sub`), which becomes the identity's raw id.
    var subject: String

    /// Nil when neither token is JSON or a JWT; the caller then explains what is missing.
    static func parse(idToken: String?, accessToken: String?) throws(ApiError) -> IdpClaims? {
        if let claims = try decode(idToken) { return try IdpClaims(claims, source: .idToken) }
        if let claims = try decode(accessToken) { return try IdpClaims(claims, source: .accessToken) }
        return nil
    }

    /// The failure for a request whose tokens could not be read, with the reference's wording.
    static func unreadable(providerId: String, idToken: String?, accessToken: String?) -> ApiError {
        if let idToken {
            return .badRequest(
                "INVALID_IDP_RESPONSE : Unable to parse id_token: \(idToken) ((Auth Emulator only accepts strict JSON or JWTs as fake id_tokens.))")
        }
        if accessToken != nil {
            if providerId == "google.com" || providerId == "apple.com" {
                return .notImplemented(
                    "The Auth Emulator only support sign-in with \(providerId) using id_token, not access_token. Please update your code to use id_token.")
            }
            return .notImplemented("The Auth Emulator does not support \(providerId) sign-in with credentials.")
        }
        return .notImplemented("The Auth Emulator only supports sign-in with credentials (id_token required).")
    }

    private init(_ claims: JSONValue, source: Source) throws(ApiError) {
        let object = claims.objectValue ?? JSONObject()
        guard let sub = object["sub"], sub.isTruthy else {
            throw .badRequest(
                #"INVALID_IDP_RESPONSE : Invalid Idp Response: id_token missing required fields. ((Missing "sub" field. This field is required and must be a unique identifier.))"#)
        }
        guard let subject = sub.stringValue else {
            throw .badRequest(#"INVALID_IDP_RESPONSE : ((The "sub" field must be a string.))"#)
        }
        self.claims = object
        self.source = source
        self.subject = subject
    }

    private static func decode(_ token: String?) throws(ApiError) -> JSONValue? {
        guard let token, !token.isEmpty else { return nil }
        if token.hasPrefix("{") {
            guard let parsed = try? JSONValue.parse(Array(token.utf8)) else {
                throw .badRequest(
                    "INVALID_IDP_RESPONSE : Unable to parse id_token: \(token) ((Auth Emulator failed to parse fake id_token as strict JSON.))")
            }
            return parsed
        }
        return UnsignedJWT.decode(token)?.payload
    }

    /// A string claim; other types count as absent.
    func string(_ name: String) -> String? { claims[name]?.stringValue }
}

extension JSONValue {
    /// JavaScript truthiness, which the reference applies to claims (`!!email_verified`): Apple's
    /// string "true" is true, and so is any other non-empty string.
    var isTruthy: Bool {
        switch self {
        case .null: false
        case .bool(let b): b
        case .number(let n): n != 0 && !n.isNaN
        case .string(let s): !s.isEmpty
        case .array, .object: true
        }
    }
}
