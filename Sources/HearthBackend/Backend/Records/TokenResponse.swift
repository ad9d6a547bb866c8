import HearthTransport
import HearthWire

/// The token-bearing answer of the sign-in and sign-up RPCs.
package struct TokenResponse: Sendable, Equatable, Redacted {
    package var idToken: String
    package var refreshToken: String
    /// Seconds the ID token stays valid from receipt; nil when unknown (treat as expired).
    package var expiresIn: Int64?
    /// The uid: `localId`, else the ID token's `user_id`/`sub` (signInWithCustomToken sends no localId).
    package var localId: String?
    package var email: String?
    package var displayName: String?
    /// `photoUrl`, else `profilePicture`.
    package var photoUrl: String?
    /// `isNewUser`; a `kind` of "identitytoolkit#SignupNewUserResponse" also means new (as JS reads it).
    package var isNewUser: Bool
    /// `registered` (signInWithPassword).
    package var registered: Bool?
    package var kind: String?

    package init(idToken: String, refreshToken: String, expiresIn: Int64?, localId: String?, email: String? = nil,
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
    package init(decoding object: JSONObject) throws(AuthError) {
        try self.init(Members(object))
    }

    init(_ members: Members) throws(AuthError) {
        guard let idToken = members.idToken?.nonEmptyStringValue else { throw .malformedResponse("missing idToken") }
        guard let refreshToken = members.refreshToken?.nonEmptyStringValue else {
            throw .malformedResponse("missing refreshToken")
        }
        self.idToken = idToken
        self.refreshToken = refreshToken
        expiresIn = TokenLifetime.seconds(expiresIn: members.expiresIn, idToken: idToken)
        localId = members.localId?.nonEmptyStringValue ?? (try? JWTClaims(token: idToken))?.userID
        email = members.email?.stringValue
        displayName = members.displayName?.stringValue
        photoUrl = members.photoUrl?.stringValue ?? members.profilePicture?.stringValue
        kind = members.kind?.stringValue
        isNewUser = members.isNewUser?.flexibleBoolValue ?? (kind == "identitytoolkit#SignupNewUserResponse")
        registered = members.registered?.flexibleBoolValue
    }

    /// The members this answer is read from (the rest are skipped).
    struct Members: JSONMembers {
        var idToken, refreshToken, expiresIn, localId, email, displayName, photoUrl, profilePicture, kind,
            isNewUser, registered: JSONValue?

        mutating func read<Source: JSONMemberSource>(_ key: JSONKey, _ source: inout Source) throws(JSONParseError) {
            switch key {
            case "idToken": idToken = try source.value()
            case "refreshToken": refreshToken = try source.value()
            case "expiresIn": expiresIn = try source.value()
            case "localId": localId = try source.value()
            case "email": email = try source.value()
            case "displayName": displayName = try source.value()
            case "photoUrl": photoUrl = try source.value()
            case "profilePicture": profilePicture = try source.value()
            case "kind": kind = try source.value()
            case "isNewUser": isNewUser = try source.value()
            case "registered": registered = try source.value()
            default: try source.skip()
            }
        }
    }

    package var redactedSummary: String { "localId: \(localId ?? "nil"), expiresIn: \(expiresIn.map(String.init) ?? "nil")" }
}
