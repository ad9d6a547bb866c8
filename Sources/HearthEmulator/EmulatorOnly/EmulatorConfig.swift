/// `GET` / `PATCH /emulator/v1/projects/{p}/config`: duplicate emails and improved email privacy,
/// as in Firebase's emulator, and `recentLoginMaxAgeSeconds` (hearth-emulator only; see
/// `RecentLogin`; 0 turns the check off). PATCH changes only the settings present in the body.
enum EmulatorConfig {
    static let schema = RequestSchema([
        "signIn": .message(RequestSchema(["allowDuplicateEmails": .bool])),
        "emailPrivacyConfig": .message(RequestSchema(["enableImprovedEmailPrivacy": .bool])),
        "recentLoginMaxAgeSeconds": .int32,
    ])

    struct Settings: Codable {
        struct SignIn: Codable { var allowDuplicateEmails: Bool? }
        struct EmailPrivacy: Codable { var enableImprovedEmailPrivacy: Bool? }
        var signIn: SignIn?
        var emailPrivacyConfig: EmailPrivacy?
        var recentLoginMaxAgeSeconds: Int64?

        init(_ config: ProjectConfig) {
            signIn = SignIn(allowDuplicateEmails: config.allowDuplicateEmails)
            emailPrivacyConfig = EmailPrivacy(enableImprovedEmailPrivacy: config.enableImprovedEmailPrivacy)
            recentLoginMaxAgeSeconds = config.recentLoginMaxAgeSeconds
        }
    }

    static let getOperation = Operation("emulator.projects.config.get", access: .open) { project, _ throws(ApiError) in
        Reply(Settings(project.config))
    }

    static let updateOperation = Operation(
        "emulator.projects.config.update", access: .open, body: .json(schema)
    ) { project, request throws(ApiError) in
        let patch = try request.decodeBody(as: Settings.self)
        if let value = patch.signIn?.allowDuplicateEmails { project.config.allowDuplicateEmails = value }
        if let value = patch.emailPrivacyConfig?.enableImprovedEmailPrivacy {
            project.config.enableImprovedEmailPrivacy = value
        }
        if let value = patch.recentLoginMaxAgeSeconds {
            guard value >= 0 else {
                throw .invalidArgument(
                    "Invalid JSON payload received. Invalid value at 'recentLoginMaxAgeSeconds' (TYPE_INT32), \(value): must not be negative")
            }
            project.config.recentLoginMaxAgeSeconds = value
        }
        return Reply(Settings(project.config))
    }
}
