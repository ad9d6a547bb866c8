import HearthWire

/// `accounts:sendVerificationCode`: texts a verification code to a phone number (client-wire-reference
/// §1.7). The answer's `sessionInfo` is the verification id that goes back with the code in
/// signInWithPhoneNumber.
///
/// App verification on a desktop is a reCAPTCHA token (`recaptchaToken`); without one only the emulator
/// and projects' fictional test numbers answer (what `appVerificationDisabledForTesting` means).
package struct SendVerificationCode: TenantScopedRPC {
    /// E.164, e.g. "+16505554567" (`PhoneNumber.validateE164` checks it first).
    package var phoneNumber: String
    package var recaptchaToken: String?
    package var tenantId: String?

    package init(phoneNumber: String, recaptchaToken: String? = nil, tenantId: String? = nil) {
        self.phoneNumber = phoneNumber
        self.recaptchaToken = recaptchaToken
        self.tenantId = tenantId
    }

    package var endpoint: Endpoint { .identityToolkitV1("accounts:sendVerificationCode") }

    package func encodeBody() -> [UInt8] {
        var body: JSONObject = ["phoneNumber": .string(phoneNumber)]
        body.setIfPresent("recaptchaToken", recaptchaToken)
        body.setIfPresent("tenantId", tenantId)
        return JSONValue.object(body).serialized()
    }

    package func decode(_ object: JSONObject) throws(AuthError) -> PhoneSessionInfo {
        try PhoneSessionInfo(decoding: object)
    }
}
