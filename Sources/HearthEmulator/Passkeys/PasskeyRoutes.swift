import HearthWire

/// Passkeys as Firebase's emulator mocks them (its API description adds these four methods): the
/// WebAuthn options are fixed-shape fakes with a random challenge, and no cryptography is checked;
/// the authenticator response's `id` (the credential id) is all that enrolls and signs in. Tokens
/// name the sign-in provider `passkey`. API key only, like the reference.
/// `accounts:update` `deletePasskey[]` removes passkeys by credential id.
enum PasskeyRoutes {
    static let prefix = "/identitytoolkit.googleapis.com/v2/accounts"

    static let routes: [Route] = [
        Route(.post, "\(prefix)/passkeyEnrollment:start", StartPasskeyEnrollment.operation),
        Route(.post, "\(prefix)/passkeyEnrollment:finalize", FinalizePasskeyEnrollment.operation),
        Route(.post, "\(prefix)/passkeySignIn:start", StartPasskeySignIn.operation),
        Route(.post, "\(prefix)/passkeySignIn:finalize", FinalizePasskeySignIn.operation),
    ]

    static let signInProvider = "passkey"
    static let relyingParty = "localhost"

    /// 32 random alphanumerics in standard base64, the reference's fake challenge.
    static func challenge() -> String {
        Base64.standardEncoded(Array(RandomID.alphanumeric(32).utf8))
    }

    /// The credential id of an authenticator response (`{"id": ...}`): INVALID_CREDENTIAL_ID when
    /// missing or empty.
    static func credentialId(_ response: JSONObject) throws(ApiError) -> String {
        try requiredText(response["id"]?.stringValue, "INVALID_CREDENTIAL_ID")
    }
}

/// `v2/accounts/passkeyEnrollment:start`: creation options for the account of `idToken`.
enum StartPasskeyEnrollment {
    static let schema = RequestSchema(["idToken": .string, "tenantId": .string])

    static let operation = Operation(
        "identitytoolkit.accounts.passkeyEnrollment.start", access: .apiKey, body: .json(schema), tenantGates: [.enabled]
    ) { project, request throws(ApiError) in
        let idToken = try requiredText(request.body["idToken"]?.stringValue, "MISSING_ID_TOKEN")
        let user = try request.verifyIdToken(idToken, in: project).user
        let options = JSONObject([
            ("rp", .object(JSONObject([("name", .string(PasskeyRoutes.relyingParty)),
                                       ("id", .string(PasskeyRoutes.relyingParty))]))),
            ("user", .object(JSONObject([
                ("id", .string(Base64.standardEncoded(Array(user.localId.utf8)))),
                ("name", .string(nonEmpty(user.email) ?? "user@example.com")),
                ("displayName", .string(nonEmpty(user.displayName) ?? "User")),
            ]))),
            ("challenge", .string(PasskeyRoutes.challenge())),
            ("pubKeyCredParams", .array([
                .object(JSONObject([("type", .string("public-key")), ("alg", .number(-7))])),
                .object(JSONObject([("type", .string("public-key")), ("alg", .number(-257))])),
            ])),
            ("timeout", .number(60000)),
            ("attestation", .string("none")),
        ])
        return Reply(JSONValue.object(JSONObject([("credentialCreationOptions", .object(options))])))
    }

    private static func nonEmpty(_ text: String?) -> String? { (text ?? "").isEmpty ? nil : text }
}

/// `v2/accounts/passkeyEnrollment:finalize`: adds the passkey `authenticatorRegistrationResponse.id`
/// (named `name`, else `displayName`, else "Unnamed Passkey") to the account of `idToken` and signs
/// it in with it. A credential id any account has already is CREDENTIAL_ALREADY_IN_USE.
enum FinalizePasskeyEnrollment {
    static let schema = RequestSchema([
        "idToken": .string, "tenantId": .string, "authenticatorRegistrationResponse": .object, "name": .string,
        "displayName": .string,
    ])

    struct Response: Encodable {
        var localId: String
        var idToken: String
        var refreshToken: String
    }

    static let operation = Operation(
        "identitytoolkit.accounts.passkeyEnrollment.finalize", access: .apiKey, body: .json(schema),
        tenantGates: [.enabled]
    ) { project, request throws(ApiError) in
        let body = request.body
        let idToken = try requiredText(body["idToken"]?.stringValue, "MISSING_ID_TOKEN")
        let response = try required(body["authenticatorRegistrationResponse"], "MISSING_AUTHENTICATOR_RESPONSE")
        let user = try request.verifyIdToken(idToken, in: project).user
        let credentialId = try PasskeyRoutes.credentialId(response.objectValue ?? JSONObject())
        try require(project.user(passkeyCredentialId: credentialId) == nil, "CREDENTIAL_ALREADY_IN_USE")

        let name = [body["name"]?.stringValue, body["displayName"]?.stringValue].compactMap { $0 }
            .first { !$0.isEmpty } ?? "Unnamed Passkey"
        let passkey = PasskeyInfo(credentialId: credentialId, name: name)
        let enrolled = project.updateUser(user) { $0.passkeyInfo = ($0.passkeyInfo ?? []) + [passkey] }
        let tokens = TokenIssuer.issue(
            for: enrolled, signInProvider: PasskeyRoutes.signInProvider, in: &project, clock: request.environment.clock)
        return Reply(Response(localId: enrolled.localId, idToken: tokens.idToken, refreshToken: tokens.refreshToken))
    }
}

/// `v2/accounts/passkeySignIn:start`: request options with a fresh challenge.
enum StartPasskeySignIn {
    static let schema = RequestSchema(["tenantId": .string])

    static let operation = Operation(
        "identitytoolkit.accounts.passkeySignIn.start", access: .apiKey, body: .json(schema), tenantGates: [.enabled]
    ) { _, _ throws(ApiError) in
        let options = JSONObject([
            ("challenge", .string(PasskeyRoutes.challenge())), ("rpId", .string(PasskeyRoutes.relyingParty)),
            ("userVerification", .string("required")),
        ])
        return Reply(JSONValue.object(JSONObject([("credentialRequestOptions", .object(options))])))
    }
}

/// `v2/accounts/passkeySignIn:finalize`: signs in to the account holding the passkey
/// `authenticatorAuthenticationResponse.id` (PASSKEY_CREDENTIAL_NOT_FOUND when none does).
enum FinalizePasskeySignIn {
    static let schema = RequestSchema([
        "tenantId": .string, "authenticatorAuthenticationResponse": .object, "name": .string, "displayName": .string,
    ])

    struct Response: Encodable {
        var idToken: String
        var refreshToken: String
    }

    static let operation = Operation(
        "identitytoolkit.accounts.passkeySignIn.finalize", access: .apiKey, body: .json(schema), tenantGates: [.enabled]
    ) { project, request throws(ApiError) in
        let response = try required(request.body["authenticatorAuthenticationResponse"], "MISSING_AUTHENTICATOR_RESPONSE")
        let credentialId = try PasskeyRoutes.credentialId(response.objectValue ?? JSONObject())
        let user = try required(project.user(passkeyCredentialId: credentialId), "PASSKEY_CREDENTIAL_NOT_FOUND")
        try require(!user.isDisabled, "USER_DISABLED")
        let clock = request.environment.clock
        let now = String(clock.milliseconds)
        let signedIn = project.updateUser(user) { $0.lastLoginAt = now }
        let tokens = TokenIssuer.issue(
            for: signedIn, signInProvider: PasskeyRoutes.signInProvider, in: &project, clock: clock)
        return Reply(Response(idToken: tokens.idToken, refreshToken: tokens.refreshToken))
    }
}
