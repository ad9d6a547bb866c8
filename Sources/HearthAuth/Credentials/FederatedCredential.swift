import HearthBackend
import HearthWire

/// A credential from an identity provider: everything that signs in, links or reauthenticates through
/// `accounts:signInWithIdp`. Immutable; printing one shows the provider only.
///
/// Built freely (as the C++ SDK's `XxxAuthProvider::GetCredential` never fails); `validationError` says
/// before any request whether it can work at all.
package enum FederatedCredential: Sendable, Equatable {
    /// Google Sign-In: an ID token, an access token, or both (at least one).
    case google(idToken: String?, accessToken: String?)
    /// Facebook Login (classic): the user access token.
    case facebook(accessToken: String)
    /// Facebook Limited Login: the authentication token (an OIDC ID token) and the raw nonce whose
    /// SHA-256 the app gave Facebook (the server requires the nonce).
    case facebookLimitedLogin(idToken: String, rawNonce: String)
    /// Twitter (OAuth 1.0): the token and its secret, both required.
    case twitter(token: String, secret: String)
    /// GitHub: an OAuth access token.
    case gitHub(token: String)
    /// Google Play Games: the server auth code the Play Games sign-in returned (sent as `code=`).
    case playGames(serverAuthCode: String)
    /// Sign in with Apple: the identity token and the raw nonce whose SHA-256 went into the request to
    /// Apple. The authorization code, when given, goes as the access token (what the C++ and Flutter
    /// SDKs document for Apple); the full name, which Apple sends only on the first authorization,
    /// goes as the `user` JSON the iOS SDK sends.
    case apple(idToken: String, rawNonce: String, authorizationCode: String?, fullName: PersonName?)
    /// Any provider by id (microsoft.com, yahoo.com, `oidc.*`, …), an updated credential from the
    /// server, or a pending token.
    case oauth(OAuthCredential)
    /// The end of a provider sign-in flow: the redirect the IdP made.
    case idpRedirect(IdpRedirect)

    /// "google.com", "apple.com", the generic credential's own id, ...
    package var providerId: String {
        switch self {
        case .google: return ProviderID.google
        case .facebook, .facebookLimitedLogin: return ProviderID.facebook
        case .twitter: return ProviderID.twitter
        case .gitHub: return ProviderID.gitHub
        case .playGames: return ProviderID.playGames
        case .apple: return ProviderID.apple
        case .oauth(let credential): return credential.providerId
        case .idpRedirect(let redirect): return redirect.providerId
        }
    }
}

extension FederatedCredential: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    package var description: String { "FederatedCredential(\(providerId))" }
    package var debugDescription: String { description }
    package var customMirror: Mirror { Mirror(self, children: [], displayStyle: .enum) }
}

extension FederatedCredential {
    /// The raw nonce this credential's ID token was requested with, if any.
    package var rawNonce: String? {
        switch self {
        case .apple(_, let rawNonce, _, _), .facebookLimitedLogin(_, let rawNonce): return rawNonce
        case .oauth(let oauth): return oauth.rawNonce
        case .idpRedirect(let redirect):
            return redirect.postBody.flatMap { FormFields(parsing: Substring($0), plusIsSpace: true).first("nonce") }
        case .google, .facebook, .twitter, .gitHub, .playGames: return nil
        }
    }
}

extension AuthError {
    /// A conflict answer names the other account's credential but, for nonce-bound ID tokens, not
    /// always the raw nonce the client sent; without it that credential could never sign in. Hearth
    /// knows the nonce it sent, so it completes the answer.
    func carryingRawNonce(of credential: FederatedCredential) -> AuthError {
        guard let rawNonce = credential.rawNonce, case .object(var object)? = body, object["error"] == nil,
              object["nonce"] == nil else { return self }
        object["nonce"] = .string(rawNonce)
        var copy = self
        copy.body = .object(object)
        return copy
    }
}
