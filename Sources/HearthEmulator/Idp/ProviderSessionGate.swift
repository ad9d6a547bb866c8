/// Ties a signInWithIdp request to the createAuthUri flow its redirect came from (hearth-emulator
/// only; Firebase's emulator ignores `sessionId`). Production checks the session so that a redirect
/// cannot be completed by anyone but the client that started the flow (session fixation).
///
/// A redirect of the fake consent page carries the flow's `state` (Twitter's: `oauth_token`). Such a redirect needs the
/// `sessionId` createAuthUri returned, once. Requests that belong to no flow (fake credentials in
/// `postBody`, the `/emulator/auth/handler` widget's redirects) keep the reference's behaviour: their
/// `sessionId` is ignored, because Firebase's SDKs send ids the emulator never issued
/// (`ValueNotUsedByAuthEmulator` from the JS SDK, a random one from iOS).
enum ProviderSessionGate {
    static func check(
        sessionId: String?, parameters: IdpResponseParameters, in project: ProjectState, now: Int64
    ) throws(ApiError) -> ProviderSession? {
        if let sessionId, !sessionId.isEmpty, let session = project.providerSessions.session(id: sessionId, now: now) {
            guard !session.isCompleted else {
                throw invalid("The sign-in session \(sessionId) was already completed; start a new one with createAuthUri.")
            }
            let name = session.correlationParameter
            guard let state = parameters.nonEmpty(name) else {
                throw invalid("requestUri carries no \(name), so it is not the redirect of session \(sessionId).")
            }
            guard state == session.state else {
                throw invalid("The \(name) in requestUri does not match session \(sessionId).")
            }
            return session
        }
        let state = parameters.nonEmpty("state") ?? parameters.nonEmpty("oauth_token")
        if let state, project.providerSessions.session(state: state, now: now) != nil {
            if let sessionId, !sessionId.isEmpty {
                throw invalid("sessionId \(sessionId) was not issued by createAuthUri for this redirect.")
            }
            throw invalid("This redirect belongs to a createAuthUri session; send its sessionId.")
        }
        return nil
    }

    private static func invalid(_ detail: String) -> ApiError {
        .badRequest("INVALID_IDP_RESPONSE : ((\(detail)))")
    }
}
