import HearthWire

/// `accounts:signUp`: an anonymous user (no fields), an email/password user, or — with `idToken` —
/// email/password linked to the signed-in user (e.g. upgrading an anonymous account).
public struct SignUp: TenantScopedRPC {
    public var email: String?
    public var password: String?
    public var displayName: String?
    /// The current user's ID token when linking.
    public var idToken: String?
    public var tenantId: String?

    public init(email: String? = nil, password: String? = nil, displayName: String? = nil, idToken: String? = nil,
                tenantId: String? = nil) {
        self.email = email
        self.password = password
        self.displayName = displayName
        self.idToken = idToken
        self.tenantId = tenantId
    }

    /// A new account is made in the Auth's tenant; linking goes without one (the JS SDK's
    /// linkEmailPassword), the ID token says whose account it is.
    public mutating func scope(toTenant tenantId: String) {
        if idToken == nil, self.tenantId == nil { self.tenantId = tenantId }
    }

    /// Body `{"returnSecureToken":true}`.
    public static var anonymous: SignUp { SignUp() }

    /// Links email/password to the user whose ID token this is.
    public static func link(idToken: String, email: String, password: String) -> SignUp {
        SignUp(email: email, password: password, idToken: idToken)
    }

    public var endpoint: Endpoint { Self.signUp }
    private static let signUp = Endpoint.identityToolkitV1("accounts:signUp")

    // JS applies the second-factor check to sign-up but not to the email link call (client-wire-reference §1.2).
    public var successShapedErrors: SuccessShapedErrors { idToken == nil ? .signIn : .standard }

    public func encodeBody() -> [UInt8] {
        JSONObjectWriter.document(capacity: 64 + (idToken?.utf8.count ?? 0)) { body, out in
            body.string("displayName", displayName, into: &out)
            body.string("email", email, into: &out)
            body.string("idToken", idToken, into: &out)
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
