/// Provider ids as the server spells them (the C++ SDK's `kProviderId` constants).
package enum ProviderID {
    package static let password = "password"
    package static let phone = "phone"
    package static let google = "google.com"
    package static let facebook = "facebook.com"
    package static let twitter = "twitter.com"
    package static let gitHub = "github.com"
    package static let playGames = "playgames.google.com"
    package static let apple = "apple.com"
    package static let microsoft = "microsoft.com"
    package static let yahoo = "yahoo.com"
    static let gameCenter = "gc.apple.com"

    /// Ids that name a Firebase sign-in method rather than an identity provider: signInWithIdp cannot
    /// take them (their credentials go through their own RPCs).
    package static let notIdentityProviders: Set<String> = [password, phone, gameCenter, "emailLink", "anonymous", "custom", "firebase"]
}
