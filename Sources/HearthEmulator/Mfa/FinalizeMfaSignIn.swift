import HearthWire

/// `v2/accounts/mfaSignIn:finalize`: completes a sign-in left pending by a first factor, with the
/// SMS code of mfaSignIn:start (`phoneVerificationInfo`; its optional `phoneNumber` may be the real
/// or the masked number, as iOS sends the masked one) or with a code of the authenticator app
/// (`mfaEnrollmentId` + `totpVerificationInfo.verificationCode`, hearth-emulator only). Answers
/// tokens recording both factors.
enum FinalizeMfaSignIn {
    static let schema = RequestSchema([
        "mfaEnrollmentId": .string, "mfaPendingCredential": .string,
        "phoneVerificationInfo": .message(MfaSchemas.finalizePhone), "tenantId": .string,
        "totpVerificationInfo": .message(RequestSchema(["verificationCode": .string])),
    ])

    struct TotpVerification: Decodable {
        var verificationCode: String?
    }

    struct Request: Decodable {
        var mfaEnrollmentId: String?
        var mfaPendingCredential: String?
        var phoneVerificationInfo: MfaSchemas.FinalizePhone?
        var totpVerificationInfo: TotpVerification?
    }

    static let operation = Operation(
        "identitytoolkit.accounts.mfaSignIn.finalize", body: .json(schema), tenantGates: [.enabled, .smsSecondFactors],
        handler: handle)

    static func handle(_ project: inout ProjectState, _ request: OperationRequest) throws(ApiError) -> Reply {
        let body = try request.decodeBody(as: Request.self)
        let env = request.environment
        let now = env.clock.milliseconds
        // Not MISSING_MFA_PENDING_CREDENTIAL as in start: production answers this here.
        let pending = try requiredText(body.mfaPendingCredential, "MISSING_CREDENTIAL : Please set MFA Pending Credential.")

        let enrollment: MfaEnrollment
        let user: UserRecord
        let signInProvider: String
        switch (body.phoneVerificationInfo, body.totpVerificationInfo) {
        case (let phone?, nil):
            if !(phone.androidVerificationProof ?? "").isEmpty {
                throw .notImplemented("androidVerificationProof is unsupported!")
            }
            let code = try requiredText(phone.code, "MISSING_CODE")
            let sessionInfo = try requiredText(phone.sessionInfo, "MISSING_SESSION_INFO")
            (user, signInProvider) = try MfaPendingCredential.account(of: pending, in: project)
            if let stated = phone.phoneNumber, !stated.isEmpty,
               let sent = VerificationCodeCheck.phoneNumber(of: sessionInfo, in: project) {
                try require(stated == sent || stated == PhoneNumber.masked(sent),
                            "INVALID_PHONE_NUMBER : ((The phone number is not the one the code was sent to.))")
            }
            let phoneNumber = try VerificationCodeCheck.consume(
                sessionInfo: sessionInfo, code: code, for: .mfaSignIn(localId: user.localId), in: &project, now: now)
            enrollment = try required(
                user.secondFactors.first { $0.phoneNumber == phoneNumber }, "MFA_ENROLLMENT_NOT_FOUND")
        case (nil, let totp?):
            let enrollmentId = try requiredText(
                body.mfaEnrollmentId, "MISSING_MFA_ENROLLMENT_ID : No second factor identifier is provided.")
            let code = try requiredText(totp.verificationCode, "MISSING_CODE")
            (user, signInProvider) = try MfaPendingCredential.account(of: pending, in: project)
            enrollment = try required(
                user.secondFactors.first { $0.mfaEnrollmentId == enrollmentId && $0.totpInfo != nil },
                "MFA_ENROLLMENT_NOT_FOUND")
            let secret = try required(enrollment.totpSecret, "MFA_ENROLLMENT_NOT_FOUND")
            try require(TOTP.isValid(code, secret: secret, unixSeconds: now / 1000), "INVALID_CODE")
        case (_?, _?):
            throw .badRequest("INVALID_ARGUMENT : ((Give phoneVerificationInfo or totpVerificationInfo, not both.))")
        case (nil, nil):
            throw .badRequest("INVALID_ARGUMENT : MFA provider not supported!")
        }

        let beforeSignIn = try BlockingFunctionCall.run(
            .beforeSignIn, for: user,
            context: .init(signInMethod: signInProvider, signInSecondFactor: SecondFactor(enrollment).provider),
            in: project, environment: env)
        let signedInAt = String(now)
        let signedIn = project.updateUser(user) { record in
            beforeSignIn.apply(to: &record)
            record.lastLoginAt = signedInAt
        }
        // Disabled before or by a blocking function: the sign-in is recorded first, as in the reference.
        try require(!signedIn.isDisabled, "USER_DISABLED")
        let tokens = TokenIssuer.issue(
            for: signedIn, signInProvider: signInProvider, extraClaims: beforeSignIn.extraClaims ?? JSONObject(),
            secondFactor: SecondFactor(enrollment), in: &project, clock: env.clock)
        return Reply(MfaSchemas.Tokens(idToken: tokens.idToken, refreshToken: tokens.refreshToken))
    }
}
