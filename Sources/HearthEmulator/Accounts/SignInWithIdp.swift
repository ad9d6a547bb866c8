import HearthWire

/// `accounts:signInWithIdp` (verifyAssertion): sign-in, sign-up and linking with a fake identity
/// provider credential, as Firebase's emulator does it (emulator-reference §2 and §5), plus what
/// that emulator skips: the OIDC / Apple nonce, Twitter's token secret, the createAuthUri session of
/// a provider flow, and `autoCreate:false`. An account with second factors gets
/// `mfaPendingCredential` and `mfaInfo` instead of tokens (emulator-reference §4).
enum SignInWithIdp {
    static let schema = RequestSchema([
        "autoCreate": .bool, "delegatedProjectNumber": .int64, "idToken": .string, "pendingIdToken": .string,
        "pendingToken": .string, "postBody": .string, "requestUri": .string, "returnIdpCredential": .bool,
        "returnRefreshToken": .bool, "returnSecureToken": .bool, "sessionId": .string, "tenantId": .string,
    ])

    struct Request: Decodable {
        var requestUri: String?
        var postBody: String?
        var sessionId: String?
        var idToken: String?
        var pendingIdToken: String?
        var returnIdpCredential: Bool?
        var returnRefreshToken: Bool?
        var autoCreate: Bool?
    }

    static let operation = Operation(
        "identitytoolkit.accounts.signInWithIdp", body: .json(schema), tenantGates: [.enabled], handler: handle)

    static func handle(_ project: inout ProjectState, _ request: OperationRequest) throws(ApiError) -> Reply {
        let body = try request.decodeBody(as: Request.self)
        let env = request.environment
        if body.returnRefreshToken == true { throw .notImplemented("returnRefreshToken is not implemented yet.") }
        if !(body.pendingIdToken ?? "").isEmpty { throw .notImplemented("pendingIdToken is not implemented yet.") }

        let parameters = try IdpResponseParameters(requestUri: body.requestUri, postBody: body.postBody)
        let session = try ProviderSessionGate.check(
            sessionId: body.sessionId, parameters: parameters, in: project, now: env.clock.seconds)
        guard let providerId = parameters.nonEmpty("providerId")?.lowercased() ?? session?.providerId else {
            throw .badRequest(
                "INVALID_CREDENTIAL_OR_PROVIDER_ID : Invalid IdP response/credential: \(parameters.normalizedUri)")
        }
        if let session {
            try require(
                session.providerId == providerId,
                "INVALID_IDP_RESPONSE : ((Session \(session.sessionId) signs in with \(session.providerId), not \(providerId).))")
            // Like an authorization code, a provider redirect is good for one attempt.
            project.providerSessions.markCompleted(sessionId: session.sessionId)
        }

        let idToken = parameters.nonEmpty("id_token")
        let accessToken = parameters.nonEmpty("access_token")
        guard let credential = try IdpClaims.parse(idToken: idToken, accessToken: accessToken) else {
            if let error = parameters.nonEmpty("error") {
                // The consent page's Cancel (an OAuth error redirect), which carries no credential.
                let description = parameters.nonEmpty("error_description").map { ": \($0)" } ?? ""
                throw .badRequest("USER_CANCELLED : ((The identity provider answered \(error)\(description)))")
            }
            throw IdpClaims.unreadable(providerId: providerId, idToken: idToken, accessToken: accessToken)
        }
        var saml: SAMLResponse?
        if let text = parameters.nonEmpty("SAMLResponse") { saml = try SAMLResponse(text) }
        try IdpNonce.verify(credential, providerId: providerId, rawNonce: parameters["nonce"])

        let profile = IdpProfile(providerId: providerId, credential: credential, saml: saml)
        var response = IdpSignInResponse(
            profile, oauthIdToken: idToken,
            // Always an access token, so clients that build credentials from it keep working.
            oauthAccessToken: accessToken ?? "FirebaseAuthEmulatorFakeAccessToken_\(providerId)",
            oauthTokenSecret: parameters.nonEmpty("oauth_token_secret"))

        var linkTarget: UserRecord?
        if let idToken = body.idToken, !idToken.isEmpty {
            linkTarget = try request.verifyIdToken(idToken, in: project).user
        }
        let resolution: IdpAccountResolution
        do throws(ApiError) {
            if let linkTarget {
                resolution = try IdpAccountResolution.link(profile, to: linkTarget, in: project)
            } else {
                switch IdpAccountResolution.signIn(profile, in: project, clock: env.clock) {
                case .proceed(let decided):
                    resolution = decided
                case .needConfirmation(let localId, let verifiedProvider):
                    response.needConfirmation = true
                    response.localId = localId
                    response.verifiedProvider = verifiedProvider
                    return Reply(response)
                }
            }
        } catch where body.returnIdpCredential == true && error.httpStatus == 400 {
            // The popup / redirect flows ask for the credential back even when linking fails, so
            // the app can sign in to the account that already has it.
            response.errorMessage = error.message
            return Reply(response)
        }

        // Reauthentication sends autoCreate:false: an identity no account has is then an unknown
        // user rather than a new account (hearth-emulator only; Firebase's emulator ignores the flag).
        if resolution.isNewUser, body.autoCreate == false { throw .badRequest("USER_NOT_FOUND") }

        let blocking = BlockingFunctionCall.Context(
            signInMethod: providerId, rawUserInfo: profile.rawUserInfo,
            signInAttributes: saml?.attributeStatements.map(\.jsonText))
        let providerTokens = BlockingFunctionCall.ProviderTokens(
            idToken: response.oauthIdToken, accessToken: response.oauthAccessToken)
        let (user, extraClaims) = try write(
            resolution, profile: profile, blocking: blocking, providerTokens: providerTokens, in: &project,
            environment: env)
        response.localId = user.localId
        if resolution.isNewUser { response.isNewUser = true }
        if resolution.emailRecycled { response.emailRecycled = true }
        // The account's own verification speaks for the email they share (both absent included, as
        // in the reference, which then leaves the field out).
        if user.email == profile.email { response.emailVerified = user.emailVerified }
        response.tenantId = project.tenantId
        // As in the reference, the sign-in is recorded before a disabled account is turned away.
        try require(!user.isDisabled, "USER_DISABLED")
        if let challenge = SecondFactorChallenge(for: user, signInProvider: providerId, in: project) {
            response.mfaPendingCredential = challenge.mfaPendingCredential
            response.mfaInfo = challenge.mfaInfo
            return Reply(response)
        }

        let tokens = TokenIssuer.issue(
            for: user, signInProvider: providerId, extraClaims: extraClaims ?? JSONObject(),
            signInAttributes: saml?.attributeStatements, in: &project, clock: env.clock)
        response.idToken = tokens.idToken
        response.refreshToken = tokens.refreshToken
        response.expiresIn = tokens.expiresIn
        return Reply(response)
    }

