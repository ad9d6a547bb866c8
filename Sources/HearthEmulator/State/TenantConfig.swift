import HearthWire

/// One tenant's settings: the v2 admin API's `Tenant` resource, kept as the JSON the API reads and
/// writes (`tenantId` and `name` included), because a masked update may set any of its fields.
/// Only the sign-in switches and `mfaConfig` change what the tenant's endpoints do (`features`).
struct TenantConfig: Sendable, Equatable {
    typealias Resource = JSONObject

    let tenantId: String
    private(set) var resource: Resource

    init(tenantId: String, projectId: String, resource: Resource) {
        self.tenantId = tenantId
        var resource = resource
        resource["tenantId"] = .string(tenantId)
        resource["name"] = .string("projects/\(projectId)/tenants/\(tenantId)")
        self.resource = resource
    }

    /// A tenant first named in a request: everything allowed, SMS second factors on. Firebase's
    /// emulator makes tenants this way for convenience; real projects start from `created(from:)`.
    static func enabledOnFirstUse(tenantId: String, projectId: String) -> TenantConfig {
        TenantConfig(tenantId: tenantId, projectId: projectId, resource: JSONObject([
            ("allowPasswordSignup", .bool(true)), ("disableAuth", .bool(false)),
            ("mfaConfig", .object(JSONObject([
                ("state", .string("ENABLED")), ("enabledProviders", .array([.string(MfaProvider.phoneSms)])),
            ]))),
            ("enableAnonymousUser", .bool(true)), ("enableEmailLinkSignin", .bool(true)),
        ]))
    }

    /// The settings of a tenant created (or fully replaced) with `request`: what it leaves out is
    /// off, as in production; other fields of the request are not kept.
    static func resource(from request: JSONObject, displayName: Bool = true) -> Resource {
        var resource = Resource()
        if displayName, let name = request["displayName"] { resource["displayName"] = name }
        for flag in ["allowPasswordSignup", "enableEmailLinkSignin", "enableAnonymousUser", "disableAuth"] {
            resource[flag] = .bool(request[flag]?.boolValue ?? false)
        }
        var mfaConfig = request["mfaConfig"]?.objectValue ?? JSONObject()
        if !mfaConfig.contains("state") { mfaConfig["state"] = .string("DISABLED") }
        if !mfaConfig.contains("enabledProviders") { mfaConfig["enabledProviders"] = .array([]) }
        resource["mfaConfig"] = .object(mfaConfig)
        return resource
    }

    /// PATCH: without a mask the whole tenant is replaced (production's defaults for what is left
    /// out); with one, only the masked fields present in `update` change (`FieldMask`).
    mutating func update(with update: JSONObject, mask: String?) {
        guard let mask, !mask.isEmpty else {
            var replaced = Self.resource(from: update)
            replaced["tenantId"] = resource["tenantId"]
            replaced["name"] = resource["name"]
            resource = replaced
            return
        }
        FieldMask(mask).apply(update, to: &resource)
    }

    var features: ProjectFeatures {
        let mfa = resource["mfaConfig"]?.objectValue
        let state = mfa?["state"]?.stringValue
        let providers = mfa?["enabledProviders"]?.arrayValue ?? []
        return ProjectFeatures(
            isEnabled: resource["disableAuth"]?.boolValue != true,
            allowsPasswordSignUp: resource["allowPasswordSignup"]?.boolValue == true,
            allowsEmailLinkSignIn: resource["enableEmailLinkSignin"]?.boolValue == true,
            allowsAnonymousUsers: resource["enableAnonymousUser"]?.boolValue == true,
            secondFactorsEnabled: state == "ENABLED" || state == "MANDATORY",
            smsSecondFactorsEnabled: (state == "ENABLED" || state == "MANDATORY")
                && providers.contains(.string(MfaProvider.phoneSms)))
    }
}

enum MfaProvider {
    static let phoneSms = "PHONE_SMS"
}

/// What a project or tenant allows. A project allows everything (Firebase's emulator has no
/// switches for it); a tenant follows its settings.
struct ProjectFeatures: Sendable, Equatable {
    /// `disableAuth` off: otherwise most endpoints answer PROJECT_DISABLED.
    var isEnabled = true
    var allowsPasswordSignUp = true
    var allowsEmailLinkSignIn = true
    var allowsAnonymousUsers = true
    /// `mfaConfig` ENABLED (or MANDATORY): an account's second factors are asked for at sign-in.
    var secondFactorsEnabled = true
    /// That and PHONE_SMS among the providers: the v2 MFA endpoints work.
    var smsSecondFactorsEnabled = true

    static let project = ProjectFeatures()

    func requireEnabled() throws(ApiError) {
        try require(isEnabled, "PROJECT_DISABLED")
    }

    func requireSmsSecondFactors() throws(ApiError) {
        try require(smsSecondFactorsEnabled, "OPERATION_NOT_ALLOWED : SMS based MFA not enabled.")
    }
}
