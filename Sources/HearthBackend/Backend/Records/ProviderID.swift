/// Provider ids as the server spells them (the C++ SDK's `kProviderId` constants).
public enum ProviderID {
    public static let password = "password"
    public static let phone = "phone"
    public static let google = "google.com"
    public static let facebook = "facebook.com"
    public static let twitter = "twitter.com"
    public static let gitHub = "github.com"
    public static let playGames = "playgames.google.com"
    public static let apple = "apple.com"
    public static let microsoft = "microsoft.com"
    public static let yahoo = "yahoo.com"
    public static let gameCenter = "gc.apple.com"

    /// Ids that name a Firebase sign-in method rather than an identity provider: signInWithIdp cannot
    /// take them (their credentials go through their own RPCs).
    package static let notIdentityProviders: Set<String> = [password, phone, gameCenter, "emailLink", "anonymous", "custom", "firebase"]
}
