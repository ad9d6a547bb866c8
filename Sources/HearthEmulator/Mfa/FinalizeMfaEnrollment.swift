/// `v2/accounts/mfaEnrollment:finalize`: proves the new factor (the SMS code of
/// `phoneVerificationInfo`, or a code of the authenticator app in `totpVerificationInfo`), adds it
/// to the account with `displayName`, and answers new tokens that record it as the second factor.
enum FinalizeMfaEnrollment {
    static let schema = RequestSchema([
        "displayName": .string, "idToken": .string, "phoneVerificationInfo": .message(MfaSchemas.finalizePhone),
        "tenantId": .string,
        "totpVerificationInfo": .message(RequestSchema(["sessionInfo": .string, "verificationCode": .string])),
    ])

    struct TotpVerification: Decodable {
        var sessionInfo: String?
        var verificationCode: String?
    }

    struct Request: Decodable {
        var displayName: String?
        var idToken: String?
        var phoneVerificationInfo: MfaSchemas.FinalizePhone?
        var totpVerificationInfo: TotpVerification?
    }

    static let operation = Operation(
        "identitytoolkit.accounts.mfaEnrollment.finalize", body: .json(schema),
        tenantGates: [.enabled, .smsSecondFactors], handler: handle)

    static func handle(_ project: inout ProjectState, _ request: OperationRequest) throws(ApiError) -> Reply {
        let body = try request.decodeBody(as: Request.self)
        let env = request.environment
        let now = env.clock.milliseconds
        let idToken = try requiredText(body.idToken, "MISSING_ID_TOKEN")
        let token = try request.verifyIdToken(idToken, in: project)
        let signInProvider = try MfaRules.eligibleFirstFactor(token)
        let user = token.user
        try MfaRules.requireRoomForAnother(user)

        var enrollment = MfaEnrollment(
            mfaEnrollmentId: MfaRules.newEnrollmentId(for: user), displayName: body.displayName,
            enrolledAt: env.clock.iso8601)
        switch (body.phoneVerificationInfo, body.totpVerificationInfo) {
        case (let phone?, nil):
            if !(phone.androidVerificationProof ?? "").isEmpty {
                throw .notImplemented("androidVerificationProof is unsupported!")
            }
            let code = try requiredText(phone.code, "MISSING_CODE")
            let sessionInfo = try requiredText(phone.sessionInfo, "MISSING_SESSION_INFO")
            let phoneNumber = try VerificationCodeCheck.consume(
                sessionInfo: sessionInfo, code: code, for: .mfaEnrollment(localId: user.localId), in: &project,
                now: now)
            try MfaRules.requireNotEnrolled(phoneNumber: phoneNumber, user)
            enrollment.phoneInfo = phoneNumber
            enrollment.unobfuscatedPhoneInfo = phoneNumber
        case (nil, let totp?):
            let sessionInfo = try requiredText(totp.sessionInfo, "MISSING_SESSION_INFO")
            let code = try requiredText(totp.verificationCode, "MISSING_CODE")
            let entry = try required(project.totpEnrollmentSessions.entry(sessionInfo), "INVALID_SESSION_INFO")
            try require(entry.record.localId == user.localId, "INVALID_SESSION_INFO")
            if entry.isExpired(now: now) {
                project.totpEnrollmentSessions.remove(sessionInfo)
                throw .badRequest("SESSION_EXPIRED")
            }
            try require(TOTP.isValid(code, secret: entry.record.secret, unixSeconds: now / 1000), "INVALID_CODE")
            try MfaRules.requireNoTotpFactor(user)
            project.totpEnrollmentSessions.remove(sessionInfo)
            enrollment.totpInfo = MfaEnrollment.TotpInfo()
            enrollment.totpSecret = entry.record.secret
        case (_?, _?):
            throw .badRequest("INVALID_ARGUMENT : ((Give phoneVerificationInfo or totpVerificationInfo, not both.))")
        case (nil, nil):
            throw .badRequest("INVALID_ARGUMENT : ((Missing phoneVerificationInfo.))")
        }

        let added = enrollment
        let enrolled = project.updateUser(user) { $0.mfaInfo = $0.secondFactors + [added] }
        let tokens = TokenIssuer.issue(
            for: enrolled, signInProvider: signInProvider, secondFactor: SecondFactor(added), in: &project,
            clock: env.clock)
        return Reply(MfaSchemas.Tokens(idToken: tokens.idToken, refreshToken: tokens.refreshToken))
    }
}
