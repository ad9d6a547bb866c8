import HearthBackend

/// A credential a host signs in or links with. Immutable; printing one shows the provider only.
///
/// Identity-provider credentials are `FederatedCredential`s (they all go through signInWithIdp).
package enum Credential: Sendable, Equatable {
    /// Email and password (provider "password").
    case emailPassword(email: String, password: String)
    /// Any identity provider (Google, Apple, Twitter, any OAuth/OIDC provider, a redirect result).
    case federated(FederatedCredential)
    /// A phone number proven by an SMS code (or a temporary proof from a conflict).
    case phone(PhoneCredentialValue)
    /// An email address proven by a sign-in link (provider "password", sign-in method "emailLink").
    case emailLink(EmailLinkCredential)

    package var providerId: String {
        switch self {
        case .emailPassword: return ProviderID.password
        case .federated(let credential): return credential.providerId
        case .phone: return ProviderID.phone
        case .emailLink: return ProviderID.password
        }
    }

    /// Why this credential cannot be sent as it is (an empty token, an unknown provider), if so.
    package var validationError: AuthError? {
        switch self {
        case .emailPassword(let email, let password):
            if email.isEmpty { return AuthError(code: .missingEmail, message: "An email address is required.") }
            if password.isEmpty { return AuthError(code: .missingPassword, message: "A password is required.") }
            return nil
        case .federated(let credential):
            return credential.validationError
        case .phone(let value):
            return value.validate()
        case .emailLink(let link):
            return link.validationError
        }
    }
}

extension Credential {
    /// The identity provider's tokens this credential carries (for hosts that need them, e.g. to
    /// call the provider's API with the access token the server returned).
    package var tokens: (idToken: String?, accessToken: String?, secret: String?) {
        switch self {
        case .emailPassword, .phone, .emailLink:
            return (nil, nil, nil)
        case .federated(let credential):
            switch credential {
            case .google(let idToken, let accessToken): return (idToken, accessToken, nil)
            case .facebook(let accessToken): return (nil, accessToken, nil)
            case .facebookLimitedLogin(let idToken, _): return (idToken, nil, nil)
            case .twitter(let token, let secret): return (nil, token, secret)
            case .gitHub(let token): return (nil, token, nil)
            case .playGames: return (nil, nil, nil)
            case .apple(let idToken, _, let code, _): return (idToken, code, nil)
            case .oauth(let oauth): return (oauth.idToken, oauth.accessToken, oauth.secret)
            case .idpRedirect: return (nil, nil, nil)
            }
        }
    }
}

extension Credential: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    package var description: String { "Credential(\(providerId))" }
    package var debugDescription: String { description }
    package var customMirror: Mirror { Mirror(self, children: [], displayStyle: .enum) }
}
