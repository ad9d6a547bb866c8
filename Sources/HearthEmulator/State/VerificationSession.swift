/// An SMS verification code the emulator would have sent, and what it may be used for.
struct VerificationSession: Sendable {
    enum Purpose: Sendable, Equatable {
        /// accounts:sendVerificationCode → signInWithPhoneNumber.
        case firstFactor
        /// mfaEnrollment:start → mfaEnrollment:finalize by the same account.
        case mfaEnrollment(localId: String)
        /// mfaSignIn:start → mfaSignIn:finalize with a pending credential of the same account.
        case mfaSignIn(localId: String)
    }

    var sessionInfo: String
    var phoneNumber: String
    var code: String
    /// The `X-Firebase-Locale` of the request (a language tag), or "en" when it had none.
    var locale: String
    var purpose: Purpose
}

/// One entry of `GET /emulator/v1/projects/{p}/verificationCodes`.
struct VerificationCodeListing: Encodable, Sendable {
    var code: String
    var phoneNumber: String
    var sessionInfo: String
    var locale: String

    init(_ session: VerificationSession) {
        code = session.code
        phoneNumber = session.phoneNumber
        sessionInfo = session.sessionInfo
        locale = session.locale
    }
}
