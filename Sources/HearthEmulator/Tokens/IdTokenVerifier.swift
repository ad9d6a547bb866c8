import HearthWire

/// Checks an ID token sent back by a client. Signatures and `exp` are not checked (tokens of the
/// emulator never expire with time), but revocation is: see `verify`.
enum IdTokenVerifier {
    struct Verified: Sendable {
        var user: UserRecord
        var signInProvider: String?
        /// `readClaims` of the token.
        var claims: JSONObject
    }

    /// The claims anything reads back from an ID token (`Verified.claims` holds only these): the
    /// rest of the payload is checked but not built.
    private static let readClaims = ["user_id", "iat", "auth_time", "firebase"]

    /// A token read and checked as far as it can be without the project's state.
    struct Parsed: Sendable {
        var localId: String?
        var claims: JSONObject
        var signInProvider: String?
        /// `firebase.tenant`: the tenant whose account this is.
        var tenantId: String?
    }

    /// INVALID_ID_TOKEN when undecodable; a tenant's token anywhere but in its tenant;
    /// USER_NOT_FOUND when the account is gone; TOKEN_EXPIRED when issued before the account's
    /// `validSince` (password or email change); USER_DISABLED.
    static func verify(_ token: String, in project: ProjectState, log: EmulatorLog) throws(ApiError) -> Verified {
        try check(parse(token, log: log), in: project)
    }

    /// The state-free part of `verify` (decoding), so it can run before the project is locked.
    static func parse(_ token: String, log: EmulatorLog) throws(ApiError) -> Parsed {
        guard let (header, claims) = UnsignedJWT.decodeClaims(token, keeping: readClaims) else {
            throw .badRequest("INVALID_ID_TOKEN")
        }
        if header["alg"]?.stringValue != "none" {
            log.warning("Received a signed JWT. hearth-emulator does not validate JWTs and IS NOT SECURE")
        }
        let firebase = claims["firebase"]?.objectValue
        return Parsed(localId: claims["user_id"]?.stringValue, claims: claims,
                      signInProvider: firebase?["sign_in_provider"]?.stringValue,
                      tenantId: firebase?["tenant"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 })
    }

    /// The rest of `verify`: a tenant's token only in that tenant, and the account must exist, be
    /// enabled, and not have revoked the token.
    static func check(_ token: Parsed, in project: borrowing ProjectState) throws(ApiError) -> Verified {
        if let tenantId = token.tenantId {
            guard let projectTenant = project.tenantId else {
                throw .badRequest("((Parsed token that belongs to tenant in a non-tenant project.))")
            }
            try require(tenantId == projectTenant, "TENANT_ID_MISMATCH")
        }
        guard let localId = token.localId, let user = project.user(localId: localId) else {
            throw .badRequest("USER_NOT_FOUND")
        }
        if let validSince = user.validSince.flatMap(Double.init) {
            try require((token.claims["iat"]?.doubleValue ?? -.infinity) >= validSince, "TOKEN_EXPIRED")
        }
        try require(!user.isDisabled, "USER_DISABLED")
        return Verified(user: user, signInProvider: token.signInProvider, claims: token.claims)
    }
}
