import HearthBackend
import HearthWire

/// Decides whether a URL handed back to the app (`hearth_auth_handle_url`, Firebase's
/// `canHandle(url)`, or a request the loopback receiver got) is the answer of the pending provider
/// flow.
///
/// A URL is addressed to the flow when its scheme and authority equal the redirect target's and its
/// path is the target's or below it. It is the flow's answer only if it carries the flow's `state`:
/// every `state` found in the query, the form body and the fragment must equal the expected one,
/// and at least one must be present. A repeated `state` with another value is rejected rather than
/// guessed at (an attacker controls what the browser appends). Only then are IdP errors honoured,
/// so a forged `error=access_denied` cannot end someone's sign-in.
///
/// OAuth 1.0a providers (Twitter through Firebase's createAuthUri) send no `state`: their
/// authorization URL carries a request token, `oauth_token`, which comes back with the verifier, or
/// as `denied` when the user refuses. For them the matcher correlates on that token instead.
package struct RedirectURLMatcher: Sendable {
    /// The redirect target as given (continueUri / the loopback receiver's `redirectURI`).
    let redirectTarget: String
    /// nil until known (e.g. read from createAuthUri's `authUri` after the target was chosen); until
    /// then every addressed URL is `.rejected`.
    var expectedState: String?
    /// The parameter that carries `expectedState` back: `state`, or `oauth_token` for OAuth 1.0a.
    var correlationParameter: String = RedirectURLMatcher.stateParameter
    private let target: RedirectURL

    static let stateParameter = "state"
    static let oauth1TokenParameter = "oauth_token"

    /// Throws `.invalidArgument` if `redirectTarget` is not an absolute URL.
    package init(redirectTarget: String, expectedState: String?) throws(AuthError) {
        guard let target = RedirectURL(parsing: redirectTarget) else {
            throw AuthError(code: .invalidArgument,
                            message: "The redirect target must be an absolute URL such as com.example.app:/oauth or http://127.0.0.1:PORT/path.")
        }
        self.redirectTarget = redirectTarget
        self.target = target
        self.expectedState = expectedState
    }

    /// - Parameters:
    ///   - url: the URL the browser was sent to. Any text: garbage is `.notOurs`.
    ///   - postBody: the `application/x-www-form-urlencoded` body when the IdP posted its answer
    ///     (`response_mode=form_post`); '+' there means a space.
    package func match(url: String, postBody: String? = nil) -> RedirectMatch {
        guard let incoming = RedirectURL(parsing: url), target.covers(incoming) else { return .notOurs }
        let bodyFields = FormFields(parsing: Substring(postBody ?? ""), plusIsSpace: true)
        // Query first, then the form body, then the fragment: where each kind of IdP puts its answer.
        let fields = incoming.queryFields.appending(bodyFields).appending(incoming.fragmentFields)

        if correlationParameter == Self.oauth1TokenParameter, fields.values(of: correlationParameter).isEmpty,
           let denied = fields.first("denied"), let expectedState,
           Self.constantTimeEqual(Array(denied.utf8), Array(expectedState.utf8)) {
            // OAuth 1.0a: the user refused this very request token.
            return .failed(RedirectErrorMapping.oauthError(code: "access_denied", description: nil))
        }
        if let problem = stateProblem(fields.values(of: correlationParameter)) {
            return .rejected(AuthError(code: .invalidArgument, message: problem))
        }
        if let firebaseError = fields.first("firebaseError") {
            return .failed(RedirectErrorMapping.firebaseError(json: firebaseError))
        }
        if let error = fields.first("error") {
            return .failed(RedirectErrorMapping.oauthError(code: error, description: fields.first("error_description")))
        }
        return .consumed(RedirectResponse(url: String(RedirectURL.trimmed(url)), postBody: postBody))
    }

    private func stateProblem(_ states: [String]) -> String? {
        guard let expectedState, !expectedState.isEmpty else {
            return "No provider sign-in is waiting for this redirect yet."
        }
        if states.isEmpty {
            return "The redirect carries no \(correlationParameter), so it cannot be matched to the pending sign-in."
        }
        let expected = Array(expectedState.utf8)
        guard states.allSatisfy({ Self.constantTimeEqual(Array($0.utf8), expected) }) else {
            return "The redirect's \(correlationParameter) does not match the pending sign-in (a stale, replayed or forged redirect)."
        }
        return nil
    }

    /// Compares without an early exit on the first differing byte, so response timing does not
    /// reveal how much of a guessed state was right.
    static func constantTimeEqual(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for index in lhs.indices { difference |= lhs[index] ^ rhs[index] }
        return difference == 0
    }
}
