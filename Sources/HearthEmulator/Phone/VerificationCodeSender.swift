/// "Sends" an SMS verification code: checks the app credential and the per-number rate limit,
/// creates the session (a 226-character sessionInfo and 6 random digits, or a test number's fixed
/// code), and logs the message a phone would receive, in the app's language. Test numbers are
/// exempt from app verification and rate limiting, and nothing is logged for them.
enum VerificationCodeSender {
    static let sessionInfoLength = 226
    static let codeLength = 6

    static func send(
        to phoneNumber: String, for purpose: VerificationSession.Purpose, credentials: AppCredentials,
        in project: inout ProjectState, request: OperationRequest
    ) throws(ApiError) -> VerificationSession {
        let env = request.environment
        let now = env.clock.milliseconds
        let testCode = project.config.testPhoneNumbers.code(for: phoneNumber)
        try AppVerification.require(credentials, for: phoneNumber, in: &project, now: now)
        if testCode == nil {
            try require(project.smsRateLimiter.admit(phoneNumber, limit: project.config.smsRateLimit, now: now),
                        "TOO_MANY_ATTEMPTS_TRY_LATER")
        }

        var sessionInfo = RandomID.base64URL(sessionInfoLength)
        while project.verificationSessions.entry(sessionInfo) != nil { sessionInfo = RandomID.base64URL(sessionInfoLength) }
        let session = VerificationSession(
            sessionInfo: sessionInfo, phoneNumber: phoneNumber, code: testCode ?? RandomID.digits(codeLength),
            locale: request.locale ?? SmsText.defaultLanguage, purpose: purpose)
        project.verificationSessions.insert(
            session, key: sessionInfo, expiresAt: now + project.config.smsCodeTtlSeconds * 1000, now: now)
        if testCode == nil { log(session, requestedLocale: request.locale, to: env.log) }
        return session
    }

    /// Firebase's emulator's line, then the SMS as the phone would show it and the language used.
    private static func log(_ session: VerificationSession, requestedLocale: String?, to log: EmulatorLog) {
        let number = session.phoneNumber
        let code = session.code
        let instruction = switch session.purpose {
        case .firstFactor: "To verify the phone number \(number), use the code \(code)."
        case .mfaEnrollment: "To enroll MFA with \(number), use the code \(code)."
        case .mfaSignIn: "To sign in with MFA using \(number), use the code \(code)."
        }
        let language = SmsText.language(for: session.locale)
        let asked = requestedLocale.map { "X-Firebase-Locale \($0)" } ?? "no X-Firebase-Locale"
        log.info("\(instruction) SMS text in locale \(language) (\(asked)): \"\(SmsText.message(code: code, language: language))\"")
    }
}

/// Uses up a verification session: the code must match, within the session's lifetime, for the
/// purpose it was sent for.
enum VerificationCodeCheck {
    /// The verified phone number. INVALID_SESSION_INFO for an unknown session or one sent for
    /// something else; SESSION_EXPIRED (and the session is gone) past its lifetime; INVALID_CODE for
    /// a wrong code (the session stays, so the person can retype it).
    static func consume(
        sessionInfo: String, code: String, for purpose: VerificationSession.Purpose,
        in project: inout ProjectState, now: Int64
    ) throws(ApiError) -> String {
        let entry = try required(project.verificationSessions.entry(sessionInfo), "INVALID_SESSION_INFO")
        try require(entry.record.purpose == purpose, "INVALID_SESSION_INFO")
        if entry.isExpired(now: now) {
            project.verificationSessions.remove(sessionInfo)
            throw .badRequest("SESSION_EXPIRED")
        }
        try require(entry.record.code == code, "INVALID_CODE")
        project.verificationSessions.remove(sessionInfo)
        return entry.record.phoneNumber
    }

    /// The session's phone number without using it up (nil when unknown).
    static func phoneNumber(of sessionInfo: String, in project: ProjectState) -> String? {
        project.verificationSessions.entry(sessionInfo)?.record.phoneNumber
    }
}
