import HearthWire

/// `/emulator/auth/consent` (hearth-emulator only): the fake identity provider a createAuthUri
/// `authUri` leads to. `GET ?sessionId=…` shows the page; choosing (the page's forms, or any GET or
/// POST that carries a choice, see `FakeIdentityChoice`) redirects (303) to the session's
/// `continueUri` with `providerId`, `id_token` (the claims as JSON) and `state`, or with
/// `error=access_denied` and `state` on Cancel. A test can skip the HTML: GET the `authUri` with
/// `&email=…` appended and follow the redirect.
enum ConsentPage {
    static let path = CreateAuthUri.consentPath
    static let choosePath = "\(path)/choose"

    static let pageOperation = Operation(
        "emulator.auth.consent", access: .open, queryTenant: ["tenantId"]
    ) { project, request throws(ApiError) in
        respond(to: request.query, choiceRequired: false, in: project, environment: request.environment)
    }

    static let chooseOperation = Operation(
        "emulator.auth.consent.choose", access: .open, queryTenant: ["tenantId"]
    ) { project, request throws(ApiError) in
        respond(to: request.query, choiceRequired: true, in: project, environment: request.environment)
    }

    static let choosePostOperation = Operation(
        "emulator.auth.consent.choose", access: .open, body: .form, queryTenant: ["tenantId"]
    ) { project, request throws(ApiError) in
        respond(to: request.query.merging(request.formFields), choiceRequired: true, in: project,
                environment: request.environment)
    }

    static func respond(
        to parameters: QueryParameters, choiceRequired: Bool, in project: ProjectState, environment env: EmulatorEnvironment
    ) -> Reply {
        guard let sessionId = parameters.nonEmpty("sessionId") else {
            return .authEmulatorError("missing sessionId query parameter: open the authUri createAuthUri returned")
        }
        guard let session = project.providerSessions.session(id: sessionId, now: env.clock.seconds) else {
            return .authEmulatorError("unknown or expired sessionId \(sessionId): start again with createAuthUri")
        }
        guard !session.isCompleted else {
            return .authEmulatorError("the sign-in session \(sessionId) was already completed: start again with createAuthUri")
        }

        let choice: FakeIdentityChoice?
        do throws(FakeIdentityChoice.Refusal) {
            choice = try FakeIdentityChoice.read(parameters, providerId: session.providerId, in: project)
        } catch {
            return .authEmulatorError(error.message)
        }
        switch choice {
        case .identity(let identity):
            var answer = identity.responseParameters(
                providerId: session.providerId, nonce: session.customParameter("nonce"))
            answer.append((session.correlationParameter, session.state))
            if session.correlationParameter == "oauth_token" {
                answer.append(("oauth_verifier", RandomID.base64URL(24)))
            }
            return .redirect(to: RedirectURL.appending(answer, to: session.continueUri))
        case .cancel:
            // OAuth 1.0a answers a refusal with the refused request token only.
            let answer = session.correlationParameter == "oauth_token"
                ? [("denied", session.state)]
                : [("error", "access_denied"), ("error_description", "The user cancelled the sign-in."),
                   ("state", session.state)]
            return .redirect(to: RedirectURL.appending(answer, to: session.continueUri))
        case nil:
            if choiceRequired {
                return .authEmulatorError("choose an account: give rawId, email, sub, generate or cancel")
            }
            let page = FakeIdpPage(
                providerId: session.providerId,
                action: project.tenantId.map { "\(choosePath)?tenantId=\(PercentEncoding.encode($0))" } ?? choosePath,
                carriedFields: [("sessionId", sessionId)],
                returnTarget: session.continueUri, scopes: session.scopes, customParameters: session.customParameters,
                accounts: project.identities(providerId: session.providerId),
                loginHint: session.customParameter("login_hint"))
            return .html(page.render())
        }
    }
}
