/// `v2/accounts/mfaEnrollment:withdraw`: removes the second factor `mfaEnrollmentId` from the account
/// of `idToken` and answers fresh tokens. Like other sensitive changes it needs a recent sign-in
/// when the project asks for one (`recentLoginMaxAgeSeconds`).
enum WithdrawMfa {
    static let schema = RequestSchema(["idToken": .string, "mfaEnrollmentId": .string, "tenantId": .string])

    struct Request: Decodable {
        var idToken: String?
        var mfaEnrollmentId: String?
    }

    struct Response: Encodable {
        var idToken: String
        var refreshToken: String
        var expiresIn: String
    }

    static let operation = Operation(
        "identitytoolkit.accounts.mfaEnrollment.withdraw", body: .json(schema), tenantGates: [.enabled],
        handler: handle)

    static func handle(_ project: inout ProjectState, _ request: OperationRequest) throws(ApiError) -> Reply {
        let body = try request.decodeBody(as: Request.self)
        let env = request.environment
        let idToken = try requiredText(body.idToken, "MISSING_ID_TOKEN")
        let token = try request.verifyIdToken(idToken, in: project)
        let user = token.user
        let remaining = user.secondFactors.filter { $0.mfaEnrollmentId != body.mfaEnrollmentId }
        try require(remaining.count < user.secondFactors.count, "MFA_ENROLLMENT_NOT_FOUND")
        try RecentLogin.require(token, in: project, clock: env.clock)

        // Every token the emulator issues names its sign-in provider; one without is not ours.
        let signInProvider = try required(token.signInProvider, "INVALID_ID_TOKEN")
        // The last factor withdrawn leaves an empty list (`mfaInfo: []`), as in the reference.
        let updated = project.updateUser(user) { $0.mfaInfo = remaining }
        let tokens = TokenIssuer.issue(for: updated, signInProvider: signInProvider, in: &project, clock: env.clock)
        return Reply(Response(idToken: tokens.idToken, refreshToken: tokens.refreshToken, expiresIn: tokens.expiresIn))
    }
}
