import HearthWire

/// `accounts:signInWithCustomToken`. The answer has no localId; `TokenResponse` takes the uid from the
/// ID token.
package struct SignInWithCustomToken: TenantScopedRPC, FrequentTokenIssuingRPC {
    package var token: String
    package var tenantId: String?

    package init(token: String, tenantId: String? = nil) {
        self.token = token
        self.tenantId = tenantId
    }

    package var endpoint: Endpoint { .identityToolkitV1("accounts:signInWithCustomToken") }
    package var successShapedErrors: SuccessShapedErrors { .signIn }

    package func encodeBody() -> [UInt8] {
        var body: JSONObject = ["token": .string(token), "returnSecureToken": true]
        body.setIfPresent("tenantId", tenantId)
        return JSONValue.object(body).serialized()
    }
}
