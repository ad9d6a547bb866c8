import HearthWire

/// `accounts:signInWithPassword`.
public struct SignInWithPassword: TenantScopedRPC {
    public var email: String
    public var password: String
    public var tenantId: String?

    public init(email: String, password: String, tenantId: String? = nil) {
        self.email = email
        self.password = password
        self.tenantId = tenantId
    }

    public var endpoint: Endpoint { Self.signInWithPassword }
    private static let signInWithPassword = Endpoint.identityToolkitV1("accounts:signInWithPassword")
    public var successShapedErrors: SuccessShapedErrors { .signIn }

    public func encodeBody() -> [UInt8] {
        JSONObjectWriter.document(capacity: 64 + email.utf8.count + password.utf8.count + (tenantId?.utf8.count ?? 0)) {
            body, out in
            body.string("email", email, into: &out)
            body.string("password", password, into: &out)
            body.bool("returnSecureToken", true, into: &out)
            body.string("tenantId", tenantId, into: &out)
        }
    }

    public func decode(_ object: JSONObject) throws(AuthError) -> TokenResponse {
        try TokenResponse(decoding: object)
    }

    public func decode(plainSuccess body: [UInt8]) -> Result<TokenResponse, AuthError>? {
        PlainSuccess.decode(body) { (members: TokenResponse.Members) throws(AuthError) in try TokenResponse(members) }
    }
}
