import HearthWire

/// The fake reCAPTCHA (hearth-emulator only): `/emulator/auth/handler?apiKey=…&authType=verifyApp
/// &redirectUrl=…[&eventId=…]`, the page Firebase's SDKs open to verify a desktop or web app before
/// an SMS is sent. It shows an "I'm not a robot" box; submitting it redirects (303) to `redirectUrl`
/// with `recaptchaToken=<token>` (and `eventId` / `state` when given), or shows the token when there
/// is no `redirectUrl`. Cancel redirects with `firebaseError` (auth/user-cancelled) instead.
///
/// Tokens are random, work for one sendVerificationCode (or phone MFA start) of the default project
/// (or of the tenant named by `tid`) within ten minutes, and are only checked when the project
/// requires app verification (`AppVerification`). A test can skip the HTML: GET `/emulator/auth/handler/verify-app` with the
/// same query plus `notARobot=true`.
enum VerifyAppPage {
    static let authType = "verifyApp"
    static let verifyPath = "\(AuthHandlerPage.path)/verify-app"
    /// The page's own fields, not carried back.
    private static let choiceNames: Set<String> = ["notARobot", "cancel"]

    static let verifyOperation = Operation(
        "emulator.auth.handler.verifyApp", access: .open, queryTenant: AuthHandlerPage.tenantParameters
    ) { project, request throws(ApiError) in
        verify(request.query, in: &project, now: request.environment.clock.milliseconds)
    }

    static let verifyPostOperation = Operation(
        "emulator.auth.handler.verifyApp", access: .open, body: .form, queryTenant: AuthHandlerPage.tenantParameters
    ) { project, request throws(ApiError) in
        verify(request.query.merging(request.formFields), in: &project, now: request.environment.clock.milliseconds)
    }

    /// The "I'm not a robot" page.
    static func page(_ parameters: QueryParameters) -> Reply {
        if let refusal = refusal(parameters) { return refusal }
        let redirectUrl = parameters.nonEmpty("redirectUrl")
        let carried = parameters.lastValues.filter { !choiceNames.contains($0.name) }
        let hidden = carried.map {
            "<input type=\"hidden\" name=\"\(HTML.escape($0.name))\" value=\"\(HTML.escape($0.value))\">"
        }.joined()
        // The form's fields are its body: a tenant's token must be kept by that tenant, named in the URL.
        var action = verifyPath
        if let tenantId = AuthHandlerPage.tenantParameters.lazy.compactMap({ parameters.nonEmpty($0) }).first {
            action += "?tenantId=\(PercentEncoding.encode(tenantId))"
        }
        var html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Verify you are not a robot – hearth-emulator</title>
            <style>\(FakeIdpPage.style)</style>
            </head>
            <body>
            <main>
            <h1>Verify you are not a robot</h1>
            <p class="note">This page is hearth-emulator's stand-in for reCAPTCHA. No puzzle, no network: \
            ticking the box is enough.</p>

            """
        if let redirectUrl {
            html += "<p>After you verify, your browser returns to <code>\(HTML.escape(redirectUrl))</code>.</p>\n"
        }
        html += """
            <form method="post" action="\(HTML.escape(action))">\(hidden)
            <label class="check"><input id="not-a-robot" name="notARobot" type="checkbox" value="true" required autofocus> \
            I'm not a robot</label>
            <div class="actions">
            <button type="submit" id="verify">Verify</button>
            </div>
            </form>
            <form method="post" action="\(HTML.escape(action))" class="cancel">\(hidden)
            <button type="submit" class="secondary" name="cancel" value="true" formnovalidate>Cancel</button>
            </form>
            </main>
            </body>
            </html>

            """
        return .html(html)
    }

    static func verify(_ parameters: QueryParameters, in project: inout ProjectState, now: Int64) -> Reply {
        if let refusal = refusal(parameters) { return refusal }
        let redirectUrl = parameters.nonEmpty("redirectUrl")
        var echoed: [(name: String, value: String)] = []
        for name in ["eventId", "state"] {
            if let value = parameters.nonEmpty(name) { echoed.append((name, value)) }
        }
        if parameters["cancel"] == "true" {
            let error = JSONObject([("code", .string("auth/user-cancelled")),
                                    ("message", .string("The app verification was cancelled."))])
            let answer = [(name: "firebaseError", value: JSONValue.object(error).jsonText)]
            if let redirectUrl { return .redirect(to: RedirectURL.appending(answer + echoed, to: redirectUrl)) }
            return .html(resultPage(title: "Verification cancelled", token: nil))
        }
        guard parameters["notARobot"] == "true" || parameters["notARobot"] == "on" else {
            return .authEmulatorError("tick \"I'm not a robot\" (notARobot=true) to verify")
        }
        let token = AppVerification.issueToken(in: &project, now: now)
        if let redirectUrl {
            return .redirect(to: RedirectURL.appending([("recaptchaToken", token)] + echoed, to: redirectUrl))
        }
        return .html(resultPage(title: "Verified", token: token))
    }

    private static func refusal(_ parameters: QueryParameters) -> Reply? {
        guard parameters.nonEmpty("apiKey") != nil else {
            return .authEmulatorError("missing apiKey query parameter")
        }
        if let redirectUrl = parameters.nonEmpty("redirectUrl"), !AbsoluteURI.isValid(redirectUrl) {
            return .authEmulatorError("redirectUrl must be an absolute URL")
        }
        return nil
    }

    private static func resultPage(title: String, token: String?) -> String {
        var html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(HTML.escape(title)) – hearth-emulator</title>
            <style>\(FakeIdpPage.style)</style>
            </head>
            <body>
            <main>
            <h1>\(HTML.escape(title))</h1>

            """
        if let token {
            html += "<p>Send this token to sendVerificationCode as recaptchaToken:</p>\n"
            html += "<p><label for=\"recaptcha-token\">recaptchaToken</label>"
            html += "<input id=\"recaptcha-token\" type=\"text\" readonly value=\"\(HTML.escape(token))\"></p>\n"
        } else {
            html += "<p>You can close this page.</p>\n"
        }
        html += "</main>\n</body>\n</html>\n"
        return html
    }
}
