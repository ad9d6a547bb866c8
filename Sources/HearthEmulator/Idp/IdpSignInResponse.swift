/// The `VerifyAssertionResponse` of signInWithIdp. Absent fields are left out.
struct IdpSignInResponse: Encodable, Sendable {
    let kind = "identitytoolkit#VerifyAssertionResponse"
    let context = ""
    var providerId: String
    var federatedId: String
    var displayName: String?
    var fullName: String?
    var screenName: String?
    var email: String?
    var emailVerified: Bool?
    var photoUrl: String?
    var firstName: String?
    var lastName: String?
    var rawUserInfo: String?
    var oauthIdToken: String?
    var oauthAccessToken: String
    /// Twitter's OAuth 1.0a secret, echoed (hearth-emulator only).
    var oauthTokenSecret: String?
    var localId: String?
    var isNewUser: Bool?
    /// The tenant signed in to.
    var tenantId: String?
    var emailRecycled: Bool?
    var needConfirmation: Bool?
    var verifiedProvider: [String]?
    /// A linking conflict, answered with 200 when the client asked for `returnIdpCredential`.
    var errorMessage: String?
    var idToken: String?
    var refreshToken: String?
    var expiresIn: String?
    /// The account has second factors: the sign-in continues with mfaSignIn instead of tokens.
    var mfaPendingCredential: String?
    var mfaInfo: [MfaHint]?

    init(_ profile: IdpProfile, oauthIdToken: String?, oauthAccessToken: String, oauthTokenSecret: String?) {
        providerId = profile.providerId
        federatedId = profile.federatedId
        displayName = profile.displayName
        fullName = profile.displayName
        screenName = profile.screenName
        email = profile.email
        emailVerified = profile.emailVerified
        photoUrl = profile.photoUrl
        firstName = profile.firstName
        lastName = profile.lastName
        rawUserInfo = profile.rawUserInfo
        self.oauthIdToken = oauthIdToken
        self.oauthAccessToken = oauthAccessToken
        self.oauthTokenSecret = oauthTokenSecret
    }
}
