import HearthWire

/// `accounts:signInWithPassword`.
public struct SignInWithPassword: BackendRPC {
    public var email: String
    public var password: String

    public init(email: String, password: String) {
        self.email = email
        self.password = password
    }

    public var endpoint: Endpoint { Self.signInWithPassword }
    private static let signInWithPassword = Endpoint.identityToolkitV1("accounts:signInWithPassword")
    public var successShapedErrors: SuccessShapedErrors { .signIn }

    public func encodeBody() -> [UInt8] {
        JSONObjectWriter.document(capacity: 64 + email.utf8.count + password.utf8.count) { body, out in
            body.string("email", email, into: &out)
            body.string("password", password, into: &out)
            body.bool("returnSecureToken", true, into: &out)
        }
    }

    public func decode(_ object: JSONObject) throws(AuthError) -> TokenResponse {
        try TokenResponse(decoding: object)
    }

    public func decode(plainSuccess body: [UInt8]) -> Result<TokenResponse, AuthError>? {
        PlainSuccess.decode(body) { (members: TokenResponse.Members) throws(AuthError) in try TokenResponse(members) }
    }
}
