import HearthWire

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
    /// Passkeys enrolled with passkeyEnrollment:finalize, in enrollment order.
    var passkeyInfo: [PasskeyInfo]?

    init(localId: String) {
        self.localId = localId
    }

    var isDisabled: Bool { disabled == true }

    /// A first-factor sign-in of this account must be completed with one of these.
    var secondFactors: [MfaEnrollment] { mfaInfo ?? [] }
}

/// An enrolled passkey (`passkeyInfo[]` entry). The emulator checks no WebAuthn cryptography: the
/// credential id alone names the passkey.
struct PasskeyInfo: Codable, Sendable, Equatable {
    var credentialId: String
    var name: String?
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

extension UserRecord: DirectJSON {
    /// Every lookup answers with the account: written member by member.
    func writeJSON(into out: inout [UInt8]) {
        JSONObjectWriter.write(into: &out) { object, out in
            object.string("createdAt", createdAt, into: &out)
            object.string("customAttributes", customAttributes, into: &out)
            object.bool("customAuth", customAuth, into: &out)
            object.bool("disabled", disabled, into: &out)
            object.string("displayName", displayName, into: &out)
            object.string("email", email, into: &out)
            object.bool("emailLinkSignin", emailLinkSignin, into: &out)
            object.bool("emailVerified", emailVerified, into: &out)
            object.string("initialEmail", initialEmail, into: &out)
            object.string("lastLoginAt", lastLoginAt, into: &out)
            object.string("lastRefreshAt", lastRefreshAt, into: &out)
            object.string("localId", localId, into: &out)
            object.encoded("mfaInfo", mfaInfo, into: &out)
            object.array("passkeyInfo", passkeyInfo, into: &out)
            object.string("passwordHash", passwordHash, into: &out)
            object.integer("passwordUpdatedAt", passwordUpdatedAt, into: &out)
            object.string("phoneNumber", phoneNumber, into: &out)
            object.string("photoUrl", photoUrl, into: &out)
            object.array("providerUserInfo", providerUserInfo, into: &out)
            object.string("salt", salt, into: &out)
            object.string("screenName", screenName, into: &out)
            object.string("tenantId", tenantId, into: &out)
            object.string("validSince", validSince, into: &out)
        }
    }
}

extension PasskeyInfo: DirectJSON {
    func writeJSON(into out: inout [UInt8]) {
        JSONObjectWriter.write(into: &out) { object, out in
            object.string("credentialId", credentialId, into: &out)
            object.string("name", name, into: &out)
        }
    }
}

extension ProviderUserInfo: DirectJSON {
    func writeJSON(into out: inout [UInt8]) {
        JSONObjectWriter.write(into: &out) { object, out in
            object.string("displayName", displayName, into: &out)
            object.string("email", email, into: &out)
            object.string("federatedId", federatedId, into: &out)
            object.string("phoneNumber", phoneNumber, into: &out)
            object.string("photoUrl", photoUrl, into: &out)
            object.string("providerId", providerId, into: &out)
            object.string("rawId", rawId, into: &out)
            object.string("screenName", screenName, into: &out)
        }
    }
}
