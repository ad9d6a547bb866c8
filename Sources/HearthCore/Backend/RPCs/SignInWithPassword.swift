/// `accounts:signInWithPassword`.
public struct SignInWithPassword: BackendRPC {
    public var email: String
    public var password: String

    public init(email: String, password: String) {
        self.email = email
        self.password = password
    }

    public var endpoint: Endpoint { .identityToolkitV1("accounts:signInWithPassword") }
    public var successShapedErrors: SuccessShapedErrors { .signIn }

    public func encodeBody() -> [UInt8] {
        let body: JSONValue = ["email": .string(email), "password": .string(password), "returnSecureToken": true]
        return body.serialized()
    }

    public func decode(_ object: JSONObject) throws(AuthError) -> TokenResponse {
        try TokenResponse(decoding: object)
    }
}
