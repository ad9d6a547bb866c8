import HearthBackend
import HearthTransport

/// What came back to the app at the end of a provider flow: the URL the browser was redirected to
/// (with the IdP's query and/or fragment) and, when the IdP answered with
/// `response_mode=form_post` (Apple does), the form body it posted there. These become
/// signInWithIdp's `requestUri` and `postBody` (`IdpRedirect`).
///
/// Both hold authorization codes or tokens: printing one shows neither.
package struct RedirectResponse: Sendable, Equatable, Redacted {
    package let url: String
    package let postBody: String?

    package init(url: String, postBody: String? = nil) {
        self.url = url
        self.postBody = postBody
    }

    package var redactedSummary: String {
        let place = RedirectURL(parsing: url).map { "\($0.scheme):\($0.authority.map { "//\($0)" } ?? "")\($0.path)" }
        return "url: \(place ?? "?"), postBody: \(postBody.map { "\($0.utf8.count) bytes" } ?? "none")"
    }
}

/// How a redirect that was meant for the pending flow relates to it.
package enum RedirectMatch: Sendable, Equatable {
    /// Not addressed to the flow's redirect target (another scheme, host or path; not a URL at all).
    case notOurs
    /// The flow's answer: the state matches and the IdP reported no error.
    case consumed(RedirectResponse)
    /// The flow's answer, and it is a failure the flow ends with: the state matches but the IdP
    /// (`error=`) or Firebase's handler (`firebaseError=`) reported an error.
    case failed(AuthError)
    /// Addressed to the redirect target but not this flow's answer (missing or wrong `state`: stale,
    /// replayed or forged). The flow keeps waiting; the error (code `.invalidArgument`) says why.
    case rejected(AuthError)
}
