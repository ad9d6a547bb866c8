import HearthTransport
import HearthWire

/// `securetoken.googleapis.com/v1/token`: exchanges a refresh token for a fresh ID token. Sent as a
/// form body, as JS does (the service also takes JSON).
package struct SecureTokenRefresh: BackendRPC {
    package var refreshToken: String

    package init(refreshToken: String) {
        self.refreshToken = refreshToken
    }

    package var endpoint: Endpoint { .secureToken }
    package var contentType: String { "application/x-www-form-urlencoded" }

    package func encodeBody() -> [UInt8] {
        FormEncoding.bytes([("grant_type", "refresh_token"), ("refresh_token", refreshToken)])
    }

    package func decode(_ object: JSONObject) throws(AuthError) -> Response {
        try Response(decoding: object)
    }

    package func decode(plainSuccess body: [UInt8]) -> Result<Response, AuthError>? {
        PlainSuccess.decode(body) { (members: Response.Members) throws(AuthError) in try Response(members) }
    }

    package struct Response: Sendable, Equatable, Redacted {
        /// The new ID token: `access_token`, as Firebase's SDKs read it, else `id_token` (the service sends
        /// the same JWT in both).
        package var idToken: String
        /// The same as `idToken`.
        package var accessToken: String
        /// The refresh token to keep from now on; nil when the server did not send one (keep the old one).
        package var refreshToken: String?
        /// Seconds the new ID token stays valid; nil when unknown (treat as expired).
        package var expiresIn: Int64?
        var userId: String?
        package var projectId: String?

        package init(decoding object: JSONObject) throws(AuthError) {
            try self.init(Members(object))
        }

        init(_ members: Members) throws(AuthError) {
            guard let token = members.accessToken?.nonEmptyStringValue ?? members.idToken?.nonEmptyStringValue else {
                throw .malformedResponse("missing access_token")
            }
            idToken = token
            accessToken = token
            refreshToken = members.refreshToken?.nonEmptyStringValue
            expiresIn = TokenLifetime.seconds(expiresIn: members.expiresIn, idToken: token)
            userId = members.userId?.nonEmptyStringValue
            projectId = members.projectId?.nonEmptyStringValue
        }

        struct Members: JSONMembers {
            var idToken, accessToken, refreshToken, expiresIn, userId, projectId: JSONValue?

            mutating func read<Source: JSONMemberSource>(_ key: JSONKey, _ source: inout Source)
                throws(JSONParseError)
            {
                switch key {
                case "access_token": accessToken = try source.value()
                // Only a fallback: Google sends access_token first, and the same JWT again here, which is then
                // checked but not made into a second string.
                case "id_token":
                    if accessToken?.nonEmptyStringValue == nil { idToken = try source.value() } else { try source.skip() }
                case "refresh_token": refreshToken = try source.value()
                case "expires_in": expiresIn = try source.value()
                case "user_id": userId = try source.value()
                case "project_id": projectId = try source.value()
                default: try source.skip()
                }
            }
        }

        package var redactedSummary: String { "userId: \(userId ?? "nil"), expiresIn: \(expiresIn.map(String.init) ?? "nil")" }
    }
}
