import HearthWire

/// `/emulator/auth/handler`: the fake identity provider page Firebase's SDKs open in emulator mode,
/// with the reference's query (`apiKey`, `providerId`, `authType`, `redirectUrl`, `eventId`,
/// `scopes`, `customParameters`, `tid`, …). It refuses a request without `apiKey` or `providerId`
/// (400 JSON), lists the provider's existing identities and offers a new one.
///
/// Choosing redirects (303) to `redirectUrl` with the provider's answer in the query: `providerId`,
/// `id_token` (the claims as JSON), and `eventId` and `state` when the handler URL had them. That is
/// the URL a desktop app's loopback receiver or custom scheme gets, and what it passes to
/// signInWithIdp as `requestUri`. Without `redirectUrl` the page shows that `requestUri` instead.
/// As with the consent page, a GET carrying a choice (`&email=…`) skips the HTML. With
/// `authType=verifyApp` it is the fake reCAPTCHA instead (`VerifyAppPage`).
enum AuthHandlerPage {
    static let path = "/emulator/auth/handler"
    static let choosePath = "\(path)/choose"
    /// The SDKs name the tenant `tid`; the reference also reads `tenantId`, first.
    static let tenantParameters = ["tenantId", "tid"]

    static let pageOperation = Operation(
        "emulator.auth.handler", access: .open, queryTenant: tenantParameters
    ) { project, request throws(ApiError) in
        if request.query["authType"] == VerifyAppPage.authType { return VerifyAppPage.page(request.query) }
        return respond(to: request.query, choiceRequired: false, in: project, environment: request.environment)
    }

    static let chooseOperation = Operation(
        "emulator.auth.handler.choose", access: .open, queryTenant: tenantParameters
    ) { project, request throws(ApiError) in
        respond(to: request.query, choiceRequired: true, in: project, environment: request.environment)
    }

    static let choosePostOperation = Operation(
        "emulator.auth.handler.choose", access: .open, body: .form, queryTenant: tenantParameters
    ) { project, request throws(ApiError) in
        respond(to: request.query.merging(request.formFields), choiceRequired: true, in: project,
                environment: request.environment)
    }

    static func respond(
        to parameters: QueryParameters, choiceRequired: Bool, in project: ProjectState, environment env: EmulatorEnvironment
    ) -> Reply {
        guard parameters.nonEmpty("apiKey") != nil, let providerId = parameters.nonEmpty("providerId") else {
            return .authEmulatorError("missing apiKey or providerId query parameters")
        }
        let redirectUrl = parameters.nonEmpty("redirectUrl")
        if let redirectUrl, !AbsoluteURI.isValid(redirectUrl) {
            return .authEmulatorError("redirectUrl must be an absolute URL")
        }
        let customParameters = Self.customParameters(parameters["customParameters"])

        let choice: FakeIdentityChoice?
        do throws(FakeIdentityChoice.Refusal) {
            choice = try FakeIdentityChoice.read(parameters, providerId: providerId, in: project)
        } catch {
            return .authEmulatorError(error.message)
        }
        var echoed: [(name: String, value: String)] = []
        for name in ["eventId", "state"] {
            if let value = parameters.nonEmpty(name) { echoed.append((name, value)) }
        }

        switch choice {
        case .identity(let identity):
            let answer = identity.responseParameters(
                providerId: providerId, nonce: customParameters.first { $0.name == "nonce" }?.value)
            if let redirectUrl { return .redirect(to: RedirectURL.appending(answer + echoed, to: redirectUrl)) }
            let requestUri = "\(env.baseURL())\(path)?\(FormEncoding.encode(answer))"
            return .html(resultPage(
                title: "Signed in", message: "Send this URL to signInWithIdp as requestUri:", requestUri: requestUri))
        case .cancel:
            let answer = [("providerId", providerId), ("error", "access_denied"),
                          ("error_description", "The user cancelled the sign-in.")]
            if let redirectUrl { return .redirect(to: RedirectURL.appending(answer + echoed, to: redirectUrl)) }
            return .html(resultPage(title: "Sign-in cancelled", message: "You can close this page.", requestUri: nil))
        case nil:
            if choiceRequired {
                return .authEmulatorError("choose an account: give rawId, email, sub, generate or cancel")
            }
            let carried = parameters.lastValues.filter { !FakeIdentityChoice.parameterNames.contains($0.name) }
            // The form's fields are its body; the tenant must be in its URL to pick the accounts.
            var action = choosePath
            if let tenantId = project.tenantId { action += "?tenantId=\(PercentEncoding.encode(tenantId))" }
            let page = FakeIdpPage(
                providerId: providerId, action: action, carriedFields: carried, returnTarget: redirectUrl,
                scopes: (parameters["scopes"] ?? "").split(separator: ",").map(String.init),
                customParameters: customParameters, accounts: project.identities(providerId: providerId),
                loginHint: customParameters.first { $0.name == "login_hint" }?.value)
            return .html(page.render())
        }
    }

    /// `customParameters` is a JSON object; string values are kept, anything else is ignored.
    private static func customParameters(_ text: String?) -> [(name: String, value: String)] {
        guard let text, let object = (try? JSONValue.parse(Array(text.utf8)))?.objectValue else { return [] }
        return object.compactMap { entry in entry.value.stringValue.map { (entry.key, $0) } }
    }

    private static func resultPage(title: String, message: String, requestUri: String?) -> String {
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
            <p>\(HTML.escape(message))</p>

            """
        if let requestUri {
            html += "<p><label for=\"request-uri\">requestUri</label>"
            html += "<input id=\"request-uri\" type=\"text\" readonly value=\"\(HTML.escape(requestUri))\"></p>\n"
        }
        html += "</main>\n</body>\n</html>\n"
        return html
    }
}
