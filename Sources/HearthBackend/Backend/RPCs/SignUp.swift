import HearthWire

/// `accounts:signUp`: an anonymous user (no fields), an email/password user, or — with `idToken` —
/// email/password linked to the signed-in user (e.g. upgrading an anonymous account).
package struct SignUp: TenantScopedRPC, FrequentTokenIssuingRPC {
    package var email: String?
    package var password: String?
    package var displayName: String?
    /// The current user's ID token when linking.
    package var idToken: String?
    package var tenantId: String?

    package init(email: String? = nil, password: String? = nil, displayName: String? = nil, idToken: String? = nil,
                tenantId: String? = nil) {
        self.email = email
        self.password = password
        self.displayName = displayName
        self.idToken = idToken
        self.tenantId = tenantId
    }

    /// A new account is made in the Auth's tenant; linking goes without one (the JS SDK's
    /// linkEmailPassword), the ID token says whose account it is.
    package mutating func scope(toTenant tenantId: String) {
        if idToken == nil, self.tenantId == nil { self.tenantId = tenantId }
    }

    /// Body `{"returnSecureToken":true}`.
    package static var anonymous: SignUp { SignUp() }

    /// Links email/password to the user whose ID token this is.
    package static func link(idToken: String, email: String, password: String) -> SignUp {
        SignUp(email: email, password: password, idToken: idToken)
    }

    package var endpoint: Endpoint { Self.signUp }
    private static let signUp = Endpoint.identityToolkitV1("accounts:signUp")

    // JS applies the second-factor check to sign-up but not to the email link call (client-wire-reference §1.2).
    package var successShapedErrors: SuccessShapedErrors { idToken == nil ? .signIn : .standard }

    package func encodeBody() -> [UInt8] {
        JSONObjectWriter.document(capacity: 64 + (idToken?.utf8.count ?? 0)) { body, out in
            body.string("displayName", displayName, into: &out)
            body.string("email", email, into: &out)
            body.string("idToken", idToken, into: &out)
            body.string("password", password, into: &out)
            body.bool("returnSecureToken", true, into: &out)
            body.string("tenantId", tenantId, into: &out)
        }
    }
}
