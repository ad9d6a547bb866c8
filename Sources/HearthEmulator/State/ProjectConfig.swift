import HearthWire

/// The per-project settings: the v2 admin API's `Config` resource (`GET/PATCH v2/projects/{p}/config`,
/// of which `/emulator/v1/projects/{p}/config` shows and changes two fields), and the settings only
/// hearth-emulator has. A project's tenants share them.
struct ProjectConfig: Sendable, Equatable {
    /// The `Config` resource as the admin API reads and writes it. A masked update may set any of
    /// its fields, so it is kept as JSON; the fields the emulator acts on are read out of it when it
    /// changes (`admin`'s setter).
    var admin: JSONObject = ProjectConfig.defaultAdmin {
        didSet { readAdmin() }
    }
    /// `signIn.allowDuplicateEmails`: false means one account per email (the default).
    private(set) var allowDuplicateEmails = false
    /// `emailPrivacyConfig.enableImprovedEmailPrivacy` (email enumeration protection).
    private(set) var enableImprovedEmailPrivacy = false
    /// `blockingFunctions`: the functions called before accounts are created or signed in.
    private(set) var blockingFunctions = BlockingFunctionsConfig()
    /// `recentLoginMaxAgeSeconds` (hearth-emulator only): how old a sign-in may be for a password
    /// change, an email change or an account deletion; older ones fail with
    /// CREDENTIAL_TOO_OLD_LOGIN_AGAIN. 0 never asks for a recent sign-in, as Firebase's emulator.
    var recentLoginMaxAgeSeconds: Int64 = 0
    /// `smsCodeTtlSeconds` (hearth-emulator only): how long an SMS verification session (and a TOTP
    /// enrollment session) can be finished; later it is SESSION_EXPIRED. Firebase's emulator keeps
    /// codes forever.
    var smsCodeTtlSeconds: Int64 = 300
    /// `oobCodeTtlSeconds` (hearth-emulator only): how long an out-of-band code (email link) can be
    /// used; later it is EXPIRED_OOB_CODE, as production answers. 0 (the default) keeps codes until
    /// used, as Firebase's emulator does.
    var oobCodeTtlSeconds: Int64 = 0
    /// `smsRateLimit` (hearth-emulator only), see `SmsRateLimit`.
    var smsRateLimit = SmsRateLimit()
    /// `testPhoneNumbers` (hearth-emulator only), see `TestPhoneNumbers`.
    var testPhoneNumbers = TestPhoneNumbers()
    /// `appVerificationRequired` (hearth-emulator only), see `AppVerification`. Off by default, as
    /// Firebase's emulator never checks app credentials.
    var appVerificationRequired = false

    var oneAccountPerEmail: Bool { !allowDuplicateEmails }

    /// A new project's `Config`, as Firebase's emulator starts it.
    static let defaultAdmin = JSONObject([
        ("signIn", .object(JSONObject([("allowDuplicateEmails", .bool(false))]))),
        ("blockingFunctions", .object(JSONObject())),
        ("emailPrivacyConfig", .object(JSONObject([("enableImprovedEmailPrivacy", .bool(false))]))),
    ])

    init(recentLoginMaxAgeSeconds: Int64 = 0, smsCodeTtlSeconds: Int64 = 300, smsRateLimit: SmsRateLimit = SmsRateLimit(),
         testPhoneNumbers: TestPhoneNumbers = TestPhoneNumbers(), appVerificationRequired: Bool = false) {
        self.recentLoginMaxAgeSeconds = recentLoginMaxAgeSeconds
        self.smsCodeTtlSeconds = smsCodeTtlSeconds
        self.smsRateLimit = smsRateLimit
        self.testPhoneNumbers = testPhoneNumbers
        self.appVerificationRequired = appVerificationRequired
    }

    /// Sets one nested boolean of `admin` (`signIn.allowDuplicateEmails`, ...), keeping its siblings.
    mutating func setAdmin(_ section: String, _ field: String, _ value: Bool) {
        var object = admin[section]?.objectValue ?? JSONObject()
        object[field] = .bool(value)
        admin[section] = .object(object)
    }

    private mutating func readAdmin() {
        allowDuplicateEmails = admin["signIn"]?.objectValue?["allowDuplicateEmails"]?.boolValue == true
        enableImprovedEmailPrivacy =
            admin["emailPrivacyConfig"]?.objectValue?["enableImprovedEmailPrivacy"]?.boolValue == true
        blockingFunctions = BlockingFunctionsConfig(admin["blockingFunctions"]?.objectValue ?? JSONObject())
    }
}
