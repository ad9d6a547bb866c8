/// `v2/accounts/mfaSignIn:start`: texts a code to the SMS second factor `mfaEnrollmentId` of the
/// account a first-factor sign-in left pending. TOTP factors need no start (their code is in the
/// authenticator app), so they are "not supported" here, as in the reference for non-phone factors.
enum StartMfaSignIn {
    static let schema = RequestSchema([
        "mfaEnrollmentId": .string, "mfaPendingCredential": .string,
        "phoneSignInInfo": .message(MfaSchemas.startPhone), "tenantId": .string,
    ])

    struct Request: Decodable {
        var mfaEnrollmentId: String?
        var mfaPendingCredential: String?
        var phoneSignInInfo: MfaSchemas.StartPhone?
    }

    struct Response: Encodable {
        var phoneResponseInfo: MfaSchemas.PhoneSession
    }

    static let operation = Operation(
        "identitytoolkit.accounts.mfaSignIn.start", body: .json(schema), tenantGates: [.enabled, .smsSecondFactors],
        handler: handle)

    static func handle(_ project: inout ProjectState, _ request: OperationRequest) throws(ApiError) -> Reply {
        let body = try request.decodeBody(as: Request.self)
        let pending = try requiredText(
            body.mfaPendingCredential, "MISSING_MFA_PENDING_CREDENTIAL : Request does not have MFA pending credential.")
        let enrollmentId = try requiredText(
            body.mfaEnrollmentId, "MISSING_MFA_ENROLLMENT_ID : No second factor identifier is provided.")
        let (user, _) = try MfaPendingCredential.account(of: pending, in: project)
        let enrollment = try required(
            user.secondFactors.first { $0.mfaEnrollmentId == enrollmentId }, "MFA_ENROLLMENT_NOT_FOUND")
        let phoneNumber = try required(enrollment.phoneNumber, "INVALID_ARGUMENT : MFA provider not supported!")
        let session = try VerificationCodeSender.send(
            to: phoneNumber, for: .mfaSignIn(localId: user.localId),
            credentials: body.phoneSignInInfo?.credentials ?? AppCredentials(), in: &project, request: request)
        return Reply(Response(phoneResponseInfo: MfaSchemas.PhoneSession(sessionInfo: session.sessionInfo)))
    }
}
