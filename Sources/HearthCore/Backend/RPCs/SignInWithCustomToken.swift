import HearthWire

/// `accounts:signInWithCustomToken`. The answer has no localId; `TokenResponse` takes the uid from the
/// ID token.
public struct SignInWithCustomToken: BackendRPC {
    public var token: String

    public init(token: String) {
        self.token = token
    }

    public var endpoint: Endpoint { .identityToolkitV1("accounts:signInWithCustomToken") }
    public var successShapedErrors: SuccessShapedErrors { .signIn }

    public func encodeBody() -> [UInt8] {
        let body: JSONValue = ["token": .string(token), "returnSecureToken": true]
        return body.serialized()
    }

    public func decode(_ object: JSONObject) throws(AuthError) -> TokenResponse {
        try TokenResponse(decoding: object)
    }

    public func decode(plainSuccess body: [UInt8]) -> Result<TokenResponse, AuthError>? {
        PlainSuccess.decode(body) { (members: TokenResponse.Members) throws(AuthError) in try TokenResponse(members) }
    }
}
