/// The token-bearing answer of the sign-in and sign-up RPCs.
public struct TokenResponse: Sendable, Equatable, Redacted {
    public var idToken: String
    public var refreshToken: String
    /// Seconds the ID token stays valid from receipt; nil when unknown (treat as expired).
    public var expiresIn: Int64?
    /// The uid: `localId`, else the ID token's `user_id`/`sub` (signInWithCustomToken sends no localId).
    public var localId: String?
    public var email: String?
    public var displayName: String?
    /// `photoUrl`, else `profilePicture`.
    public var photoUrl: String?
    /// `isNewUser`; a `kind` of "identitytoolkit#SignupNewUserResponse" also means new (as JS reads it).
    public var isNewUser: Bool
    /// `registered` (signInWithPassword).
    public var registered: Bool?
    public var kind: String?

    public init(idToken: String, refreshToken: String, expiresIn: Int64?, localId: String?, email: String? = nil,
                displayName: String? = nil, photoUrl: String? = nil, isNewUser: Bool = false,
                registered: Bool? = nil, kind: String? = nil) {
        self.idToken = idToken
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
        self.localId = localId
        self.email = email
        self.displayName = displayName
        self.photoUrl = photoUrl
        self.isNewUser = isNewUser
        self.registered = registered
        self.kind = kind
    }

    /// Reads the response; idToken and refreshToken are required.
    public init(decoding object: JSONObject) throws(AuthError) {
        let reader = ResponseReader(object)
        idToken = try reader.requiredString("idToken")
        refreshToken = try reader.requiredString("refreshToken")
        expiresIn = TokenLifetime.seconds(expiresIn: object["expiresIn"], idToken: idToken)
        localId = reader.nonEmptyString("localId") ?? (try? JWTClaims(token: idToken))?.userID
        email = reader.string("email")
        displayName = reader.string("displayName")
        photoUrl = reader.string("photoUrl") ?? reader.string("profilePicture")
        kind = reader.string("kind")
        isNewUser = reader.bool("isNewUser") ?? (kind == "identitytoolkit#SignupNewUserResponse")
        registered = reader.bool("registered")
    }

    var redactedSummary: String { "localId: \(localId ?? "nil"), expiresIn: \(expiresIn.map(String.init) ?? "nil")" }
}
