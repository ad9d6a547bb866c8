/// One account, stored with the field names and string encodings of the Identity Toolkit's `UserInfo`,
/// so `accounts:lookup` and `accounts:batchGet` can return it as is.
struct UserRecord: Codable, Sendable, Equatable {
    var localId: String
    var email: String?
    var emailVerified: Bool?
    var displayName: String?
    var photoUrl: String?
    /// The user name an identity provider reported (Twitter's `screen_name`).
    var screenName: String?
    var phoneNumber: String?
    /// The reference's fake hash (`fakeHash:salt=…:password=…`), deliberately not redacted: see `PasswordHash`.
    var passwordHash: String?
    var salt: String?
    /// Milliseconds since the epoch (a JSON number).
    var passwordUpdatedAt: Int64?
    var providerUserInfo: [ProviderUserInfo]?
    /// Second factors, in enrollment order.
    var mfaInfo: [MfaEnrollment]?
    /// Custom claims as a JSON object serialized to a string.
    var customAttributes: String?
    var disabled: Bool?
    /// Milliseconds since the epoch, as a decimal string.
    var createdAt: String?
    var lastLoginAt: String?
    /// RFC 3339 timestamp of the last token issue.
    var lastRefreshAt: String?
    /// Seconds since the epoch, as a decimal string: ID tokens issued before it are revoked.
    var validSince: String?
    var initialEmail: String?
    var emailLinkSignin: Bool?
    var customAuth: Bool?
    var tenantId: String?

    init(localId: String) {
        self.localId = localId
    }

    var isDisabled: Bool { disabled == true }

    /// A first-factor sign-in of this account must be completed with one of these.
    var secondFactors: [MfaEnrollment] { mfaInfo ?? [] }
}

/// A linked identity (`providerUserInfo[]` entry).
struct ProviderUserInfo: Codable, Sendable, Equatable {
    var providerId: String
    var rawId: String
    var federatedId: String?
    var displayName: String?
    var photoUrl: String?
    var email: String?
    var phoneNumber: String?
    var screenName: String?
}

enum ProviderID {
    static let password = "password"
    static let phone = "phone"
    static let anonymous = "anonymous"
    static let custom = "custom"
    /// Apple Game Center.
    static let gameCenter = "gc.apple.com"
    /// Sign-in method (not a provider) reported by createAuthUri for email-link users.
    static let emailLinkSignInMethod = "emailLink"
}
