import HearthWire

/// `accounts:signInWithCustomToken`. The emulator accepts a strict JSON string (no `aud` check) or any
/// JWT whose `aud` is the Identity Toolkit's; signatures are never verified.
enum SignInWithCustomToken {
    static let customTokenAudience =
        "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit"

    static let schema = RequestSchema([
        "delegatedProjectNumber": .int64, "instanceId": .string, "returnSecureToken": .bool,
        "tenantId": .string, "token": .string,
    ])

    struct Request: Decodable {
        var token: String?
    }

    struct Response: Encodable {
        let kind = "identitytoolkit#VerifyCustomTokenResponse"
        var isNewUser: Bool
        var idToken: String
        var refreshToken: String
        var expiresIn: String
    }

    static let operation = Operation(
        "identitytoolkit.accounts.signInWithCustomToken", body: .json(schema), tenantGates: [.enabled],
        handler: handle)

    static func handle(_ project: inout ProjectState, _ request: OperationRequest) throws(ApiError) -> Reply {
        let body = try request.decodeBody(as: Request.self)
        let token = try requiredText(body.token, "MISSING_CUSTOM_TOKEN")
        let payload = try parse(token, tenantId: project.tenantId, log: request.environment.log)

        let uid = primitiveText(payload["uid"]) ?? primitiveText(payload["user_id"])
        let localId = try requiredText(uid, "MISSING_IDENTIFIER")
        var extraClaims = JSONObject()
        if let claims = payload["claims"] {
            extraClaims = try CustomClaims.validate(claims)
        }

        let clock = request.environment.clock
        let now = String(clock.milliseconds)
        // Signing in to a tenant makes the account the tenant's; to the project, nobody's.
        let tenantId = project.tenantId
        let user: UserRecord
        let isNewUser: Bool
        if let existing = project.user(localId: localId) {
            try require(!existing.isDisabled, "USER_DISABLED")
            user = project.updateUser(existing) { $0.customAuth = true; $0.lastLoginAt = now; $0.tenantId = tenantId }
            isNewUser = false
        } else {
            guard let created = project.createUser(localId: localId, {
                $0.customAuth = true; $0.lastLoginAt = now; $0.createdAt = now; $0.tenantId = tenantId
            }) else { throw .internalError("INTERNAL_ERROR : account \(localId) appeared concurrently") }
            user = created
            isNewUser = true
        }
        let tokens = TokenIssuer.issue(
            for: user, signInProvider: ProviderID.custom, extraClaims: extraClaims, in: &project, clock: clock)
        return Reply(Response(
            isNewUser: isNewUser, idToken: tokens.idToken, refreshToken: tokens.refreshToken,
            expiresIn: tokens.expiresIn))
    }

    /// The token's claims: strict JSON when it starts with "{", otherwise a decoded JWT, which for a
    /// tenant must carry that tenant's `tenant_id` (checked first, as the reference does).
    static func parse(_ token: String, tenantId: String?, log: EmulatorLog) throws(ApiError) -> JSONObject {
        if token.hasPrefix("{") {
            guard let object = (try? JSONValue.parse(Array(token.utf8)))?.objectValue else {
                throw .badRequest(
                    "INVALID_CUSTOM_TOKEN : ((Auth Emulator only accepts strict JSON or JWTs as fake custom tokens.))")
            }
            return object
        }
        let decoded = UnsignedJWT.decode(token)
        if let tenantId {
            try require(decoded?.payload.objectValue?["tenant_id"]?.stringValue == tenantId, "TENANT_ID_MISMATCH")
        }
        guard let decoded else {
            throw .badRequest("INVALID_CUSTOM_TOKEN : Invalid assertion format")
        }
        if decoded.header["alg"]?.stringValue != "none" {
            log.warning("Received a signed custom token. hearth-emulator does not validate JWTs and IS NOT SECURE")
        }
        let payload = decoded.payload.objectValue ?? JSONObject()
        let audience = payload["aud"]
        guard audience?.stringValue == customTokenAudience else {
            let shown = audience.map { $0.stringValue ?? $0.jsonText } ?? "undefined"
            throw .badRequest(
                "INVALID_CUSTOM_TOKEN : ((Invalid aud (audience): \(shown) Note: Firebase ID Tokens / third-party tokens cannot be used with signInWithCustomToken.))")
        }
        return payload
    }

    /// Strings, numbers and booleans become the uid's text, as JavaScript's `toString` would.
    private static func primitiveText(_ value: JSONValue?) -> String? {
        switch value {
        case .string(let s): s
        case .bool(let b): b ? "true" : "false"
        case .number(let n): JSONValue.number(n).integerValue.map(String.init) ?? String(n)
        default: nil
        }
    }
}
