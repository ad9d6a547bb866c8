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

    var oneAccountPerEmail: Bool { !allowDuplicateEmails }
}
