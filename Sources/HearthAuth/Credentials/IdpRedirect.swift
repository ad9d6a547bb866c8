import HearthTransport

/// What an identity provider's redirect carried back at the end of a provider sign-in flow
/// (createAuthUri's `authUri`, or the emulator's `/emulator/auth/handler`): the URL the browser was sent
/// to, and the body the IdP posted there when it used `response_mode=form_post`.
package struct IdpRedirect: Sendable, Equatable, Redacted {
    package let providerId: String
    /// The full URL the IdP redirected to (the flow's continue URI with the IdP's query), sent as
    /// signInWithIdp `requestUri`.
    package let requestUri: String
    /// The `sessionId` createAuthUri returned (or the one the flow chose); the server checks it against
    /// the flow it started, which defeats session fixation. Empty counts as absent.
    package let sessionId: String?
    /// The IdP's form POST body, sent verbatim as `postBody`. Empty counts as absent.
    package let postBody: String?

    package init(providerId: String, requestUri: String, sessionId: String?, postBody: String? = nil) {
        self.providerId = providerId
        self.requestUri = requestUri
        self.sessionId = sessionId.nonEmpty
        self.postBody = postBody.nonEmpty
    }

    package var redactedSummary: String { "providerId: \(providerId)" }
}
