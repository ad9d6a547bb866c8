import Foundation
import HearthWire

/// `GET /emulator/action?mode=&oobCode=&apiKey=[&continueUrl=][&tenantId=][&newPassword=]`: where the
/// links the emulator logs lead, with the reference's answers:
/// - `signIn` redirects (303) to `continueUrl` with every parameter of the link (the app finishes
///   with signInWithEmailLink);
/// - `verifyEmail`, `verifyAndChangeEmail` and `resetPassword` (with `newPassword`) apply the code,
///   then redirect to `continueUrl` when there is one, else answer `{"authEmulator":{"success":…}}`;
/// - `recoverEmail` applies the code and answers;
/// - a used, expired or unknown code is `{"authEmulator":{"error":…, "instructions":…}}` (400).
/// The tenant of the link (`tenantId`) is where the code is looked for.
///
/// hearth-emulator only: a browser (an `Accept` preferring HTML) opening a password reset link
/// without a usable `newPassword` gets a form for it instead of the JSON instructions, so a person
/// can finish the reset in the browser; the form sends the same link with `newPassword`.
enum ActionLink {
    struct Outcome: Encodable {
        struct Body: Encodable {
            var success: String?
            var error: String?
            var instructions: String?
            var instructions2: String?
            var urlTemplate: String?
            var email: String?
            var newEmail: String?
        }
        var authEmulator: Body
    }

    static let path = "/emulator/action"

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
            let newPassword = query["newPassword"] ?? ""
            if request.prefersHTML, newPassword.isEmpty || newPassword == "NEW_PASSWORD_HERE" {
                return .html(ResetPasswordForm(email: oob.email, parameters: query).render())
            }
            guard !newPassword.isEmpty else {
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

        case "verifyEmail":
            do {
                let result = try UpdateAccount.run(
                    UpdateAccount.Request(oobCode: code), privileged: false, in: &project, environment: env)
                if let continueUrl { return .redirect(to: continueUrl) }
                return reply(.ok, .init(success: "The email has been successfully verified.", email: result.email))
            } catch where isUsedUp(error) {
                return failure("Your request to verify your email has expired or the link has already been used.",
                               "Try verifying your email again.")
            }

        case "verifyAndChangeEmail":
            do {
                let result = try UpdateAccount.run(
                    UpdateAccount.Request(oobCode: code), privileged: false, in: &project, environment: env)
                if let continueUrl { return .redirect(to: continueUrl) }
                return reply(.ok, .init(success: "The email has been successfully changed.", newEmail: result.newEmail))
            } catch where isUsedUp(error) {
                return failure("Your request to change your email has expired or the link has already been used.",
                               "Try changing your email again.")
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
            guard let continueUrl else {
                return failure("Missing continueUrl query parameter",
                               "To sign in, append &continueUrl=YOUR_APP_URL to the link.")
            }
            guard let target = URLComponents(string: continueUrl), target.scheme != nil else {
                return failure("continueUrl is not an absolute URL",
                               "To sign in, append &continueUrl=YOUR_APP_URL to the link.")
            }
            return .redirect(to: signInTarget(target, linkParameters: query))

        default:
            return reply(.badRequest, .init(error: "Invalid mode"))
        }
    }

    /// The app's URL with every parameter of the link (but `continueUrl`) set on it, as a real
    /// email link hands them over: a parameter the URL has already is replaced.
    static func signInTarget(_ target: URLComponents, linkParameters: QueryParameters) -> String {
        var items = (target.percentEncodedQuery ?? "").isEmpty
            ? [] : FormFields(parsing: Substring(target.percentEncodedQuery ?? ""), plusIsSpace: true).pairs
        for (name, value) in linkParameters.lastValues where name != "continueUrl" {
            guard let index = items.firstIndex(where: { $0.name == name }) else {
                items.append((name, value))
                continue
            }
            items[index].value = value
            items = items.enumerated().filter { $0.offset <= index || $0.element.name != name }.map(\.element)
        }
        var result = target
        result.percentEncodedQuery = FormEncoding.encodeAsURLSearchParams(items)
        return result.string ?? target.string ?? ""
    }

    /// Refusals the page shows as "expired or already used".
    private static func isUsedUp(_ error: ApiError) -> Bool {
        error.httpStatus == 501 || error.message == "INVALID_OOB_CODE" || error.message == "EXPIRED_OOB_CODE"
    }

    private static func failure(_ error: String, _ instructions: String) -> Reply {
        reply(.badRequest, .init(error: error, instructions: instructions))
    }

    private static func reply(_ status: HTTPStatus, _ body: Outcome.Body) -> Reply {
        Reply(Outcome(authEmulator: body), status: status)
    }
}

/// The form a browser gets for a password reset link (hearth-emulator only): the new password is
/// sent back as the link's `newPassword`, the way the reference's instructions ask for it.
struct ResetPasswordForm {
    var email: String
    var parameters: QueryParameters

    func render() -> String {
        let hidden = parameters.lastValues.filter { $0.name != "newPassword" }.map {
            "<input type=\"hidden\" name=\"\(HTML.escape($0.name))\" value=\"\(HTML.escape($0.value))\">"
        }.joined()
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Reset your password – hearth-emulator</title>
            <style>\(FakeIdpPage.style)</style>
            </head>
            <body>
            <main>
            <h1>Reset your password</h1>
            <p>for <strong id="email">\(HTML.escape(email))</strong></p>
            <form method="get" action="\(ActionLink.path)">\(hidden)
            <label for="new-password">New password</label>
            <input id="new-password" name="newPassword" type="password" autocomplete="new-password" required minlength="6">
            <button id="save" type="submit">Save</button>
            </form>
            <p class="note">hearth-emulator: nothing is emailed; this page stands for the one your users would see.</p>
            </main>
            </body>
            </html>

            """
    }
}
