/// A credential a host signs in or links with. Immutable; printing one shows the provider only.
///
/// Identity-provider credentials are `FederatedCredential`s (they all go through signInWithIdp).
public enum Credential: Sendable, Equatable {
    /// Email and password (provider "password").
    case emailPassword(email: String, password: String)

    public var providerId: String {
        switch self {
        case .emailPassword: return ProviderID.password
        }
    }
}

extension Credential: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "Credential(\(providerId))" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .enum) }
}
