/// The per-project settings the emulator lets tests change (`/emulator/v1/projects/{p}/config`).
struct ProjectConfig: Sendable, Equatable {
    /// `signIn.allowDuplicateEmails`: false means one account per email (the default).
    var allowDuplicateEmails = false
    /// `emailPrivacyConfig.enableImprovedEmailPrivacy` (email enumeration protection).
    var enableImprovedEmailPrivacy = false
    /// `recentLoginMaxAgeSeconds` (hearth-emulator only): how old a sign-in may be for a password
    /// change, an email change or an account deletion; older ones fail with
    /// CREDENTIAL_TOO_OLD_LOGIN_AGAIN. 0 never asks for a recent sign-in, as Firebase's emulator.
    var recentLoginMaxAgeSeconds: Int64 = 0
    /// `smsCodeTtlSeconds` (hearth-emulator only): how long an SMS verification session (and a TOTP
    /// enrollment session) can be finished; later it is SESSION_EXPIRED. Firebase's emulator keeps
    /// codes forever.
    var smsCodeTtlSeconds: Int64 = 300
    /// `smsRateLimit` (hearth-emulator only), see `SmsRateLimit`.
    var smsRateLimit = SmsRateLimit()
    /// `testPhoneNumbers` (hearth-emulator only), see `TestPhoneNumbers`.
    var testPhoneNumbers = TestPhoneNumbers()
    /// `appVerificationRequired` (hearth-emulator only), see `AppVerification`. Off by default, as
    /// Firebase's emulator never checks app credentials.
    var appVerificationRequired = false

    var oneAccountPerEmail: Bool { !allowDuplicateEmails }
}
