import HearthWire

/// `accounts:signInWithPassword`.
package struct SignInWithPassword: TenantScopedRPC, FrequentTokenIssuingRPC {
    package var email: String
    package var password: String
    package var tenantId: String?

    package init(email: String, password: String, tenantId: String? = nil) {
        self.email = email
        self.password = password
        self.tenantId = tenantId
    }

    package var endpoint: Endpoint { Self.signInWithPassword }
    private static let signInWithPassword = Endpoint.identityToolkitV1("accounts:signInWithPassword")
    package var successShapedErrors: SuccessShapedErrors { .signIn }

    package func encodeBody() -> [UInt8] {
        JSONObjectWriter.document(capacity: 64 + email.utf8.count + password.utf8.count + (tenantId?.utf8.count ?? 0)) {
            body, out in
            body.string("email", email, into: &out)
            body.string("password", password, into: &out)
            body.bool("returnSecureToken", true, into: &out)
            body.string("tenantId", tenantId, into: &out)
        }
    }
}
