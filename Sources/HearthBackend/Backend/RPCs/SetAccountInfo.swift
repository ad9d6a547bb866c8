import HearthTransport
import HearthWire

/// Attributes `accounts:update` can delete (`deleteAttribute[]`).
package enum UserAttribute: String, Sendable, CaseIterable {
    case displayName = "DISPLAY_NAME"
    case photoUrl = "PHOTO_URL"
    case email = "EMAIL"
    case password = "PASSWORD"
}

/// `accounts:update` for the signed-in user: profile, email, password, deleting attributes, unlinking
/// providers. Changing the email or password re-issues tokens (the old ones stop working).
package struct SetAccountInfo: BackendRPC {
    package var idToken: String
    package var displayName: String?
    package var photoUrl: String?
    package var email: String?
    package var password: String?
    package var deleteAttributes: [UserAttribute]
    /// Provider ids to unlink.
    package var deleteProviders: [String]

    package init(idToken: String, displayName: String? = nil, photoUrl: String? = nil, email: String? = nil,
                password: String? = nil, deleteAttributes: [UserAttribute] = [], deleteProviders: [String] = []) {
        self.idToken = idToken
        self.displayName = displayName
        self.photoUrl = photoUrl
        self.email = email
        self.password = password
        self.deleteAttributes = deleteAttributes
        self.deleteProviders = deleteProviders
    }

    package var endpoint: Endpoint { .identityToolkitV1("accounts:update") }

    package func encodeBody() -> [UInt8] {
        var body: JSONObject = ["idToken": .string(idToken), "returnSecureToken": true]
        body.setIfPresent("displayName", displayName)
        body.setIfPresent("photoUrl", photoUrl)
        body.setIfPresent("email", email)
        body.setIfPresent("password", password)
        body.setIfNotEmpty("deleteAttribute", deleteAttributes.map(\.rawValue))
        body.setIfNotEmpty("deleteProvider", deleteProviders)
        return JSONValue.object(body).serialized()
    }

    package func decode(_ object: JSONObject) throws(AuthError) -> Response {
        try Response(decoding: object)
    }

    /// The account after the update, and new tokens when the server issued them.
    package struct Response: Sendable, Equatable, Redacted {
        package var localId: String?
        package var email: String?
        package var emailVerified: Bool?
        package var displayName: String?
        package var photoUrl: String?
        /// A non-empty `passwordHash` was sent (the hash itself is not kept).
        package var hasPassword: Bool
        /// The providers still linked.
        package var providerUserInfo: [ProviderUserInfo]
        /// Set together with `refreshToken` when the server re-issued tokens.
        package var idToken: String?
        package var refreshToken: String?
        /// Seconds the new ID token stays valid; nil without new tokens or when unknown.
        package var expiresIn: Int64?

        package init(decoding object: JSONObject) throws(AuthError) {
            let reader = ResponseReader(object)
            localId = reader.nonEmptyString("localId")
            email = reader.string("email")
            emailVerified = reader.bool("emailVerified")
            displayName = reader.string("displayName")
            photoUrl = reader.string("photoUrl")
            hasPassword = reader.nonEmptyString("passwordHash") != nil
            providerUserInfo = ProviderUserInfo.list(reader.objects("providerUserInfo"))
            let idToken = reader.nonEmptyString("idToken")
            let refreshToken = reader.nonEmptyString("refreshToken")
            // Half a token pair cannot replace the session's pair.
            if (idToken == nil) != (refreshToken == nil) {
                throw .malformedResponse(idToken == nil ? "refreshToken without idToken" : "idToken without refreshToken")
            }
            self.idToken = idToken
            self.refreshToken = refreshToken
            expiresIn = idToken.flatMap { TokenLifetime.seconds(expiresIn: object["expiresIn"], idToken: $0) }
        }

        package var redactedSummary: String { "localId: \(localId ?? "nil"), newTokens: \(idToken != nil)" }
    }
}
