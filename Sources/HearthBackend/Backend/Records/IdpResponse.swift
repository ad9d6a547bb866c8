import HearthTransport
import HearthWire

/// What a signInWithIdp answer says about the identity provider's user, read leniently from any 200 body:
/// a success, or one the classifier turned into an error (errorMessage, needConfirmation,
/// mfaPendingCredential), whose object `AuthError.body` keeps. Nothing here is required; the Firebase
/// tokens are `TokenResponse`'s job.
///
/// Holds the IdP's OAuth tokens: prints without them.
package struct IdpResponse: Sendable, Equatable, Redacted {
    /// "google.com", "apple.com", ... (non-empty or nil).
    package var providerId: String?
    /// The user's id at the IdP; a URL on some providers ("https://accounts.google.com/<sub>").
    var federatedId: String?
    /// The Firebase uid (absent from conflict answers).
    package var localId: String?
    package var email: String?
    package var emailVerified: Bool?
    /// An account with this email exists but is linked to a different account of the same IdP.
    var emailRecycled: Bool?
    package var displayName: String?
    package var fullName: String?
    package var firstName: String?
    package var lastName: String?
    package var photoUrl: String?
    /// Twitter's screen name or GitHub's login, as the server reports it.
    var screenName: String?
    /// `username` (older deployments; what iOS reads).
    var username: String?
    /// The IdP's profile: `rawUserInfo`, sent as a JSON-encoded string by v1 and as an object by some
    /// deployments; nil when absent or not a JSON object.
    package var rawUserInfo: JSONObject?
    package var isNewUser: Bool
    package var oauthIdToken: String?
    package var oauthAccessToken: String?
    package var oauthTokenSecret: String?
    /// Stands for the IdP credential in a later signInWithIdp.
    package var pendingToken: String?
    /// The raw nonce the ID token was checked against (JS puts it in the updated credential).
    package var nonce: String?
    var needConfirmation: Bool
    /// With `needConfirmation`: the providers that can sign in to the existing account. Sent as an
    /// array or as a JSON-encoded array.
    var verifiedProvider: [String]
    /// A 200 error text: FEDERATED_USER_ID_ALREADY_LINKED or EMAIL_EXISTS.
    package var errorMessage: String?
    /// Proof of the first factor when the account needs a second one.
    package var mfaPendingCredential: String?
    package var mfaInfo: [MultiFactorInfoRecord]
    package var tenantId: String?

    package init(decoding object: JSONObject) {
        let reader = ResponseReader(object)
        providerId = reader.nonEmptyString("providerId")
        federatedId = reader.nonEmptyString("federatedId")
        localId = reader.nonEmptyString("localId")
        email = reader.nonEmptyString("email")
        emailVerified = reader.bool("emailVerified")
        emailRecycled = reader.bool("emailRecycled")
        displayName = reader.nonEmptyString("displayName")
        fullName = reader.nonEmptyString("fullName")
        firstName = reader.nonEmptyString("firstName")
        lastName = reader.nonEmptyString("lastName")
        photoUrl = reader.nonEmptyString("photoUrl")
        screenName = reader.nonEmptyString("screenName")
        username = reader.nonEmptyString("username")
        rawUserInfo = Self.jsonObject(object["rawUserInfo"])
        isNewUser = reader.bool("isNewUser") ?? false
        oauthIdToken = reader.nonEmptyString("oauthIdToken")
        oauthAccessToken = reader.nonEmptyString("oauthAccessToken")
        oauthTokenSecret = reader.nonEmptyString("oauthTokenSecret")
        pendingToken = reader.nonEmptyString("pendingToken")
        nonce = reader.nonEmptyString("nonce")
        needConfirmation = reader.bool("needConfirmation") ?? false
        verifiedProvider = Self.stringArray(object["verifiedProvider"])
        errorMessage = reader.nonEmptyString("errorMessage")
        mfaPendingCredential = reader.nonEmptyString("mfaPendingCredential")
        mfaInfo = MultiFactorInfoRecord.list(object["mfaInfo"]?.arrayValue ?? [])
        tenantId = reader.nonEmptyString("tenantId")
    }

    /// The C++ SDK's `AdditionalUserInfo::user_name`: GitHub's `login` and Twitter's `screen_name` from
    /// the profile; otherwise (and when the profile lacks them) what the server reports as `screenName`
    /// or `username`.
    package var userName: String? {
        let profileKey: String?
        switch providerId {
        case ProviderID.gitHub: profileKey = "login"
        case ProviderID.twitter: profileKey = "screen_name"
        default: profileKey = nil
        }
        if let profileKey, let name = rawUserInfo?[profileKey]?.nonEmptyStringValue { return name }
        return screenName ?? username
    }

    /// At least one IdP token came back: iOS's condition for building an updated credential.
    package var hasOAuthTokens: Bool {
        oauthIdToken != nil || oauthAccessToken != nil || oauthTokenSecret != nil
    }

    static func jsonObject(_ value: JSONValue?) -> JSONObject? {
        switch value {
        case .object(let object)?:
            return object
        case .string(let text)?:
            guard !text.isEmpty, case .object(let object)? = try? JSONValue.parse(text) else { return nil }
            return object
        default:
            return nil
        }
    }

    static func stringArray(_ value: JSONValue?) -> [String] {
        switch value {
        case .array(let elements)?:
            return elements.compactMap(\.stringValue)
        case .string(let text)?:
            guard !text.isEmpty, case .array(let elements)? = try? JSONValue.parse(text) else { return [] }
            return elements.compactMap(\.stringValue)
        default:
            return []
        }
    }

    package var redactedSummary: String {
        "providerId: \(providerId ?? "nil"), localId: \(localId ?? "nil"), isNewUser: \(isNewUser)"
    }
}
