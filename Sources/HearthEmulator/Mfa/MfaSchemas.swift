/// Request messages the v2 MFA methods share.
enum MfaSchemas {
    /// `StartMfaPhoneRequestInfo`: the number and the app credential of an SMS second factor.
    static let startPhone = RequestSchema([
        "autoRetrievalInfo": .message(RequestSchema(["appSignatureHash": .string])), "captchaResponse": .string,
        "clientType": .enumeration(ClientType.names), "iosReceipt": .string, "iosSecret": .string,
        "phoneNumber": .string, "playIntegrityToken": .string, "recaptchaToken": .string,
        "recaptchaVersion": .enumeration(ClientType.recaptchaVersions), "safetyNetToken": .string,
    ])

    /// `FinalizeMfaPhoneRequestInfo`.
    static let finalizePhone = RequestSchema([
        "androidVerificationProof": .string, "code": .string, "phoneNumber": .string, "sessionInfo": .string,
    ])

    struct StartPhone: Decodable {
        var phoneNumber: String?
        var recaptchaToken: String?
        var captchaResponse: String?
        var iosReceipt: String?
        var safetyNetToken: String?
        var playIntegrityToken: String?

        var credentials: AppCredentials {
            AppCredentials(recaptchaToken: recaptchaToken, captchaResponse: captchaResponse,
                           platformCredentials: [iosReceipt, safetyNetToken, playIntegrityToken])
        }
    }

    struct FinalizePhone: Decodable {
        var androidVerificationProof: String?
        var code: String?
        var phoneNumber: String?
        var sessionInfo: String?
    }

    /// `{sessionInfo}` (StartMfaPhoneResponseInfo).
    struct PhoneSession: Encodable {
        var sessionInfo: String
    }

    /// `{idToken, refreshToken}`: what enrollment and second-factor sign-in answer (no expiresIn; the
    /// SDKs read the lifetime from the token).
    struct Tokens: Encodable {
        var idToken: String
        var refreshToken: String
    }
}
