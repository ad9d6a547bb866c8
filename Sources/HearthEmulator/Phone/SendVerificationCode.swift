/// `accounts:sendVerificationCode`: starts a phone sign-in by "texting" a code (see
/// `VerificationCodeSender`) and answers the `sessionInfo` the code goes back with.
enum SendVerificationCode {
    static let schema = RequestSchema([
        "autoRetrievalInfo": .message(RequestSchema(["appSignatureHash": .string])), "captchaResponse": .string,
        "clientType": .enumeration(ClientType.names), "iosReceipt": .string, "iosSecret": .string,
        "phoneNumber": .string, "playIntegrityToken": .string, "recaptchaToken": .string,
        "recaptchaVersion": .enumeration(ClientType.recaptchaVersions), "safetyNetToken": .string,
        "tenantId": .string,
    ])

    struct Request: Decodable {
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

    struct Response: Encodable {
        var sessionInfo: String
    }

    static let operation = Operation(
        "identitytoolkit.accounts.sendVerificationCode", body: .json(schema), tenantGates: [.enabled, .projectOnly],
        handler: handle)

    static func handle(_ project: inout ProjectState, _ request: OperationRequest) throws(ApiError) -> Reply {
        let body = try request.decodeBody(as: Request.self)
        // Production answers INVALID_PHONE_NUMBER rather than MISSING_PHONE_NUMBER here too.
        let phoneNumber = try requiredText(body.phoneNumber, PhoneNumber.invalidFormatMessage)
        try require(PhoneNumber.isValid(phoneNumber), PhoneNumber.invalidFormatMessage)
        try require(
            project.user(phoneNumber: phoneNumber)?.secondFactors.isEmpty ?? true,
            "UNSUPPORTED_FIRST_FACTOR : A phone number cannot be set as a first factor on an SMS based MFA user.")
        let session = try VerificationCodeSender.send(
            to: phoneNumber, for: .firstFactor, credentials: body.credentials, in: &project, request: request)
        return Reply(Response(sessionInfo: session.sessionInfo))
    }
}
