/// The per-project settings the emulator lets tests change (`/emulator/v1/projects/{p}/config`).
struct ProjectConfig: Sendable, Equatable {
    /// `signIn.allowDuplicateEmails`: false means one account per email (the default).
    var allowDuplicateEmails = false
    /// `emailPrivacyConfig.enableImprovedEmailPrivacy` (email enumeration protection).
    var enableImprovedEmailPrivacy = false

    var oneAccountPerEmail: Bool { !allowDuplicateEmails }
}
