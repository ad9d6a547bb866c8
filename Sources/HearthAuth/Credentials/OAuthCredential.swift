import HearthTransport

/// A generic OAuth 2.0 / OpenID Connect / OAuth 1.0 credential for any provider id: what
/// `OAuthProvider::GetCredential` builds (microsoft.com, yahoo.com, `oidc.*`, and apple.com or
/// google.com when the app prefers the generic form), and what the server hands back as the "updated
/// credential" of a sign-in or of an account conflict.
///
/// Empty strings count as absent.
package struct OAuthCredential: Sendable, Equatable, Redacted {
    package let providerId: String
    /// An OpenID Connect ID token from the provider (`id_token=`).
    package let idToken: String?
    /// An OAuth access token (`access_token=`).
    package let accessToken: String?
    /// An OAuth 1.0 token secret (`oauth_token_secret=`), only with an access token.
    package let secret: String?
    /// The raw (unhashed) nonce whose SHA-256 is the ID token's `nonce` claim (`nonce=`).
    package let rawNonce: String?
    /// A `pendingToken` from an earlier signInWithIdp answer; when present it stands for the whole
    /// IdP credential and the tokens above are not sent (client-wire-reference §4.3).
    package let pendingToken: String?

    package init(providerId: String, idToken: String? = nil, accessToken: String? = nil, secret: String? = nil,
                rawNonce: String? = nil, pendingToken: String? = nil) {
        self.providerId = providerId
        self.idToken = idToken.nonEmpty
        self.accessToken = accessToken.nonEmpty
        self.secret = secret.nonEmpty
        self.rawNonce = rawNonce.nonEmpty
        self.pendingToken = pendingToken.nonEmpty
    }

    /// Signs in again with what an earlier answer's `pendingToken` stands for.
    package static func pending(providerId: String, pendingToken: String) -> OAuthCredential {
        OAuthCredential(providerId: providerId, pendingToken: pendingToken)
    }

    package var redactedSummary: String {
        var parts = ["providerId: \(providerId)"]
        if idToken != nil { parts.append("idToken") }
        if accessToken != nil { parts.append("accessToken") }
        if secret != nil { parts.append("secret") }
        if rawNonce != nil { parts.append("rawNonce") }
        if pendingToken != nil { parts.append("pendingToken") }
        return parts.joined(separator: ", ")
    }
}

extension Optional where Wrapped == String {
    /// The string when present and not empty.
    var nonEmpty: String? {
        guard let self, !self.isEmpty else { return nil }
        return self
    }
}
