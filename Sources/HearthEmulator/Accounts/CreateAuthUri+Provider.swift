import HearthWire

/// `accounts:createAuthUri` with a `providerId` (hearth-emulator only; Firebase's emulator answers
/// 501): starts a provider flow the way production does. The `authUri` leads to the emulator's fake
/// consent page (`/emulator/auth/consent`), which sends the browser back to `continueUri` with the
/// chosen identity and the `state` the `authUri` carries (an app checks that the two match);
/// signInWithIdp then takes that URL as `requestUri` with this `sessionId`. As in production, the
/// continue URI may have neither a fragment nor a `state` parameter of its own.
extension CreateAuthUri {
    struct ProviderResponse: Encodable {
        let kind = "identitytoolkit#CreateAuthUriResponse"
        var authUri: String
        var providerId: String
        var sessionId: String
    }

    static let consentPath = "/emulator/auth/consent"

    static func startProviderFlow(
        providerId rawProviderId: String, body: Request, sessionId: String, in project: inout ProjectState,
        environment env: EmulatorEnvironment
    ) throws(ApiError) -> Reply {
        let continueUri = try requiredText(body.continueUri, "MISSING_CONTINUE_URI")
        try require(AbsoluteURI.isValid(continueUri), "INVALID_CONTINUE_URI")
        // The provider's answer travels in the query, with the flow's own `state`.
        try require(
            !continueUri.contains("#") && Self.queryParameters(of: continueUri)["state"] == nil,
            "INVALID_CONTINUE_URI : ((The continue URI cannot contain a fragment or the reserved state parameter.))")
        let providerId = rawProviderId.lowercased()
        try require(IdentityProviders.isSupported(providerId), "INVALID_PROVIDER_ID")

        var customParameters = (body.customParameter ?? [:]).sorted { $0.key < $1.key }
            .map { (name: $0.key, value: $0.value) }
        // The email createAuthUri was given names the account to offer, as a login hint would.
        if let identifier = body.identifier, !identifier.isEmpty,
           !customParameters.contains(where: { $0.name == "login_hint" }) {
            customParameters.append((name: "login_hint", value: identifier))
        }
        let scopes = (body.oauthScope ?? "").split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
        let state = RandomID.base64URL(32)
        project.providerSessions.add(ProviderSession(
            sessionId: sessionId, providerId: providerId, continueUri: continueUri, state: state, scopes: scopes,
            customParameters: customParameters, createdAt: env.clock.seconds))

        var query: [(name: String, value: String)] = [
            ("providerId", providerId), ("sessionId", sessionId), ("continueUri", continueUri),
            (ProviderSession.correlationParameter(providerId: providerId), state),
        ]
        if !scopes.isEmpty { query.append(("scopes", scopes.joined(separator: ","))) }
        // The session is the tenant's: the page must look there.
        if let tenantId = project.tenantId { query.append(("tenantId", tenantId)) }
        if !customParameters.isEmpty {
            let object = JSONObject(customParameters.map { ($0.name, JSONValue.string($0.value)) })
            query.append(("customParameters", JSONValue.object(object).jsonText))
        }
        let authUri = "\(env.baseURL())\(consentPath)?\(FormEncoding.encode(query))"
        return Reply(ProviderResponse(authUri: authUri, providerId: providerId, sessionId: sessionId))
    }

    private static func queryParameters(of url: String) -> QueryParameters {
        QueryParameters(url.split(separator: "?", maxSplits: 1).dropFirst().first.map(String.init))
    }
}
