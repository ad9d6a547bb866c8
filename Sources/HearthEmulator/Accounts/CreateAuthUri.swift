/// `accounts:createAuthUri` for email probing: whether an email is registered and how it can sign
/// in. With improved email privacy only `kind` and `sessionId` are returned. With a `providerId` it
/// starts a provider flow instead (`CreateAuthUri+Provider.swift`).
enum CreateAuthUri {
    static let schema = RequestSchema([
        "appId": .string, "authFlowType": .string, "context": .string, "continueUri": .string,
        "customParameter": .stringMap, "hostedDomain": .string, "identifier": .string, "oauthConsumerKey": .string,
        "oauthScope": .string, "openidRealm": .string, "otaApp": .string, "providerId": .string,
        "sessionId": .string, "tenantId": .string,
    ])

    struct Request: Decodable {
        var identifier: String?
        var continueUri: String?
        var sessionId: String?
        var providerId: String?
        var oauthScope: String?
        var customParameter: [String: String]?
    }

    struct Response: Encodable {
        let kind = "identitytoolkit#CreateAuthUriResponse"
        var registered: Bool?
        var allProviders: [String]?
        var sessionId: String
        var signinMethods: [String]?
    }

    static let operation = Operation(
        "identitytoolkit.accounts.createAuthUri", body: .json(schema), tenantGates: [.enabled], handler: handle)

    static func handle(_ project: inout ProjectState, _ request: OperationRequest) throws(ApiError) -> Reply {
        let body = try request.decodeBody(as: Request.self)
        let sessionId = (body.sessionId ?? "").isEmpty ? RandomID.alphanumeric(27) : (body.sessionId ?? "")
        if let providerId = body.providerId, !providerId.isEmpty {
            return try startProviderFlow(
                providerId: providerId, body: body, sessionId: sessionId, in: &project, environment: request.environment)
        }
        let identifier = try requiredText(body.identifier, "MISSING_IDENTIFIER")
        let continueUri = try requiredText(body.continueUri, "MISSING_CONTINUE_URI")
        try require(EmailAddress.isValid(identifier), "INVALID_IDENTIFIER")
        try require(AbsoluteURI.isValid(continueUri), "INVALID_CONTINUE_URI")
        let email = EmailAddress.canonical(identifier)

        if project.config.enableImprovedEmailPrivacy {
            return Reply(Response(sessionId: sessionId))
        }
        let probe = probe(email, in: project)
        return Reply(Response(
            registered: probe.registered, allProviders: probe.allProviders, sessionId: sessionId,
            signinMethods: probe.signinMethods))
    }

    private static func probe(_ email: String, in project: ProjectState)
        -> (registered: Bool, allProviders: [String], signinMethods: [String])
    {
        var allProviders: [String] = []
        var signinMethods: [String] = []
        let users = project.users(emailOrProviderEmail: email)
        if project.config.oneAccountPerEmail {
            guard let first = users.first else { return (false, [], []) }
            for info in first.providerUserInfo ?? [] {
                if info.providerId == ProviderID.password {
                    allProviders.append(info.providerId)
                    if first.passwordHash != nil { signinMethods.append(ProviderID.password) }
                    if first.emailLinkSignin == true { signinMethods.append(ProviderID.emailLinkSignInMethod) }
                } else if info.providerId != ProviderID.phone {
                    allProviders.append(info.providerId)
                    signinMethods.append(info.providerId)
                }
            }
            return (true, allProviders, signinMethods)
        }
        // With duplicate emails allowed only the password methods of the account owning the email count.
        guard let owner = users.first(where: { $0.email != nil }) else { return (false, [], []) }
        if owner.passwordHash != nil || owner.emailLinkSignin == true {
            allProviders.append(ProviderID.password)
            if owner.passwordHash != nil { signinMethods.append(ProviderID.password) }
            if owner.emailLinkSignin == true { signinMethods.append(ProviderID.emailLinkSignInMethod) }
        }
        return (true, allProviders, signinMethods)
    }
}
