import HearthWire

/// v2 `accounts/mfaSignIn:start`: texts a code to an enrolled phone factor during the second step of a
/// sign-in (client-wire-reference §1.14). TOTP factors need no start.
///
/// `phoneSignInInfo` is always sent, empty when there is neither number nor token: JS always sends it;
/// the emulator does not require it.
package struct StartMfaSignIn: TenantScopedRPC {
    /// The first step's proof (`MultiFactorPending.pendingCredential`).
    package var mfaPendingCredential: String
    /// The chosen factor (`MultiFactorHint.enrollmentId`).
    package var mfaEnrollmentId: String
    /// The hint's (masked) number, as iOS sends it; the server goes by the enrollment id.
    package var phoneNumber: String?
    package var recaptchaToken: String?
    package var tenantId: String?

    package init(mfaPendingCredential: String, mfaEnrollmentId: String, phoneNumber: String? = nil,
                recaptchaToken: String? = nil, tenantId: String? = nil) {
        self.mfaPendingCredential = mfaPendingCredential
        self.mfaEnrollmentId = mfaEnrollmentId
        self.phoneNumber = phoneNumber
        self.recaptchaToken = recaptchaToken
        self.tenantId = tenantId
    }

    package var endpoint: Endpoint { .identityToolkitV2("accounts/mfaSignIn:start") }

    package func encodeBody() -> [UInt8] {
        var info: JSONObject = [:]
        info.setIfPresent("phoneNumber", phoneNumber)
        info.setIfPresent("recaptchaToken", recaptchaToken)
        var body: JSONObject = [
            "mfaPendingCredential": .string(mfaPendingCredential),
            "mfaEnrollmentId": .string(mfaEnrollmentId),
            "phoneSignInInfo": .object(info),
        ]
        body.setIfPresent("tenantId", tenantId)
        return JSONValue.object(body).serialized()
    }

    package func decode(_ object: JSONObject) throws(AuthError) -> PhoneSessionInfo {
        try PhoneSessionInfo(decoding: object, container: "phoneResponseInfo")
    }
}
