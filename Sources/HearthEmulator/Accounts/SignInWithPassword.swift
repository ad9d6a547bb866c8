import HearthWire

/// `accounts:signInWithPassword`. With improved email privacy, unknown emails and wrong passwords
/// are both INVALID_LOGIN_CREDENTIALS so the answer does not reveal which accounts exist. An account
/// with second factors gets `mfaPendingCredential` and `mfaInfo` instead of tokens.
enum SignInWithPassword {
    static let schema = RequestSchema([
        "captchaChallenge": .string, "captchaResponse": .string, "clientType": .enumeration(ClientType.names),
        "delegatedProjectNumber": .int64, "email": .string, "idToken": .string, "instanceId": .string,
        "password": .string, "pendingIdToken": .string,
        "recaptchaVersion": .enumeration(ClientType.recaptchaVersions), "returnSecureToken": .bool,
        "tenantId": .string,
    ])

    /// Read straight from the validated body: the schema has made every one of these a string.
    struct Request {
        var email: String?
        var password: String?
        var captchaResponse: String?
        var captchaChallenge: String?
        var idToken: String?
        var pendingIdToken: String?

        init(_ body: JSONObject) {
            email = body["email"]?.stringValue
            password = body["password"]?.stringValue
            captchaResponse = body["captchaResponse"]?.stringValue
            captchaChallenge = body["captchaChallenge"]?.stringValue
            idToken = body["idToken"]?.stringValue
            pendingIdToken = body["pendingIdToken"]?.stringValue
        }
    }

    struct Response: Encodable, Sendable {
        let kind = "identitytoolkit#VerifyPasswordResponse"
        let registered = true
        var localId: String
        var email: String
        var idToken: String?
        var refreshToken: String?
        var expiresIn: String?
        var mfaPendingCredential: String?
        var mfaInfo: [MfaHint]?
    }

    static let operation = Operation(
        "identitytoolkit.accounts.signInWithPassword", body: .json(schema),
        tenantGates: [.enabled, .passwordSignIn], handler: .scoped(handle))

    /// What the locked part of a sign-in leaves to do.
    private enum Outcome {
        case signedIn(UserRecord, projectId: String, tenantId: String?, extraClaims: JSONObject?)
        case secondFactorNeeded(Response)
    }

    /// The project is locked only to find the account, check it and record the sign-in; tokens
    /// are minted and the answer written after.
    static func handle(_ request: OperationRequest, _ project: LockedProject) throws(ApiError) -> Reply {
        let body = Request(request.body)
        let email = try required(body.email, "MISSING_EMAIL")
        try require(EmailAddress.isValid(email), "INVALID_EMAIL")
        let password = try requiredText(body.password, "MISSING_PASSWORD")
        if !(body.captchaResponse ?? "").isEmpty || !(body.captchaChallenge ?? "").isEmpty {
            throw .notImplemented("captcha unimplemented")
        }
        if !(body.idToken ?? "").isEmpty || !(body.pendingIdToken ?? "").isEmpty {
            throw .notImplemented(
                "idToken / pendingIdToken is no longer in use and unsupported by the Auth Emulator.")
        }

        let canonical = EmailAddress.canonical(email)
        let clock = request.environment.clock
        let outcome = try project.write { project throws(ApiError) -> Outcome in
            let found = project.user(email: canonical)
            let user: UserRecord
            if project.config.enableImprovedEmailPrivacy {
                user = try required(found, "INVALID_LOGIN_CREDENTIALS")
                try require(!user.isDisabled, "USER_DISABLED")
                try require(PasswordHash.matches(user, password: password), "INVALID_LOGIN_CREDENTIALS")
            } else {
                user = try required(found, "EMAIL_NOT_FOUND")
                try require(!user.isDisabled, "USER_DISABLED")
                try require(PasswordHash.matches(user, password: password), "INVALID_PASSWORD")
            }

            if let challenge = SecondFactorChallenge(for: user, signInProvider: ProviderID.password, in: project) {
                return .secondFactorNeeded(Response(
                    localId: user.localId, email: canonical, mfaPendingCredential: challenge.mfaPendingCredential,
                    mfaInfo: challenge.mfaInfo))
            }
            let blocking = try BlockingFunctionCall.run(
                .beforeSignIn, for: user, context: .init(signInMethod: ProviderID.password), in: project,
                environment: request.environment)
            let signedIn = project.updateUser(user) { user in
                blocking.apply(to: &user)
                user.lastLoginAt = String(clock.milliseconds)
                TokenIssuer.stampRefresh(&user, clock: clock)
            }
            // A blocking function may have disabled the account; the sign-in is recorded first, as in the reference.
            try require(!signedIn.isDisabled, "USER_DISABLED")
            return .signedIn(signedIn, projectId: project.projectId, tenantId: project.tenantId,
                             extraClaims: blocking.extraClaims)
        }
        switch outcome {
        case .secondFactorNeeded(let response):
            return Reply(response)
        case .signedIn(let user, let projectId, let tenantId, let extraClaims):
            let tokens = TokenIssuer.tokens(
                for: user, projectId: projectId, tenantId: tenantId, signInProvider: ProviderID.password,
                extraClaims: extraClaims ?? JSONObject(), clock: clock)
            return Reply(SignedIn(
                localId: user.localId, email: canonical,
                idToken: tokens.idToken, refreshToken: tokens.refreshToken, expiresIn: tokens.expiresIn))
        }
    }

    /// `Response` with tokens, the answer of nearly every sign-in, written member by member.
    struct SignedIn: DirectJSON, Sendable {
        let kind = "identitytoolkit#VerifyPasswordResponse"
        let registered = true
        var localId: String
        var email: String
        var idToken: String
        var refreshToken: String
        var expiresIn: String

        func writeJSON(into out: inout [UInt8]) {
            JSONObjectWriter.write(into: &out) { object, out in
                object.string("email", email, into: &out)
                object.string("expiresIn", expiresIn, into: &out)
                object.string("idToken", idToken, into: &out)
                object.string("kind", kind, into: &out)
                object.string("localId", localId, into: &out)
                object.string("refreshToken", refreshToken, into: &out)
                object.bool("registered", registered, into: &out)
            }
        }
    }
}
