import HearthWire

/// v2 `accounts/mfaEnrollment:finalize`: completes an enrollment with the first code of the new factor
/// (client-wire-reference §1.14). The answer replaces the user's tokens; it has no `expiresIn`, so the
/// lifetime comes from the new ID token (`TokenResponse` reads `exp - iat`).
package struct FinalizeMfaEnrollment: TenantScopedRPC, TokenIssuingRPC {
    package enum Verification: Sendable, Equatable {
        /// The enrollment session (mfaEnrollment:start's `phoneSessionInfo.sessionInfo`) and the SMS code.
        case phone(sessionInfo: String, code: String)
        /// The enrollment session (`totpSessionInfo.sessionInfo`) and a code from the shared secret.
        case totp(sessionInfo: String, verificationCode: String)
    }

    package var idToken: String
    /// The factor's name shown to the user later (e.g. "Work phone"); left out when nil.
    package var displayName: String?
    package var verification: Verification
    package var tenantId: String?

    package init(idToken: String, displayName: String? = nil, verification: Verification, tenantId: String? = nil) {
        self.idToken = idToken
        self.displayName = displayName
        self.verification = verification
        self.tenantId = tenantId
    }

    package var endpoint: Endpoint { .identityToolkitV2("accounts/mfaEnrollment:finalize") }

    package func encodeBody() -> [UInt8] {
        var body: JSONObject = ["idToken": .string(idToken)]
        body.setIfPresent("displayName", displayName)
        switch verification {
        case .phone(let sessionInfo, let code):
            body["phoneVerificationInfo"] = ["sessionInfo": .string(sessionInfo), "code": .string(code)]
        case .totp(let sessionInfo, let verificationCode):
            body["totpVerificationInfo"] = ["sessionInfo": .string(sessionInfo),
                                            "verificationCode": .string(verificationCode)]
        }
        body.setIfPresent("tenantId", tenantId)
        return JSONValue.object(body).serialized()
    }
}
