import HearthBackend

/// One provider linked to a user, as hosts see it.
package struct UserInfoSnapshot: Sendable, Equatable {
    /// The provider's own id for the user (`rawId`).
    package var uid: String
    package var providerId: String
    package var email: String
    package var displayName: String
    package var photoURL: String
    package var phoneNumber: String

    package init(uid: String, providerId: String, email: String = "", displayName: String = "",
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
package struct UserProfile: Sendable, Equatable {
    package var uid: String
    package var email: String = ""
    package var displayName: String = ""
    package var photoURL: String = ""
    package var phoneNumber: String = ""
    package var isAnonymous: Bool = false
    package var isEmailVerified: Bool = false
    package var creationTimestamp: UInt64 = 0
    package var lastSignInTimestamp: UInt64 = 0
    package var providerData: [UserInfoSnapshot] = []
    package var multiFactor: [MultiFactorInfoSnapshot] = []
    /// The Identity Platform tenant the user belongs to (Firebase's `User.tenantId`); nil for the
    /// project's own users.
    package var tenantId: String?

    package init(uid: String) { self.uid = uid }
}

/// One enrolled second factor (or a sign-in hint), as hosts see it.
package struct MultiFactorInfoSnapshot: Sendable, Equatable {
    /// "phone" or "totp".
    package var factorId: String
    /// The enrollment id.
    package var uid: String
    package var displayName: String
    /// Masked in sign-in hints.
    package var phoneNumber: String
    /// Milliseconds since the epoch; 0 when unknown.
    package var enrollmentTimestamp: UInt64

    package init(factorId: String, uid: String, displayName: String, phoneNumber: String, enrollmentTimestamp: UInt64) {
        self.factorId = factorId
        self.uid = uid
        self.displayName = displayName
        self.phoneNumber = phoneNumber
        self.enrollmentTimestamp = enrollmentTimestamp
    }

    package init(_ hint: MultiFactorHint) {
        factorId = hint.factorId.rawValue
        uid = hint.enrollmentId
        displayName = hint.displayName ?? ""
        phoneNumber = hint.phoneNumber ?? ""
        enrollmentTimestamp = UInt64(max(0, hint.enrollmentTimeMs ?? 0))
    }
}

/// A host-visible user: a profile snapshot plus the Auth it belongs to, so that operations on it can
/// find the signed-in user with the same uid.
package final class UserSnapshot: Sendable {
    package let profile: UserProfile
    package let auth: Auth

    init(profile: UserProfile, auth: Auth) {
        self.profile = profile
        self.auth = auth
    }

    package var uid: String { profile.uid }
    /// The C++ SDK reports "Firebase" for the user itself.
    package var providerId: String { "Firebase" }
}

/// What a sign-in learned beyond the user.
package struct AdditionalUserInfo: Sendable, Equatable {
    package var providerId: String
    package var userName: String
    /// The IdP profile (rawUserInfo) as JSON object text; "{}" when none.
    package var profileJSON: String
    package var isNewUser: Bool

    package init(providerId: String, userName: String = "", profileJSON: String = "{}", isNewUser: Bool) {
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
package final class AuthResultSnapshot: Sendable {
    package let user: UserSnapshot?
    package let additionalUserInfo: AdditionalUserInfo
    /// The identity provider's own credential the server returned (access token, ID token, secret).
    package let credential: Credential?
    /// A credential that signs in to the account that already owns the identity (conflicts only).
    package let updatedCredential: Credential?
    /// The email the server reported with a conflict.
    package let email: String?

    init(user: UserSnapshot?, additionalUserInfo: AdditionalUserInfo, credential: Credential? = nil,
         updatedCredential: Credential? = nil, email: String? = nil) {
        self.user = user
        self.additionalUserInfo = additionalUserInfo
        self.credential = credential
        self.updatedCredential = updatedCredential
        self.email = email
    }

    /// The conflict details of a failed operation, if its server answer carried any.
    package static func conflict(from error: AuthError) -> AuthResultSnapshot? {
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
