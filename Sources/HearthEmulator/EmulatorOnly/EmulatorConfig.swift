/// `GET` / `PATCH /emulator/v1/projects/{p}/config`: duplicate emails and improved email privacy.
/// PATCH changes only the settings present in the body.
enum EmulatorConfig {
    static let schema = RequestSchema([
        "signIn": .message(RequestSchema(["allowDuplicateEmails": .bool])),
        "emailPrivacyConfig": .message(RequestSchema(["enableImprovedEmailPrivacy": .bool])),
    ])

    struct Settings: Codable {
        struct SignIn: Codable { var allowDuplicateEmails: Bool? }
        struct EmailPrivacy: Codable { var enableImprovedEmailPrivacy: Bool? }
        var signIn: SignIn?
        var emailPrivacyConfig: EmailPrivacy?

        init(_ config: ProjectConfig) {
            signIn = SignIn(allowDuplicateEmails: config.allowDuplicateEmails)
            emailPrivacyConfig = EmailPrivacy(enableImprovedEmailPrivacy: config.enableImprovedEmailPrivacy)
        }
    }

    static let getOperation = Operation("emulator.projects.config.get", access: .open) { project, _ throws(ApiError) in
        JSONReply(Settings(project.config))
    }

    static let updateOperation = Operation(
        "emulator.projects.config.update", access: .open, body: .json(schema)
    ) { project, request throws(ApiError) in
        let patch = try request.decodeBody(as: Settings.self)
        if let value = patch.signIn?.allowDuplicateEmails { project.config.allowDuplicateEmails = value }
        if let value = patch.emailPrivacyConfig?.enableImprovedEmailPrivacy {
            project.config.enableImprovedEmailPrivacy = value
        }
        return JSONReply(Settings(project.config))
    }
}
