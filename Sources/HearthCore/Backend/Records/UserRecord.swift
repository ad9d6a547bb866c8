/// One account as `accounts:lookup` describes it.
public struct UserRecord: Sendable, Equatable {
    public var localId: String
    public var email: String?
    public var emailVerified: Bool
    public var displayName: String?
    public var photoUrl: String?
    public var phoneNumber: String?
    /// A non-empty `passwordHash` was sent: the account has a password. The hash itself is not kept:
    /// the emulator's fake hash contains the plain password.
    public var hasPassword: Bool
    public var providerUserInfo: [ProviderUserInfo]
    /// Milliseconds since the epoch.
    public var createdAt: UInt64?
    /// Milliseconds since the epoch.
    public var lastLoginAt: UInt64?
    public var mfaInfo: [MultiFactorInfoRecord]
    public var disabled: Bool
    /// The custom claims as the JSON text the server sends.
    public var customAttributes: String?
    public var tenantId: String?

    public init(localId: String, email: String? = nil, emailVerified: Bool = false, displayName: String? = nil,
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
    public init(decoding object: JSONObject) throws(AuthError) {
        let reader = ResponseReader(object)
        self.init(localId: try reader.requiredString("localId"),
                  email: reader.string("email"),
                  emailVerified: reader.bool("emailVerified") ?? false,
                  displayName: reader.string("displayName"),
                  photoUrl: reader.string("photoUrl"),
                  phoneNumber: reader.string("phoneNumber"),
                  hasPassword: reader.nonEmptyString("passwordHash") != nil,
                  providerUserInfo: ProviderUserInfo.list(reader.objects("providerUserInfo")),
                  createdAt: reader.uint64("createdAt"),
                  lastLoginAt: reader.uint64("lastLoginAt"),
                  mfaInfo: MultiFactorInfoRecord.list(object["mfaInfo"]?.arrayValue ?? []),
                  disabled: reader.bool("disabled") ?? false,
                  customAttributes: reader.string("customAttributes"),
                  tenantId: reader.nonEmptyString("tenantId"))
    }
}
