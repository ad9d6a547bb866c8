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

    struct Request: Decodable {
        var email: String?
        var password: String?
        var captchaResponse: String?
        var captchaChallenge: String?
        var idToken: String?
        var pendingIdToken: String?
    }

    struct Response: Encodable {
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
        "identitytoolkit.accounts.signInWithPassword", body: .json(schema), handler: handle)

    static func handle(_ project: inout ProjectState, _ request: OperationRequest) throws(ApiError) -> Reply {
        let body = try request.decodeBody(as: Request.self)
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

        if let challenge = SecondFactorChallenge(
            for: user, signInProvider: ProviderID.password, projectId: project.projectId) {
            return Reply(Response(
                localId: user.localId, email: canonical, mfaPendingCredential: challenge.mfaPendingCredential,
                mfaInfo: challenge.mfaInfo))
        }
        let clock = request.environment.clock
        let signedIn = project.updateUser(user) { $0.lastLoginAt = String(clock.milliseconds) }
        let tokens = TokenIssuer.issue(for: signedIn, signInProvider: ProviderID.password, in: &project, clock: clock)
        return Reply(Response(
            localId: user.localId, email: canonical,
            idToken: tokens.idToken, refreshToken: tokens.refreshToken, expiresIn: tokens.expiresIn))
    }
}
