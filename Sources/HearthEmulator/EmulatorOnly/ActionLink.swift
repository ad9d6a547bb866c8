import Foundation

/// `GET /emulator/action?mode=&oobCode=&apiKey=[&continueUrl=][&newPassword=]`: where the links the
/// emulator logs lead. Applies the code and answers `{"authEmulator":{...}}` JSON, or redirects
/// (303) to `continueUrl` when one was given, like the reference's landing page.
enum ActionLink {
    struct Outcome: Encodable {
        struct Body: Encodable {
            var success: String?
            var error: String?
            var instructions: String?
            var instructions2: String?
            var urlTemplate: String?
            var email: String?
        }
        var authEmulator: Body
    }

    static let operation = Operation("emulator.action", access: .open, queryTenant: ["tenantId"]) { project, request throws(ApiError) in
        try handle(&project, request)
    }

    static func handle(_ project: inout ProjectState, _ request: OperationRequest) throws(ApiError) -> Reply {
        let query = request.query
        guard let apiKey = query["apiKey"], !apiKey.isEmpty else {
            return failure("missing apiKey query parameter",
                           "Please modify the URL to specify an apiKey, such as ...&apiKey=YOUR_API_KEY")
        }
        guard let code = query["oobCode"], !code.isEmpty else {
            return failure("missing oobCode query parameter",
                           "Please modify the URL to specify an oobCode, such as ...&oobCode=YOUR_OOB_CODE")
        }
        let continueUrl = query["continueUrl"].flatMap { $0.isEmpty ? nil : $0 }
        let env = request.environment

        switch query["mode"] ?? "" {
        case "resetPassword":
            guard let oob = project.oobCodes.record(for: code), oob.requestType == .passwordReset else {
                return failure("Your request to reset your password has expired or the link has already been used.",
                               "Try resetting your password again.")
            }
            let template = "\(oob.oobLink)&newPassword=NEW_PASSWORD_HERE"
            guard let newPassword = query["newPassword"], !newPassword.isEmpty else {
                return reply(.badRequest, .init(
                    error: "missing newPassword query parameter",
                    instructions: "To reset the password for \(oob.email), send an HTTP GET request to the following URL.",
                    instructions2: "You may use a web browser or any HTTP client, such as curl.",
                    urlTemplate: template))
            }
            guard newPassword != "NEW_PASSWORD_HERE" else {
                return reply(.badRequest, .init(
                    error: "newPassword must be something other than 'NEW_PASSWORD_HERE'",
                    instructions: "The string 'NEW_PASSWORD_HERE' is just a placeholder.",
                    instructions2: "Please change the URL to specify a new password instead.",
                    urlTemplate: template))
            }
            let result = try ResetPassword.run(
                ResetPassword.Request(oobCode: code, newPassword: newPassword), in: &project, clock: env.clock)
            if let continueUrl { return .redirect(to: continueUrl) }
            return reply(.ok, .init(success: "The password has been successfully updated.", email: result.email))

        case "verifyEmail", "verifyAndChangeEmail":
            do {
                let result = try UpdateAccount.run(
                    UpdateAccount.Request(oobCode: code), privileged: false, in: &project, environment: env)
                if let continueUrl { return .redirect(to: continueUrl) }
                return reply(.ok, .init(success: "The email has been successfully verified.", email: result.email))
            } catch where isUsedUp(error) {
                return failure("Your request to verify your email has expired or the link has already been used.",
                               "Try verifying your email again.")
            }

        case "recoverEmail":
            let retry = "If you're trying to test the reverting email flow, try changing the email again to generate a new link."
            guard project.oobCodes.record(for: code)?.requestType == .recoverEmail else {
                return failure("Requested mode does not match the OOB code provided.", retry)
            }
            do {
                let result = try UpdateAccount.run(
                    UpdateAccount.Request(oobCode: code), privileged: false, in: &project, environment: env)
                return reply(.ok, .init(success: "The email has been successfully reset.", email: result.email))
            } catch where isUsedUp(error) {
                return failure("Your request to revert your email has expired or the link has already been used.", retry)
            }

        case "signIn":
            guard let continueUrl, var target = URLComponents(string: continueUrl) else {
                return failure("Missing continueUrl query parameter",
                               "To sign in, append &continueUrl=YOUR_APP_URL to the link.")
            }
            // The app receives the whole link's parameters, as it would from a real email link.
            var items = target.queryItems ?? []
            for name in ["mode", "oobCode", "apiKey", "lang", "tenantId"] {
                guard let value = query[name] else { continue }
                items.removeAll { $0.name == name }
                items.append(URLQueryItem(name: name, value: value))
            }
            target.queryItems = items
            return .redirect(to: target.string ?? continueUrl)

        default:
            return reply(.badRequest, .init(error: "Invalid mode"))
        }
    }

    private static func isUsedUp(_ error: ApiError) -> Bool {
        error.httpStatus == 501 || error.message == "INVALID_OOB_CODE"
    }

    private static func failure(_ error: String, _ instructions: String) -> Reply {
        reply(.badRequest, .init(error: error, instructions: instructions))
    }

    private static func reply(_ status: HTTPStatus, _ body: Outcome.Body) -> Reply {
        Reply(Outcome(authEmulator: body), status: status)
    }
}
