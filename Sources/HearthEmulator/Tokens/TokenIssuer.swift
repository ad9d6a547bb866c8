import Foundation

/// Mints the ID and refresh tokens for a sign-in, with the claims Firebase puts in its ID tokens.
enum TokenIssuer {
    static let lifetimeSeconds: Int64 = 3600

    /// Records the refresh time on the account and returns fresh tokens.
    ///
    /// `iat` is the current second, so a token issued right after a password change (which sets
    /// `validSince` to the same second) is valid, while tokens of earlier seconds are revoked.
    /// `signInAttributes` are a SAML sign-in's attribute statements; they go into this ID token only.
    /// `secondFactor` is the factor that completed a multi-factor sign-in; refreshes keep it.
    static func issue(
        for account: UserRecord, signInProvider: String, extraClaims: JSONObject = JSONObject(),
        signInAttributes: JSONValue? = nil, secondFactor: SecondFactor? = nil, in project: inout ProjectState,
        clock: EmulatorClock
    ) -> IssuedTokens {
        let refreshedAt = clock.iso8601
        let user = project.updateUser(account) { $0.lastRefreshAt = refreshedAt }
        let issuedAt = clock.seconds
        let idToken = UnsignedJWT.encode(idTokenClaims(
            for: user, projectId: project.projectId, signInProvider: signInProvider,
            extraClaims: extraClaims, signInAttributes: signInAttributes, secondFactor: secondFactor,
            issuedAt: issuedAt))
        let refreshToken = RefreshToken(
            localId: user.localId, provider: signInProvider, extraClaims: extraClaims,
            projectId: project.projectId, secondFactor: secondFactor, tenantId: user.tenantId
        ).encoded()
        return IssuedTokens(idToken: idToken, refreshToken: refreshToken, expiresIn: String(lifetimeSeconds))
    }

    /// Profile claims first, then stored custom claims and per-session claims, then the reserved
    /// claims that nothing may override, then the registered JWT claims.
    static func idTokenClaims(
        for user: UserRecord, projectId: String, signInProvider: String, extraClaims: JSONObject,
        signInAttributes: JSONValue? = nil, secondFactor: SecondFactor? = nil, issuedAt: Int64
    ) -> JSONObject {
        var claims = JSONObject()
        claims["name"] = user.displayName.map(JSONValue.string)
        claims["picture"] = user.photoUrl.map(JSONValue.string)
        for (key, value) in CustomClaims.stored(user).entries { claims[key] = value }
        for (key, value) in extraClaims.entries { claims[key] = value }
        claims["email"] = user.email.map(JSONValue.string)
        claims["email_verified"] = user.emailVerified.map(JSONValue.bool)
        claims["phone_number"] = user.phoneNumber.map(JSONValue.string)
        // Production sets provider_id only for anonymous sign-ins.
        claims["provider_id"] = signInProvider == ProviderID.anonymous ? .string(signInProvider) : nil
        claims["auth_time"] = .number(Double(authTime(of: user, fallback: issuedAt)))
        claims["user_id"] = .string(user.localId)

        var firebase = JSONObject()
        firebase["identities"] = .object(identities(of: user))
        firebase["sign_in_provider"] = .string(signInProvider)
        firebase["second_factor_identifier"] = secondFactor.map { .string($0.identifier) }
        firebase["sign_in_second_factor"] = secondFactor.map { .string($0.provider) }
        firebase["tenant"] = user.tenantId.map(JSONValue.string)
        firebase["sign_in_attributes"] = signInAttributes
        claims["firebase"] = .object(firebase)

        claims["iat"] = .number(Double(issuedAt))
        claims["exp"] = .number(Double(issuedAt + lifetimeSeconds))
        claims["aud"] = .string(projectId)
        claims["iss"] = .string("https://securetoken.google.com/\(projectId)")
        claims["sub"] = .string(user.localId)
        return claims
    }

    /// `{"email":[email], "<providerId>":[rawId], "phone":[number]}`; the password identity is left out.
    static func identities(of user: UserRecord) -> JSONObject {
        var identities = JSONObject()
        if let email = user.email { identities["email"] = .array([.string(email)]) }
        for info in user.providerUserInfo ?? [] where info.providerId != ProviderID.password && !info.rawId.isEmpty {
            var ids = identities[info.providerId]?.arrayValue ?? []
            ids.append(.string(info.rawId))
            identities[info.providerId] = .array(ids)
        }
        return identities
    }

    /// Seconds of the last sign-in (`lastLoginAt`), else of the last refresh.
    private static func authTime(of user: UserRecord, fallback: Int64) -> Int64 {
        if let login = user.lastLoginAt.flatMap(Int64.init) { return login / 1000 }
        if let refresh = user.lastRefreshAt.flatMap(parseISO8601) { return Int64(refresh.timeIntervalSince1970) }
        return fallback
    }

    private static func parseISO8601(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }
}
