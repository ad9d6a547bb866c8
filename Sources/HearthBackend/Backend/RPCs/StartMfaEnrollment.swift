import HearthTransport
import HearthWire

/// v2 `accounts/mfaEnrollment:start`: begins enrolling a second factor for the signed-in user
/// (client-wire-reference §1.14). For a phone, the server texts a code and answers with its session; for
/// TOTP, it answers with a new shared secret.
package struct StartMfaEnrollment: TenantScopedRPC {
    package enum Factor: Sendable, Equatable {
        /// An SMS factor on `phoneNumber` (E.164), with the reCAPTCHA token that verifies the app when
        /// there is one.
        case phone(phoneNumber: String, recaptchaToken: String?)
        /// An authenticator-app factor.
        case totp
    }

    package var idToken: String
    package var factor: Factor
    package var tenantId: String?

    package init(idToken: String, factor: Factor, tenantId: String? = nil) {
        self.idToken = idToken
        self.factor = factor
        self.tenantId = tenantId
    }

    package var endpoint: Endpoint { .identityToolkitV2("accounts/mfaEnrollment:start") }

    package func encodeBody() -> [UInt8] {
        var body: JSONObject = ["idToken": .string(idToken)]
        switch factor {
        case .phone(let phoneNumber, let recaptchaToken):
            var info: JSONObject = ["phoneNumber": .string(phoneNumber)]
            info.setIfPresent("recaptchaToken", recaptchaToken)
            body["phoneEnrollmentInfo"] = .object(info)
        case .totp:
            body["totpEnrollmentInfo"] = .object([:])
        }
        body.setIfPresent("tenantId", tenantId)
        return JSONValue.object(body).serialized()
    }

    /// The session of the factor that was asked for (an answer for the other kind is malformed).
    package func decode(_ object: JSONObject) throws(AuthError) -> Response {
        switch factor {
        case .phone:
            return .phone(try PhoneSessionInfo(decoding: object, container: "phoneSessionInfo"))
        case .totp:
            guard let info = object["totpSessionInfo"]?.objectValue else {
                throw .malformedResponse("missing totpSessionInfo")
            }
            return .totp(try TotpEnrollmentSession(decoding: info))
        }
    }

    /// Holds a session and possibly a shared secret: prints the factor kind only.
    package enum Response: Sendable, Equatable, Redacted {
        /// The SMS was sent; the session goes back with its code.
        case phone(PhoneSessionInfo)
        /// The shared secret to show (as an `otpauth://` URI) and its session.
        case totp(TotpEnrollmentSession)

        package var redactedSummary: String {
            switch self {
            case .phone: return "phone"
            case .totp(let session): return "totp, \(session.redactedSummary)"
            }
        }
    }
}
