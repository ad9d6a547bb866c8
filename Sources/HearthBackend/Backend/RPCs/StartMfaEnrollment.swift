import HearthTransport
import HearthWire

/// v2 `accounts/mfaEnrollment:start`: begins enrolling a second factor for the signed-in user
/// (client-wire-reference §1.14). For a phone, the server texts a code and answers with its session; for
/// TOTP, it answers with a new shared secret.
public struct StartMfaEnrollment: TenantScopedRPC {
    public enum Factor: Sendable, Equatable {
        /// An SMS factor on `phoneNumber` (E.164), with the reCAPTCHA token that verifies the app when
        /// there is one.
        case phone(phoneNumber: String, recaptchaToken: String?)
        /// An authenticator-app factor.
        case totp
    }

    public var idToken: String
    public var factor: Factor
    public var tenantId: String?

    public init(idToken: String, factor: Factor, tenantId: String? = nil) {
        self.idToken = idToken
        self.factor = factor
        self.tenantId = tenantId
    }

    public var endpoint: Endpoint { .identityToolkitV2("accounts/mfaEnrollment:start") }

    public func encodeBody() -> [UInt8] {
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
    public func decode(_ object: JSONObject) throws(AuthError) -> Response {
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
    public enum Response: Sendable, Equatable, Redacted {
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
