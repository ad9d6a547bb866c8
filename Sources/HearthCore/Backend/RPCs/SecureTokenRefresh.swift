/// `securetoken.googleapis.com/v1/token`: exchanges a refresh token for a fresh ID token. Sent as a
/// form body, as JS does (the service also takes JSON).
public struct SecureTokenRefresh: BackendRPC {
    public var refreshToken: String

    public init(refreshToken: String) {
        self.refreshToken = refreshToken
    }

    public var endpoint: Endpoint { .secureToken }
    public var contentType: String { "application/x-www-form-urlencoded" }

    public func encodeBody() -> [UInt8] {
        Array(FormEncoding.encode([("grant_type", "refresh_token"), ("refresh_token", refreshToken)]).utf8)
    }

    public func decode(_ object: JSONObject) throws(AuthError) -> Response {
        try Response(decoding: object)
    }

    public struct Response: Sendable, Equatable, Redacted {
        /// The new ID token (`id_token`, else `access_token`: the service sends the same JWT in both).
        public var idToken: String
        /// `access_token`, else `id_token`.
        public var accessToken: String
        /// The refresh token to keep from now on; nil when the server did not send one (keep the old one).
        public var refreshToken: String?
        /// Seconds the new ID token stays valid; nil when unknown (treat as expired).
        public var expiresIn: Int64?
        public var userId: String?
        public var projectId: String?

        public init(decoding object: JSONObject) throws(AuthError) {
            let reader = ResponseReader(object)
            guard let token = reader.nonEmptyString("id_token") ?? reader.nonEmptyString("access_token") else {
                throw .malformedResponse("missing access_token")
            }
            idToken = token
            accessToken = reader.nonEmptyString("access_token") ?? token
            refreshToken = reader.nonEmptyString("refresh_token")
            expiresIn = TokenLifetime.seconds(expiresIn: object["expires_in"], idToken: token)
            userId = reader.nonEmptyString("user_id")
            projectId = reader.nonEmptyString("project_id")
        }

        var redactedSummary: String { "userId: \(userId ?? "nil"), expiresIn: \(expiresIn.map(String.init) ?? "nil")" }
    }
}
