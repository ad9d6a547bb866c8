/// The provider ids a provider flow can start with (createAuthUri `providerId`): Firebase's
/// built-in providers, and configured OIDC and SAML providers, whose ids carry those prefixes.
enum IdentityProviders {
    static let builtIn: [String: String] = [
        "google.com": "Google", "facebook.com": "Facebook", "twitter.com": "Twitter", "github.com": "GitHub",
        "apple.com": "Apple", "microsoft.com": "Microsoft", "yahoo.com": "Yahoo",
        "playgames.google.com": "Play Games", "gc.apple.com": "Game Center",
    ]

    static func isSupported(_ providerId: String) -> Bool {
        if builtIn[providerId] != nil { return true }
        for prefix in ["oidc.", "saml."] where providerId.hasPrefix(prefix) {
            return providerId.count > prefix.count
        }
        return false
    }

    /// How the fake provider pages name the provider.
    static func displayName(_ providerId: String) -> String {
        builtIn[providerId] ?? providerId
    }
}