    /// Creates or changes the account, passing the blocking functions (if any) on the way; answers
    /// the account and the claims a beforeSignIn function added for this sign-in.
    private static func write(
        _ resolution: IdpAccountResolution, profile: IdpProfile, blocking context: BlockingFunctionCall.Context,
        providerTokens: BlockingFunctionCall.ProviderTokens, in project: inout ProjectState,
        environment env: EmulatorEnvironment
    ) throws(ApiError) -> (UserRecord, JSONObject?) {
        let now = String(env.clock.milliseconds)
        let tenantId = project.tenantId
        let edits = resolution.edits
        // Blocking functions see a sign-in only when no second factor is still to come.
        let mfaEnabled = project.features.secondFactorsEnabled
        let setUp: (inout UserRecord) -> Void = { record in
            for edit in edits { edit(&record) }
            record.createdAt = now
            record.lastLoginAt = now
            record.tenantId = tenantId
        }
        switch resolution.target {
        case .newAccount:
            let localId = project.generateLocalId()
            var planned = UserRecord(localId: localId)
            setUp(&planned)
            planned.providerUserInfo = [profile.providerUserInfo]
            let beforeCreate = try BlockingFunctionCall.run(
                .beforeCreate, for: planned, context: context, providerTokens: providerTokens, in: project,
                environment: env)
            guard var created = project.createUser(localId: localId, providers: [profile.providerUserInfo], { record in
                setUp(&record)
                beforeCreate.apply(to: &record)
            })
            else { throw .internalError("INTERNAL_ERROR : a new account's id was taken") }
            var extraClaims: JSONObject?
            if !created.isDisabled && !(mfaEnabled && !created.secondFactors.isEmpty) {
                let beforeSignIn = try BlockingFunctionCall.run(
                    .beforeSignIn, for: created, context: context, providerTokens: providerTokens, in: project,
                    environment: env)
                created = project.updateUser(created) { beforeSignIn.apply(to: &$0) }
                extraClaims = beforeSignIn.extraClaims
            }
            return (created, extraClaims)
        case .existing(let user):
            var beforeSignIn = BlockingFunctionCall.Outcome()
            if !user.isDisabled && !(mfaEnabled && !user.secondFactors.isEmpty) {
                var planned = user
                for edit in edits { edit(&planned) }
                beforeSignIn = try BlockingFunctionCall.run(
                    .beforeSignIn, for: planned, context: context, providerTokens: providerTokens, in: project,
                    environment: env)
            }
            let updated = project.updateUser(
                user, upsertProviders: [profile.providerUserInfo], deleteProviders: resolution.deleteProviders
            ) { record in
                for edit in edits { edit(&record) }
                beforeSignIn.apply(to: &record)
                // With second factors, the sign-in happens when mfaSignIn:finalize completes it.
                if record.secondFactors.isEmpty || !mfaEnabled { record.lastLoginAt = now }
            }
            return (updated, beforeSignIn.extraClaims)
        }
    }
}
