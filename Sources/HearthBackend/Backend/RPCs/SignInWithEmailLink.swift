import HearthWire

/// `accounts:signInWithEmailLink`: signs in with an EMAIL_SIGNIN code (creating the account of the
/// email if there is none), or with `idToken` links the email to that user. The body is what Firebase's
/// SDKs send: no `returnSecureToken`, the answer carries tokens anyway.
package struct SignInWithEmailLink: TenantScopedRPC, TokenIssuingRPC {
    package var email: String
    package var oobCode: String
    /// Links to this user instead of signing in.
    package var idToken: String?
    /// Sent when signing in and when linking (the JS SDK adds it to both).
    package var tenantId: String?

    package init(email: String, oobCode: String, idToken: String? = nil, tenantId: String? = nil) {
        self.email = email
        self.oobCode = oobCode
        self.idToken = idToken
        self.tenantId = tenantId
    }

    package var endpoint: Endpoint { .identityToolkitV1("accounts:signInWithEmailLink") }
    /// An account with second factors answers with `mfaPendingCredential` instead of tokens.
    package var successShapedErrors: SuccessShapedErrors { .signIn }

    package func encodeBody() -> [UInt8] {
        var body: JSONObject = ["email": .string(email), "oobCode": .string(oobCode)]
        body.setIfPresent("idToken", idToken)
        body.setIfPresent("tenantId", tenantId)
        return JSONValue.object(body).serialized()
    }
}
