import HearthWire

/// `accounts:signInWithEmailLink` (emailLinkSignin): signs in with an EMAIL_SIGNIN code from
/// sendOobCode, which is used up. The account of the email is signed in, or created
/// (`isNewUser`); with `idToken` the email is linked to that account instead, unless another
/// account has it (EMAIL_EXISTS). Either way the email becomes verified and email-link sign-in is
/// turned on for it (createAuthUri then lists `emailLink`). The ID token's sign-in provider is
/// `password`, as in production. An account with second factors gets `mfaPendingCredential` and
/// `mfaInfo` instead of tokens.
///
/// The email must be the one the code was sent to ("INVALID_EMAIL : The email provided does not
/// match the sign-in email address."); a code that is not an EMAIL_SIGNIN code is
/// INVALID_OOB_CODE. As in the reference, the code is used up before the account is checked, so
/// a refused link (USER_DISABLED, EMAIL_EXISTS) needs a new code.
enum SignInWithEmailLink {
    static let schema = RequestSchema([
        "email": .string, "idToken": .string, "oobCode": .string, "tenantId": .string,
    ])

    struct Request: Decodable {
        var email: String?
        var idToken: String?
        var oobCode: String?
    }

    struct Response: Encodable {
        let kind = "identitytoolkit#EmailLinkSigninResponse"
        var email: String
        var localId: String
        var isNewUser: Bool
        var idToken: String?
        var refreshToken: String?
        var expiresIn: String?
        var mfaPendingCredential: String?
        var mfaInfo: [MfaHint]?
    }

    static let operation = Operation(
        "identitytoolkit.accounts.signInWithEmailLink", body: .json(schema), tenantGates: [.enabled, .emailLinkSignIn],
        handler: handle)

    static func handle(_ project: inout ProjectState, _ request: OperationRequest) throws(ApiError) -> Reply {
        let body = try request.decodeBody(as: Request.self)
        let clock = request.environment.clock
        var linkTarget: UserRecord?
        if let idToken = body.idToken, !idToken.isEmpty {
            linkTarget = try request.verifyIdToken(idToken, in: project).user
        }
        let email = EmailAddress.canonical(try requiredText(body.email, "MISSING_EMAIL"))
        let code = try requiredText(body.oobCode, "MISSING_OOB_CODE")
        guard let oob = project.oobCodes.record(for: code), oob.requestType == .emailSignIn else {
            throw .badRequest("INVALID_OOB_CODE")
        }
        try project.requireUnexpired(oob, now: clock.milliseconds)
        try require(email == oob.email, "INVALID_EMAIL : The email provided does not match the sign-in email address.")
        project.oobCodes.remove(code)

        let owner = project.user(email: email)
        let tenantId = project.tenantId
        let apply: (inout UserRecord) -> Void = { record in
            record.email = email
            record.emailVerified = true
            record.emailLinkSignin = true
            if let tenantId { record.tenantId = tenantId }
        }
        let env = request.environment
        let context = BlockingFunctionCall.Context(signInMethod: ProviderID.emailLinkSignInMethod)
        // Blocking functions see a sign-in only when no second factor is still to come.
        let secondFactorsAsked = project.features.secondFactorsEnabled
        var user: UserRecord
        let isNewUser: Bool
        var extraClaims: JSONObject?
        if let existing = linkTarget ?? owner {
            try require(!existing.isDisabled, "USER_DISABLED")
            if let linkTarget, let owner { try require(linkTarget.localId == owner.localId, "EMAIL_EXISTS") }
            var planned = existing
            apply(&planned)
            var beforeSignIn = BlockingFunctionCall.Outcome()
            if !(secondFactorsAsked && !existing.secondFactors.isEmpty) {
                beforeSignIn = try BlockingFunctionCall.run(
                    .beforeSignIn, for: planned, context: context, in: project, environment: env)
                extraClaims = beforeSignIn.extraClaims
            }
            user = project.updateUser(existing) { record in apply(&record); beforeSignIn.apply(to: &record) }
            isNewUser = false
        } else {
            let localId = project.generateLocalId()
            let createdAt = String(clock.milliseconds)
            var planned = UserRecord(localId: localId)
            planned.createdAt = createdAt
            apply(&planned)
            let beforeCreate = try BlockingFunctionCall.run(
                .beforeCreate, for: planned, context: context, in: project, environment: env)
            guard let created = project.createUser(localId: localId, { record in
                record.createdAt = createdAt
                apply(&record)
                beforeCreate.apply(to: &record)
            }) else { throw .internalError("INTERNAL_ERROR : a new account's id was taken") }
            user = created
            if !user.isDisabled && !(secondFactorsAsked && !user.secondFactors.isEmpty) {
                let beforeSignIn = try BlockingFunctionCall.run(
                    .beforeSignIn, for: user, context: context, in: project, environment: env)
                user = project.updateUser(user) { beforeSignIn.apply(to: &$0) }
                extraClaims = beforeSignIn.extraClaims
            }
            isNewUser = true
        }

        var response = Response(email: email, localId: user.localId, isNewUser: isNewUser)
        // Disabled by a blocking function: the changes stay, the sign-in is refused.
        try require(!user.isDisabled, "USER_DISABLED")
        if let challenge = SecondFactorChallenge(for: user, signInProvider: ProviderID.password, in: project) {
            response.mfaPendingCredential = challenge.mfaPendingCredential
            response.mfaInfo = challenge.mfaInfo
            return Reply(response)
        }
        let signedInAt = String(clock.milliseconds)
        let signedIn = project.updateUser(user) { $0.lastLoginAt = signedInAt }
        let tokens = TokenIssuer.issue(
            for: signedIn, signInProvider: ProviderID.password, extraClaims: extraClaims ?? JSONObject(), in: &project,
            clock: clock)
        response.idToken = tokens.idToken
        response.refreshToken = tokens.refreshToken
        response.expiresIn = tokens.expiresIn
        return Reply(response)
    }
}
