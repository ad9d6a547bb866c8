/// `accounts:resetPassword`: inspects an out-of-band code, or with `newPassword` uses a
/// PASSWORD_RESET code to set the password (which verifies the email and revokes earlier tokens).
enum ResetPassword {
    static let schema = RequestSchema([
        "email": .string, "newPassword": .string, "oldPassword": .string, "oobCode": .string, "tenantId": .string,
    ])

    struct Request: Decodable {
        var oobCode: String?
        var newPassword: String?
    }

    struct Response: Encodable {
        let kind = "identitytoolkit#ResetPasswordResponse"
        var requestType: String
        var email: String?
        var newEmail: String?
    }

    static let operation = Operation("identitytoolkit.accounts.resetPassword", body: .json(schema), handler: handle)

    static func handle(_ project: inout ProjectState, _ request: OperationRequest) throws(ApiError) -> Reply {
        Reply(try run(try request.decodeBody(as: Request.self), in: &project, clock: request.environment.clock))
    }

    /// Also what the action page runs, so a tenant's settings apply to both.
    static func run(_ body: Request, in project: inout ProjectState, clock: EmulatorClock) throws(ApiError) -> Response {
        try project.features.requireEnabled()
        try require(project.features.allowsPasswordSignUp, "PASSWORD_LOGIN_DISABLED")
        let code = try requiredText(body.oobCode, "MISSING_OOB_CODE")
        let oob = try required(project.oobCodes.record(for: code), "INVALID_OOB_CODE")
        try project.requireUnexpired(oob, now: clock.milliseconds)

        if let newPassword = body.newPassword, !newPassword.isEmpty {
            try require(oob.requestType == .passwordReset, "INVALID_OOB_CODE")
            try PasswordHash.requireStrong(newPassword)
            project.oobCodes.remove(code)
            let user = try required(project.user(email: oob.email), "INVALID_OOB_CODE")
            let validSince = String(clock.seconds)
            // A reset drops every other identity, so whoever controlled them loses access too.
            project.updateUser(user, deleteProviders: (user.providerUserInfo ?? []).map(\.providerId)) {
                $0.emailVerified = true
                PasswordHash.set(newPassword, on: &$0, clock: clock)
                $0.validSince = validSince
            }
        }

        // An email sign-in code does not reveal its address; the client must supply it.
        return Response(
            requestType: oob.requestType.rawValue,
            email: oob.requestType == .emailSignIn ? nil : oob.email,
            newEmail: oob.newEmail)
    }
}
