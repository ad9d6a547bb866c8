import HearthCrypto
import HearthWire

/// `v2/accounts/mfaEnrollment:start`: begins enrolling a second factor for the account of `idToken`.
/// A phone factor (`phoneEnrollmentInfo`) gets an SMS code (see `VerificationCodeSender`); a TOTP
/// factor (`totpEnrollmentInfo: {}`, hearth-emulator only) gets a new shared secret for the
/// authenticator app. Either must be finished with mfaEnrollment:finalize before the session's
/// lifetime (`smsCodeTtlSeconds`) runs out.
enum StartMfaEnrollment {
    static let schema = RequestSchema([
        "idToken": .string, "phoneEnrollmentInfo": .message(MfaSchemas.startPhone), "tenantId": .string,
        "totpEnrollmentInfo": .message(RequestSchema([:])),
    ])

    struct Request: Decodable {
        var idToken: String?
        var phoneEnrollmentInfo: MfaSchemas.StartPhone?
        var totpEnrollmentInfo: JSONValue?
    }

    struct Response: Encodable {
        var phoneSessionInfo: MfaSchemas.PhoneSession?
        var totpSessionInfo: TotpSession?
    }

    struct TotpSession: Encodable {
        var sharedSecretKey: String
        var verificationCodeLength = TOTP.digits
        var hashingAlgorithm = TOTP.hashingAlgorithm
        var periodSec = Int(TOTP.periodSeconds)
        var sessionInfo: String
        /// RFC 3339: the enrollment must be finalized before then.
        var finalizeEnrollmentTime: String
    }

    static let operation = Operation(
        "identitytoolkit.accounts.mfaEnrollment.start", body: .json(schema), tenantGates: [.enabled, .smsSecondFactors],
        handler: handle)

    static func handle(_ project: inout ProjectState, _ request: OperationRequest) throws(ApiError) -> Reply {
        let body = try request.decodeBody(as: Request.self)
        let env = request.environment
        let idToken = try requiredText(body.idToken, "MISSING_ID_TOKEN")
        let token = try request.verifyIdToken(idToken, in: project)
        let user = token.user
        _ = try MfaRules.eligibleFirstFactor(token)
        try MfaRules.requireVerifiedEmail(user)
        try RecentLogin.require(token, in: project, clock: env.clock)
        try MfaRules.requireRoomForAnother(user)

        switch (body.phoneEnrollmentInfo, body.totpEnrollmentInfo) {
        case (let phone?, nil):
            let phoneNumber = try requiredText(phone.phoneNumber, PhoneNumber.invalidFormatMessage)
            try require(PhoneNumber.isValid(phoneNumber), PhoneNumber.invalidFormatMessage)
            try MfaRules.requireNotEnrolled(phoneNumber: phoneNumber, user)
            let session = try VerificationCodeSender.send(
                to: phoneNumber, for: .mfaEnrollment(localId: user.localId), credentials: phone.credentials,
                in: &project, request: request)
            return Reply(Response(phoneSessionInfo: MfaSchemas.PhoneSession(sessionInfo: session.sessionInfo)))
        case (nil, _?):
            try MfaRules.requireNoTotpFactor(user)
            return Reply(Response(totpSessionInfo: startTotp(for: user, in: &project, clock: env.clock)))
        case (_?, _?):
            throw .badRequest("INVALID_ARGUMENT : ((Give phoneEnrollmentInfo or totpEnrollmentInfo, not both.))")
        case (nil, nil):
            throw .badRequest("INVALID_ARGUMENT : ((Missing phoneEnrollmentInfo.))")
        }
    }

    private static func startTotp(
        for user: UserRecord, in project: inout ProjectState, clock: EmulatorClock
    ) -> TotpSession {
        let now = clock.milliseconds
        let expiresAt = now + project.config.smsCodeTtlSeconds * 1000
        let secret = TOTP.newSecret()
        var sessionInfo = RandomID.base64URL(VerificationCodeSender.sessionInfoLength)
        while project.totpEnrollmentSessions.entry(sessionInfo) != nil {
            sessionInfo = RandomID.base64URL(VerificationCodeSender.sessionInfoLength)
        }
        project.totpEnrollmentSessions.insert(
            TotpEnrollmentSession(localId: user.localId, secret: secret), key: sessionInfo, expiresAt: expiresAt,
            now: now)
        return TotpSession(sharedSecretKey: Base32.encode(secret, padding: false), sessionInfo: sessionInfo,
                           finalizeEnrollmentTime: EmulatorClock.iso8601(milliseconds: expiresAt))
    }
}
