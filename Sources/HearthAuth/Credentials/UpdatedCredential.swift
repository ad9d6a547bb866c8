import HearthBackend
import HearthTransport

/// The credential a signInWithIdp answer hands back (client-wire-reference §1.5, §4.3): on success, the
/// IdP tokens the server obtained (the C++ `AuthResult` credential); on FEDERATED_USER_ID_ALREADY_LINKED,
/// EMAIL_EXISTS or needConfirmation, a credential that signs in to the account that already owns the
/// identity (iOS `FIRAuthErrorUserInfoUpdatedCredentialKey`, JS `credentialFromError`, the C++
/// `AdditionalUserInfo::updated_credential`), together with the email the conflict is about.
package struct UpdatedCredential: Sendable, Equatable, Redacted {
    /// A generic OAuth credential for the answer's provider: `oauthIdToken`, `oauthAccessToken`,
    /// `oauthTokenSecret`, `nonce` (the raw nonce, as JS reads it) and `pendingToken`. Nil when the answer
    /// names no provider or carries none of those.
    ///
    /// iOS builds it only when one of the three oauth* fields is non-empty; JS also from a pending token
    /// alone. Hearth follows JS there: a pending token (SAML and other providers that return no tokens)
    /// is all that can sign in to the other account, and nothing else could be built from such an answer.
    package let credential: FederatedCredential?
    /// The IdP account's email (`email`).
    package let email: String?

    package init(response: IdpResponse) {
        email = response.email
        if let providerId = response.providerId, response.hasOAuthTokens || response.pendingToken != nil {
            credential = .oauth(OAuthCredential(providerId: providerId, idToken: response.oauthIdToken,
                                                accessToken: response.oauthAccessToken,
                                                secret: response.oauthTokenSecret, rawNonce: response.nonce,
                                                pendingToken: response.pendingToken))
        } else {
            credential = nil
        }
    }

    /// From a signInWithIdp error whose body is the 200 answer (see `AuthError.body`). Nil when the error
    /// carries no such body: an error envelope (a plain 4xx has nothing to build from, as on iOS), a
    /// transport failure, or a local check.
    package init?(error: AuthError) {
        guard case .object(let object)? = error.body, object["error"] == nil else { return nil }
        self.init(response: IdpResponse(decoding: object))
    }

    package var redactedSummary: String {
        "credential: \(credential.map { $0.providerId } ?? "nil"), email: \(email == nil ? "nil" : "present")"
    }
}
