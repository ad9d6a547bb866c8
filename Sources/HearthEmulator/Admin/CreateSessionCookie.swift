import HearthWire

/// `projects/{p}:createSessionCookie` (and per tenant): turns a valid ID token into a session cookie
/// that lives `validDuration` seconds (5 minutes to 14 days; 14 days when absent or 0, otherwise
/// INVALID_DURATION). The cookie is an unsigned JWT with the ID token's claims, `iat` now, `exp` at
/// the end of its life and `iss` `https://session.firebase.google.com/<aud>`, which the Admin SDKs'
/// `verifySessionCookie` accepts in emulator mode.
enum CreateSessionCookie {
    static let minimumSeconds: Int64 = 5 * 60
    static let maximumSeconds: Int64 = 14 * 24 * 60 * 60

    static let schema = RequestSchema(["idToken": .string, "tenantId": .string, "validDuration": .int64])

    struct Response: Encodable {
        var sessionCookie: String
    }

    static let operation = Operation(
        "identitytoolkit.projects.createSessionCookie", body: .json(schema), handler: .scoped(handle))

    static func handle(_ request: OperationRequest, _ project: LockedProject) throws(ApiError) -> Reply {
        let idToken = try requiredText(request.body["idToken"]?.stringValue, "MISSING_ID_TOKEN")
        var validDuration = request.body["validDuration"]?.stringValue.flatMap { Int64($0) } ?? 0
        if validDuration == 0 { validDuration = maximumSeconds }
        try require(validDuration >= minimumSeconds && validDuration <= maximumSeconds, "INVALID_DURATION")
        _ = try project.read { project throws(ApiError) in try request.verifyIdToken(idToken, in: project) }
        // The whole payload is copied, not only the claims the verifier reads.
        guard let decoded = UnsignedJWT.decode(idToken), var claims = decoded.payload.objectValue else {
            throw .badRequest("INVALID_ID_TOKEN")
        }
        let issuedAt = request.environment.clock.seconds
        claims["iat"] = .number(Double(issuedAt))
        claims["exp"] = .number(Double(issuedAt + validDuration))
        let audience = claims["aud"].map { $0.stringValue ?? $0.jsonText } ?? "undefined"
        claims["iss"] = .string("https://session.firebase.google.com/\(audience)")
        return Reply(Response(sessionCookie: UnsignedJWT.encode(claims)))
    }
}
