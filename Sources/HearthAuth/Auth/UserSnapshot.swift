import HearthBackend

/// One provider linked to a user, as hosts see it.
public struct UserInfoSnapshot: Sendable, Equatable {
    /// The provider's own id for the user (`rawId`).
    public var uid: String
    public var providerId: String
    public var email: String
    public var displayName: String
    public var photoURL: String
    public var phoneNumber: String

    public init(uid: String, providerId: String, email: String = "", displayName: String = "",
                photoURL: String = "", phoneNumber: String = "") {
        self.uid = uid
        self.providerId = providerId
        self.email = email
        self.displayName = displayName
        self.photoURL = photoURL
        self.phoneNumber = phoneNumber
    }

    /// One `providerUserInfo[]` entry of an account; absent fields are empty, as the C++ SDK gives them.
    init(_ info: ProviderUserInfo) {
        self.init(uid: info.uid ?? "", providerId: info.providerId, email: info.email ?? "",
                  displayName: info.displayName ?? "", photoURL: info.photoUrl ?? "", phoneNumber: info.phoneNumber ?? "")
    }
}

/// The profile of a user at one moment. Immutable, so hosts may read it on any thread.
public struct UserProfile: Sendable, Equatable {
    public var uid: String
    public var email: String = ""
    public var displayName: String = ""
    public var photoURL: String = ""
    public var phoneNumber: String = ""
    public var isAnonymous: Bool = false
    public var isEmailVerified: Bool = false
    public var creationTimestamp: UInt64 = 0
    public var lastSignInTimestamp: UInt64 = 0
    public var providerData: [UserInfoSnapshot] = []
    public var multiFactor: [MultiFactorInfoSnapshot] = []
    /// The Identity Platform tenant the user belongs to (Firebase's `User.tenantId`); nil for the
    /// project's own users.
    public var tenantId: String?

    public init(uid: String) { self.uid = uid }
}

/// One enrolled second factor (or a sign-in hint), as hosts see it.
public struct MultiFactorInfoSnapshot: Sendable, Equatable {
    /// "phone" or "totp".
    public var factorId: String
    /// The enrollment id.
    public var uid: String
    public var displayName: String
    /// Masked in sign-in hints.
    public var phoneNumber: String
    /// Milliseconds since the epoch; 0 when unknown.
    public var enrollmentTimestamp: UInt64

    public init(factorId: String, uid: String, displayName: String, phoneNumber: String, enrollmentTimestamp: UInt64) {
        self.factorId = factorId
        self.uid = uid
        self.displayName = displayName
        self.phoneNumber = phoneNumber
        self.enrollmentTimestamp = enrollmentTimestamp
    }

    public init(_ hint: MultiFactorHint) {
        factorId = hint.factorId.rawValue
        uid = hint.enrollmentId
        displayName = hint.displayName ?? ""
        phoneNumber = hint.phoneNumber ?? ""
        enrollmentTimestamp = UInt64(max(0, hint.enrollmentTimeMs ?? 0))
    }
}

/// A host-visible user: a profile snapshot plus the Auth it belongs to, so that operations on it can
/// find the signed-in user with the same uid.
public final class UserSnapshot: Sendable {
    public let profile: UserProfile
    public let auth: Auth

    init(profile: UserProfile, auth: Auth) {
        self.profile = profile
        self.auth = auth
    }

    public var uid: String { profile.uid }
    /// The C++ SDK reports "Firebase" for the user itself.
    public var providerId: String { "Firebase" }
}

/// What a sign-in learned beyond the user.
public struct AdditionalUserInfo: Sendable, Equatable {
    public var providerId: String
    public var userName: String
    /// The IdP profile (rawUserInfo) as JSON object text; "{}" when none.
    public var profileJSON: String
    public var isNewUser: Bool

    public init(providerId: String, userName: String = "", profileJSON: String = "{}", isNewUser: Bool) {
        self.providerId = providerId
        self.userName = userName
        self.profileJSON = profileJSON
        self.isNewUser = isNewUser
    }
}

/// The result of a sign-in, link or reauthentication — or, for a failed one whose server answer names
/// another account (credential already in use, email exists, account exists with a different
/// credential), what the host needs to sign in to that account instead: `user` is then nil and
/// `updatedCredential` is set.
public final class AuthResultSnapshot: Sendable {
    public let user: UserSnapshot?
    public let additionalUserInfo: AdditionalUserInfo
    /// The identity provider's own credential the server returned (access token, ID token, secret).
    public let credential: Credential?
    /// A credential that signs in to the account that already owns the identity (conflicts only).
    public let updatedCredential: Credential?
    /// The email the server reported with a conflict.
    public let email: String?

    init(user: UserSnapshot?, additionalUserInfo: AdditionalUserInfo, credential: Credential? = nil,
         updatedCredential: Credential? = nil, email: String? = nil) {
        self.user = user
        self.additionalUserInfo = additionalUserInfo
        self.credential = credential
        self.updatedCredential = updatedCredential
        self.email = email
    }

    /// The conflict details of a failed operation, if its server answer carried any.
    public static func conflict(from error: AuthError) -> AuthResultSnapshot? {
        switch error.code {
        case .credentialAlreadyInUse, .emailAlreadyInUse, .accountExistsWithDifferentCredentials: break
        default: return nil
        }
        if let phone = PhoneCredentialValue(updatedCredentialFrom: error) {
            return AuthResultSnapshot(user: nil, additionalUserInfo: AdditionalUserInfo(providerId: ProviderID.phone,
                                                                                        isNewUser: false),
                                      updatedCredential: .phone(phone))
        }
        guard let updated = UpdatedCredential(error: error), updated.credential != nil || updated.email != nil
        else { return nil }
        var providerId = ""
        if case .object(let body)? = error.body { providerId = body["providerId"]?.stringValue ?? "" }
        return AuthResultSnapshot(user: nil, additionalUserInfo: AdditionalUserInfo(providerId: providerId, isNewUser: false),
                                  updatedCredential: updated.credential.map(Credential.federated), email: updated.email)
    }
}
