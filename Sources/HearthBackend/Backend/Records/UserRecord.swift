import HearthWire

/// One account as `accounts:lookup` describes it.
package struct UserRecord: Sendable, Equatable {
    package var localId: String
    package var email: String?
    package var emailVerified: Bool
    package var displayName: String?
    package var photoUrl: String?
    package var phoneNumber: String?
    /// A non-empty `passwordHash` was sent: the account has a password. The hash itself is not kept:
    /// the emulator's fake hash contains the plain password.
    package var hasPassword: Bool
    package var providerUserInfo: [ProviderUserInfo]
    /// Milliseconds since the epoch.
    package var createdAt: UInt64?
    /// Milliseconds since the epoch.
    package var lastLoginAt: UInt64?
    package var mfaInfo: [MultiFactorInfoRecord]
    package var disabled: Bool
    /// The custom claims as the JSON text the server sends.
    var customAttributes: String?
    package var tenantId: String?

    package init(localId: String, email: String? = nil, emailVerified: Bool = false, displayName: String? = nil,
                photoUrl: String? = nil, phoneNumber: String? = nil, hasPassword: Bool = false,
                providerUserInfo: [ProviderUserInfo] = [], createdAt: UInt64? = nil, lastLoginAt: UInt64? = nil,
                mfaInfo: [MultiFactorInfoRecord] = [], disabled: Bool = false, customAttributes: String? = nil,
                tenantId: String? = nil) {
        self.localId = localId
        self.email = email
        self.emailVerified = emailVerified
        self.displayName = displayName
        self.photoUrl = photoUrl
        self.phoneNumber = phoneNumber
        self.hasPassword = hasPassword
        self.providerUserInfo = providerUserInfo
        self.createdAt = createdAt
        self.lastLoginAt = lastLoginAt
        self.mfaInfo = mfaInfo
        self.disabled = disabled
        self.customAttributes = customAttributes
        self.tenantId = tenantId
    }

    /// Reads one `users[]` element; localId is required.
    package init(decoding object: JSONObject) throws(AuthError) {
        try self.init(Members(object))
    }

    init(_ members: Members) throws(AuthError) {
        guard let localId = members.localId?.nonEmptyStringValue else { throw .malformedResponse("missing localId") }
        self.init(localId: localId,
                  email: members.email?.stringValue,
                  emailVerified: members.emailVerified?.flexibleBoolValue ?? false,
                  displayName: members.displayName?.stringValue,
                  photoUrl: members.photoUrl?.stringValue,
                  phoneNumber: members.phoneNumber?.stringValue,
                  hasPassword: members.passwordHash?.nonEmptyStringValue != nil,
                  providerUserInfo: members.providerUserInfo.compactMap(ProviderUserInfo.init),
                  createdAt: members.createdAt?.uint64Value,
                  lastLoginAt: members.lastLoginAt?.uint64Value,
                  mfaInfo: members.mfaInfo.compactMap(MultiFactorInfoRecord.init),
                  disabled: members.disabled?.flexibleBoolValue ?? false,
                  customAttributes: members.customAttributes?.stringValue,
                  tenantId: members.tenantId?.nonEmptyStringValue)
    }

    /// The members a user is read from (the rest, `salt`, `validSince`, ..., are skipped).
    struct Members: JSONMembers {
        var localId, email, emailVerified, displayName, photoUrl, phoneNumber, passwordHash, createdAt, lastLoginAt,
            disabled, customAttributes, tenantId: JSONValue?
        var providerUserInfo: [ProviderUserInfo.Members] = []
        var mfaInfo: [MultiFactorInfoRecord.Members] = []

        mutating func read<Source: JSONMemberSource>(_ key: JSONKey, _ source: inout Source) throws(JSONParseError) {
            switch key {
            case "localId": localId = try source.value()
            case "email": email = try source.value()
            case "emailVerified": emailVerified = try source.value()
            case "displayName": displayName = try source.value()
            case "photoUrl": photoUrl = try source.value()
            case "phoneNumber": phoneNumber = try source.value()
            case "passwordHash": passwordHash = try source.value()
            case "providerUserInfo": providerUserInfo = try source.objects(ProviderUserInfo.Members.self)
            case "createdAt": createdAt = try source.value()
            case "lastLoginAt": lastLoginAt = try source.value()
            case "mfaInfo": mfaInfo = try source.objects(MultiFactorInfoRecord.Members.self)
            case "disabled": disabled = try source.value()
            case "customAttributes": customAttributes = try source.value()
            case "tenantId": tenantId = try source.value()
            default: try source.skip()
            }
        }
    }
}
