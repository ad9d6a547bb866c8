import HearthWire

/// The reference's `mfaPendingCredential`: standard base64 of
/// `{"_AuthEmulatorMfaPendingCredential":"DO NOT MODIFY","localId","signInProvider","projectId"[,"tenantId"]}`.
/// It names the account and the first factor that signed in; nothing is stored server-side and,
/// as in the reference, it does not expire.
struct MfaPendingCredential: Sendable, Equatable {
    static let marker = "_AuthEmulatorMfaPendingCredential"

    var localId: String
    var signInProvider: String
    var projectId: String
    var tenantId: String?

    func encoded() -> String {
        var record = JSONObject([
            (Self.marker, .string("DO NOT MODIFY")), ("localId", .string(localId)),
            ("signInProvider", .string(signInProvider)), ("projectId", .string(projectId)),
        ])
        if let tenantId { record["tenantId"] = .string(tenantId) }
        return Base64.standardEncoded(JSONCoding.encode(JSONValue.object(record)))
    }

    /// The account the credential is for. INVALID_MFA_PENDING_CREDENTIAL when it does not decode or
    /// its account is gone; INVALID_PROJECT_ID when it belongs to another project or tenant.
    static func account(of text: String, in project: ProjectState) throws(ApiError) -> (user: UserRecord, signInProvider: String) {
        guard let bytes = Base64.decodeCarriedToken(text),
              let record = (try? JSONValue.parse(bytes))?.objectValue,
              let marker = record[marker], marker != .null,
              let localId = record["localId"]?.stringValue,
              let signInProvider = record["signInProvider"]?.stringValue,
              let projectId = record["projectId"]?.stringValue
        else { throw .badRequest("INVALID_MFA_PENDING_CREDENTIAL") }
        try require(projectId == project.projectId, "INVALID_PROJECT_ID : Project ID does not match MFA pending credential.")
        if let tenantId = project.tenantId {
            try require(record["tenantId"]?.stringValue == tenantId,
                        "INVALID_PROJECT_ID : Project ID does not match MFA pending credential.")
        }
        let user = try required(
            project.user(localId: localId),
            "INVALID_MFA_PENDING_CREDENTIAL : ((The account of this pending credential no longer exists.))")
        return (user, signInProvider)
    }
}

/// What a first-factor sign-in of an account with second factors answers instead of tokens (a 200,
/// not an error): `mfaPendingCredential` and the factors as hints, phone numbers masked. The SDKs
/// turn it into "second factor required" with a resolver.
struct SecondFactorChallenge: Sendable, Equatable {
    var mfaPendingCredential: String
    var mfaInfo: [MfaHint]

    /// nil when the sign-in completes with tokens: the account has no second factor, or the tenant
    /// has second factors turned off (`mfaConfig.state`), which the reference then skips.
    init?(for user: UserRecord, signInProvider: String, in project: borrowing ProjectState) {
        guard !user.secondFactors.isEmpty, project.features.secondFactorsEnabled else { return nil }
        mfaPendingCredential = MfaPendingCredential(
            localId: user.localId, signInProvider: signInProvider, projectId: project.projectId,
            tenantId: project.tenantId
        ).encoded()
        mfaInfo = user.secondFactors.map(\.hint)
    }
}
