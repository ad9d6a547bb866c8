import HearthBackend

/// A provider to sign in with through its own page (the desktop provider flow): provider id, scopes
/// and custom parameters (Firebase's FederatedOAuthProviderData).
package struct OAuthProvider: Sendable, Equatable {
    package let providerId: String
    package private(set) var scopes: [String] = []
    package private(set) var customParameters: [String: String] = [:]

    package init(providerId: String) {
        self.providerId = providerId
    }

    /// Identity providers Firebase offers a sign-in page for, plus any OIDC or SAML provider of the
    /// project ("oidc.*", "saml.*").
    static let pageProviders: Set<String> = [ProviderID.google, ProviderID.facebook, ProviderID.twitter,
                                             ProviderID.gitHub, ProviderID.apple, ProviderID.microsoft,
                                             ProviderID.yahoo]

    /// Why this provider cannot start a flow: an unknown provider id (the C++ SDK's
    /// kAuthErrorInvalidProviderId for "MadeUpProvider"), or a reserved custom parameter.
    package var validationError: AuthError? {
        let isOpenIDOrSAML = (providerId.hasPrefix("oidc.") || providerId.hasPrefix("saml.")) && providerId.count > 5
        guard Self.pageProviders.contains(providerId) || isOpenIDOrSAML else {
            return AuthError(code: .invalidProviderId,
                             message: "\"\(providerId)\" is not a provider that offers a sign-in page.")
        }
        return OAuthCustomParameters.validate(customParameters)
    }

    package mutating func addScope(_ scope: String) {
        if !scope.isEmpty && !scopes.contains(scope) { scopes.append(scope) }
    }

    /// Refuses parameters the flow sets itself (client_id, redirect_uri, ...).
    package mutating func setCustomParameter(_ name: String, _ value: String) -> AuthError? {
        if let error = OAuthCustomParameters.validate([name: value]) { return error }
        customParameters[name] = value
        return nil
    }
}
