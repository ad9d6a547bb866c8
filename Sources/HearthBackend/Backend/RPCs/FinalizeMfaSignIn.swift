import HearthWire

/// v2 `accounts/mfaSignIn:finalize`: completes a sign-in with the second factor's code
/// (client-wire-reference §1.14, §5 example 4). The answer has tokens only (no `expiresIn`: the lifetime
/// comes from the ID token); the caller looks the user up afterwards.
package struct FinalizeMfaSignIn: TenantScopedRPC, TokenIssuingRPC {
    package enum Verification: Sendable, Equatable {
        /// mfaSignIn:start's session (`phoneResponseInfo.sessionInfo`) and the SMS code.
        case phone(sessionInfo: String, code: String)
        /// The TOTP factor's enrollment id and the current code.
        case totp(mfaEnrollmentId: String, verificationCode: String)
    }

    /// The first step's proof (`MultiFactorPending.pendingCredential`).
    package var mfaPendingCredential: String
    package var verification: Verification
    package var tenantId: String?

    package init(mfaPendingCredential: String, verification: Verification, tenantId: String? = nil) {
        self.mfaPendingCredential = mfaPendingCredential
        self.verification = verification
        self.tenantId = tenantId
    }

    package var endpoint: Endpoint { .identityToolkitV2("accounts/mfaSignIn:finalize") }

    package func encodeBody() -> [UInt8] {
        var body: JSONObject = ["mfaPendingCredential": .string(mfaPendingCredential)]
        switch verification {
        case .phone(let sessionInfo, let code):
            body["phoneVerificationInfo"] = ["sessionInfo": .string(sessionInfo), "code": .string(code)]
        case .totp(let mfaEnrollmentId, let verificationCode):
            body["mfaEnrollmentId"] = .string(mfaEnrollmentId)
            body["totpVerificationInfo"] = ["verificationCode": .string(verificationCode)]
        }
        body.setIfPresent("tenantId", tenantId)
        return JSONValue.object(body).serialized()
    }
}
