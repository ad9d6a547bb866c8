import HearthWire

/// `accounts:signInWithCustomToken`. The answer has no localId; `TokenResponse` takes the uid from the
/// ID token.
public struct SignInWithCustomToken: TenantScopedRPC {
    public var token: String
    public var tenantId: String?

    public init(token: String, tenantId: String? = nil) {
        self.token = token
        self.tenantId = tenantId
    }

    public var endpoint: Endpoint { .identityToolkitV1("accounts:signInWithCustomToken") }
    public var successShapedErrors: SuccessShapedErrors { .signIn }

    public func encodeBody() -> [UInt8] {
        var body: JSONObject = ["token": .string(token), "returnSecureToken": true]
        body.setIfPresent("tenantId", tenantId)
        return JSONValue.object(body).serialized()
    }

    public func decode(_ object: JSONObject) throws(AuthError) -> TokenResponse {
        try TokenResponse(decoding: object)
    }

    public func decode(plainSuccess body: [UInt8]) -> Result<TokenResponse, AuthError>? {
        PlainSuccess.decode(body) { (members: TokenResponse.Members) throws(AuthError) in try TokenResponse(members) }
    }
}
