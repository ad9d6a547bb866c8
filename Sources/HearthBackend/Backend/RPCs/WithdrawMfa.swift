import HearthWire

/// v2 `accounts/mfaEnrollment:withdraw`: removes one enrolled second factor of the signed-in user
/// (client-wire-reference §1.14). The answer replaces the user's tokens.
package struct WithdrawMfa: TenantScopedRPC, TokenIssuingRPC {
    package var idToken: String
    /// The factor's `mfaEnrollmentId` (`MultiFactorHint.enrollmentId`).
    package var mfaEnrollmentId: String
    package var tenantId: String?

    package init(idToken: String, mfaEnrollmentId: String, tenantId: String? = nil) {
        self.idToken = idToken
        self.mfaEnrollmentId = mfaEnrollmentId
        self.tenantId = tenantId
    }

    package var endpoint: Endpoint { .identityToolkitV2("accounts/mfaEnrollment:withdraw") }

    package func encodeBody() -> [UInt8] {
        var body: JSONObject = ["idToken": .string(idToken), "mfaEnrollmentId": .string(mfaEnrollmentId)]
        body.setIfPresent("tenantId", tenantId)
        return JSONValue.object(body).serialized()
    }
}
