import HearthWire

/// v2 `accounts/mfaEnrollment:withdraw`: removes one enrolled second factor of the signed-in user
/// (client-wire-reference §1.14). The answer replaces the user's tokens.
public struct WithdrawMfa: TenantScopedRPC {
    public var idToken: String
    /// The factor's `mfaEnrollmentId` (`MultiFactorHint.enrollmentId`).
    public var mfaEnrollmentId: String
    public var tenantId: String?

    public init(idToken: String, mfaEnrollmentId: String, tenantId: String? = nil) {
        self.idToken = idToken
        self.mfaEnrollmentId = mfaEnrollmentId
        self.tenantId = tenantId
    }

    public var endpoint: Endpoint { .identityToolkitV2("accounts/mfaEnrollment:withdraw") }

    public func encodeBody() -> [UInt8] {
        var body: JSONObject = ["idToken": .string(idToken), "mfaEnrollmentId": .string(mfaEnrollmentId)]
        body.setIfPresent("tenantId", tenantId)
        return JSONValue.object(body).serialized()
    }

    public func decode(_ object: JSONObject) throws(AuthError) -> TokenResponse {
        try TokenResponse(decoding: object)
    }
}
