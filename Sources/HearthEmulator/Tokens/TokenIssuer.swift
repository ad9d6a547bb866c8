import Foundation
import HearthWire

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
        let user = project.updateUser(account) { stampRefresh(&$0, clock: clock) }
        return tokens(
            for: user, projectId: project.projectId, tenantId: project.tenantId, signInProvider: signInProvider,
            extraClaims: extraClaims, signInAttributes: signInAttributes, secondFactor: secondFactor, clock: clock)
    }

    /// What issuing records on the account (`issue` does it; a handler that changes the account
    /// anyway does it in the same change and then calls `tokens`).
    static func stampRefresh(_ user: inout UserRecord, clock: EmulatorClock) {
        user.lastRefreshAt = clock.iso8601
    }

    /// The tokens of an account as stamped by `stampRefresh`. Needs no project state, so handlers
    /// mint tokens after releasing the project's lock. `tenantId` is the tenant signed in to (the
    /// ID token's `firebase.tenant`); the refresh token records the account's own `tenantId`, as the
    /// reference does.
    static func tokens(
        for user: UserRecord, projectId: String, tenantId: String?, signInProvider: String,
        extraClaims: JSONObject = JSONObject(), signInAttributes: JSONValue? = nil, secondFactor: SecondFactor? = nil,
        clock: EmulatorClock
    ) -> IssuedTokens {
        let issuedAt = clock.seconds
        let claims: [UInt8]
        if extraClaims.isEmpty, CustomClaims.stored(user).isEmpty {
            claims = PlainClaims(
                user: user, projectId: projectId, tenantId: tenantId, signInProvider: signInProvider,
                signInAttributes: signInAttributes, secondFactor: secondFactor,
                authTime: authTime(of: user, fallback: issuedAt), issuedAt: issuedAt
            ).json
            assert(claims == JSONValue.object(idTokenClaims(
                for: user, projectId: projectId, tenantId: tenantId, signInProvider: signInProvider,
                extraClaims: extraClaims, signInAttributes: signInAttributes, secondFactor: secondFactor,
                issuedAt: issuedAt)).serialized())
        } else {
            claims = JSONValue.object(idTokenClaims(
                for: user, projectId: projectId, tenantId: tenantId, signInProvider: signInProvider,
                extraClaims: extraClaims, signInAttributes: signInAttributes, secondFactor: secondFactor,
                issuedAt: issuedAt)).serialized()
        }
        let refreshToken = RefreshToken(
            localId: user.localId, provider: signInProvider, extraClaims: extraClaims,
            projectId: projectId, secondFactor: secondFactor, tenantId: user.tenantId
        ).encoded()
        return IssuedTokens(idToken: UnsignedJWT.encode(claimsJSON: claims), refreshToken: refreshToken,
                            expiresIn: expiresIn)
    }

    private static let expiresIn = String(lifetimeSeconds)

    /// Profile claims first, then stored custom claims and per-session claims, then the reserved
    /// claims that nothing may override, then the registered JWT claims.
    static func idTokenClaims(
        for user: UserRecord, projectId: String, tenantId: String?, signInProvider: String, extraClaims: JSONObject,
        signInAttributes: JSONValue? = nil, secondFactor: SecondFactor? = nil, issuedAt: Int64
    ) -> JSONObject {
        var claims = JSONObject()
        claims["name"] = user.displayName.map(JSONValue.string)
        claims["picture"] = user.photoUrl.map(JSONValue.string)
        for (key, value) in CustomClaims.stored(user) { claims[key] = value }
        for (key, value) in extraClaims { claims[key] = value }
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
        firebase["tenant"] = tenantId.map(JSONValue.string)
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
    fileprivate static func authTime(of user: UserRecord, fallback: Int64) -> Int64 {
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

/// The claims `idTokenClaims` gives when neither stored custom claims nor per-session claims can
/// replace, remove or reorder one, written straight to JSON text (the order and bytes of
/// `JSONWriter`) instead of through a `JSONObject` tree: every sign-in mints one.
private struct PlainClaims {
    var user: UserRecord
    var projectId: String
    var tenantId: String?
    var signInProvider: String
    var signInAttributes: JSONValue?
    var secondFactor: SecondFactor?
    var authTime: Int64
    var issuedAt: Int64

    var json: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(640)
        out.append(UInt8(ascii: "{"))
        string("name", user.displayName, &out)
        string("picture", user.photoUrl, &out)
        string("email", user.email, &out)
        if let verified = user.emailVerified { member("email_verified", .bool(verified), &out) }
        string("phone_number", user.phoneNumber, &out)
        // Production sets provider_id only for anonymous sign-ins.
        if signInProvider == ProviderID.anonymous { string("provider_id", signInProvider, &out) }
        member("auth_time", .number(Double(authTime)), &out)
        string("user_id", user.localId, &out)
        key("firebase", &out)
        out.append(UInt8(ascii: "{"))
        member("identities", .object(TokenIssuer.identities(of: user)), &out)
        string("sign_in_provider", signInProvider, &out)
        string("second_factor_identifier", secondFactor?.identifier, &out)
        string("sign_in_second_factor", secondFactor?.provider, &out)
        string("tenant", tenantId, &out)
        if let signInAttributes { member("sign_in_attributes", signInAttributes, &out) }
        out.append(UInt8(ascii: "}"))
        member("iat", .number(Double(issuedAt)), &out)
        member("exp", .number(Double(issuedAt + TokenIssuer.lifetimeSeconds)), &out)
        string("aud", projectId, &out)
        string("iss", "https://securetoken.google.com/" + projectId, &out)
        string("sub", user.localId, &out)
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// `"name":`, after a comma unless first in its object.
    private func key(_ name: StaticString, _ out: inout [UInt8]) {
        if out.last != UInt8(ascii: "{") { out.append(UInt8(ascii: ",")) }
        out.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { out.append(contentsOf: $0) }
        out.append(contentsOf: "\":".utf8)
    }

    private func string(_ name: StaticString, _ value: String?, _ out: inout [UInt8]) {
        guard let value else { return }
        key(name, &out)
        JSONWriter.writeString(value, into: &out)
    }

    private func member(_ name: StaticString, _ value: JSONValue, _ out: inout [UInt8]) {
        key(name, &out)
        JSONWriter.write(value, into: &out)
    }
}
