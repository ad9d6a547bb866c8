/// `GET` / `PATCH /emulator/v1/projects/{p}/config`. PATCH changes only the settings present in the
/// body (all or nothing: an invalid value changes none) and answers the whole configuration:
///
/// ```
/// {"signIn": {"allowDuplicateEmails": false},                  as Firebase's emulator
///  "emailPrivacyConfig": {"enableImprovedEmailPrivacy": false}, as Firebase's emulator
///  "recentLoginMaxAgeSeconds": 0,         see RecentLogin; 0 turns the check off
///  "smsCodeTtlSeconds": 300,              SMS and TOTP enrollment sessions live this long (>= 1)
///  "oobCodeTtlSeconds": 0,                email links live this long, then EXPIRED_OOB_CODE; 0 = forever
///  "smsRateLimit": {"maxSends": 5, "windowSeconds": 60},  per phone number; maxSends 0 = no limit
///  "testPhoneNumbers": {"+16505553434": "654321"},        replaces the whole set; {} clears it
///  "appVerificationRequired": false}      see AppVerification
/// ```
///
/// Everything but `signIn` and `emailPrivacyConfig` is hearth-emulator only. Those two are fields of
/// the project's v2 `Config` (`ProjectConfigV2`). Changing `smsRateLimit` forgets earlier sends. The
/// project's tenants share its settings.
enum EmulatorConfig {
    static let schema = RequestSchema([
        "signIn": .message(RequestSchema(["allowDuplicateEmails": .bool])),
        "emailPrivacyConfig": .message(RequestSchema(["enableImprovedEmailPrivacy": .bool])),
        "recentLoginMaxAgeSeconds": .int32,
        "smsCodeTtlSeconds": .int32,
        "oobCodeTtlSeconds": .int32,
        "smsRateLimit": .message(RequestSchema(["maxSends": .int32, "windowSeconds": .int32])),
        "testPhoneNumbers": .stringMap,
        "appVerificationRequired": .bool,
    ])

    struct Settings: Codable {
        struct SignIn: Codable { var allowDuplicateEmails: Bool? }
        struct EmailPrivacy: Codable { var enableImprovedEmailPrivacy: Bool? }
        struct RateLimit: Codable {
            var maxSends: Int?
            var windowSeconds: Int64?
        }
        var signIn: SignIn?
        var emailPrivacyConfig: EmailPrivacy?
        var recentLoginMaxAgeSeconds: Int64?
        var smsCodeTtlSeconds: Int64?
        var oobCodeTtlSeconds: Int64?
        var smsRateLimit: RateLimit?
        var testPhoneNumbers: [String: String]?
        var appVerificationRequired: Bool?

        init(_ config: ProjectConfig) {
            signIn = SignIn(allowDuplicateEmails: config.allowDuplicateEmails)
            emailPrivacyConfig = EmailPrivacy(enableImprovedEmailPrivacy: config.enableImprovedEmailPrivacy)
            recentLoginMaxAgeSeconds = config.recentLoginMaxAgeSeconds
            smsCodeTtlSeconds = config.smsCodeTtlSeconds
            oobCodeTtlSeconds = config.oobCodeTtlSeconds
            smsRateLimit = RateLimit(maxSends: config.smsRateLimit.maxSends,
                                     windowSeconds: config.smsRateLimit.windowSeconds)
            testPhoneNumbers = config.testPhoneNumbers.codes
            appVerificationRequired = config.appVerificationRequired
        }
    }

    static let getOperation = Operation("emulator.projects.config.get", access: .open) { project, _ throws(ApiError) in
        Reply(Settings(project.config))
    }

    static let updateOperation = Operation(
        "emulator.projects.config.update", access: .open, body: .json(schema), handler: .global(update))

    private static func update(_ request: OperationRequest, _ state: EmulatorState) throws(ApiError) -> Reply {
        let patch = try request.decodeBody(as: Settings.self)
        let family = state.family(request.projectId)
        let settings = try family.project.write { project throws(ApiError) in
            let config = try applying(patch, to: project.config)
            if config.smsRateLimit != project.config.smsRateLimit { project.smsRateLimiter.reset() }
            project.config = config
            return Settings(project.config)
        }
        family.shareConfig()
        return Reply(settings)
    }

    /// `config` with the settings present in `patch` changed, or the first invalid one reported.
    static func applying(_ patch: Settings, to current: ProjectConfig) throws(ApiError) -> ProjectConfig {
        var config = current
        if let value = patch.signIn?.allowDuplicateEmails { config.setAdmin("signIn", "allowDuplicateEmails", value) }
        if let value = patch.emailPrivacyConfig?.enableImprovedEmailPrivacy {
            config.setAdmin("emailPrivacyConfig", "enableImprovedEmailPrivacy", value)
        }
        if let value = patch.recentLoginMaxAgeSeconds {
            try requireValid(value >= 0, "recentLoginMaxAgeSeconds", "(TYPE_INT32), \(value): must not be negative")
            config.recentLoginMaxAgeSeconds = value
        }
        if let value = patch.smsCodeTtlSeconds {
            try requireValid(value >= 1, "smsCodeTtlSeconds", "(TYPE_INT32), \(value): must be at least 1")
            config.smsCodeTtlSeconds = value
        }
        if let value = patch.oobCodeTtlSeconds {
            try requireValid(value >= 0, "oobCodeTtlSeconds", "(TYPE_INT32), \(value): must not be negative")
            config.oobCodeTtlSeconds = value
        }
        if let limit = patch.smsRateLimit {
            if let maxSends = limit.maxSends {
                try requireValid(maxSends >= 0, "smsRateLimit.maxSends", "(TYPE_INT32), \(maxSends): must not be negative")
                config.smsRateLimit.maxSends = maxSends
            }
            if let window = limit.windowSeconds {
                try requireValid(window >= 1, "smsRateLimit.windowSeconds", "(TYPE_INT32), \(window): must be at least 1")
                config.smsRateLimit.windowSeconds = window
            }
        }
        if let numbers = patch.testPhoneNumbers {
            var testPhoneNumbers = TestPhoneNumbers()
            for (number, code) in numbers.sorted(by: { $0.key < $1.key }) {
                do throws(TestPhoneNumbers.Invalid) {
                    try testPhoneNumbers.set(number: number, code: code)
                } catch {
                    try requireValid(false, "testPhoneNumbers", error.message)
                }
            }
            config.testPhoneNumbers = testPhoneNumbers
        }
        if let value = patch.appVerificationRequired { config.appVerificationRequired = value }
        return config
    }

    private static func requireValid(_ condition: Bool, _ field: String, _ detail: String) throws(ApiError) {
        if !condition {
            // Numbers read "at 'field' (TYPE_INT32), value: why", as Google words it; maps "at 'field': why".
            let separator = detail.hasPrefix("(") ? " " : ": "
            throw .invalidArgument("Invalid JSON payload received. Invalid value at '\(field)'\(separator)\(detail)")
        }
    }
}
