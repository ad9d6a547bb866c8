/// One provider linked to a user, as hosts see it.
public struct UserInfoSnapshot: Sendable, Equatable, Codable {
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
}

/// The profile of a user at one moment. Immutable, so hosts may read it on any thread.
public struct UserProfile: Sendable, Equatable, Codable {
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

    public init(uid: String) { self.uid = uid }
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

public final class AuthResultSnapshot: Sendable {
    public let user: UserSnapshot
    public let additionalUserInfo: AdditionalUserInfo

    init(user: UserSnapshot, additionalUserInfo: AdditionalUserInfo) {
        self.user = user
        self.additionalUserInfo = additionalUserInfo
    }
}
