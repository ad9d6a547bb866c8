/// A credential a host signs in or links with. Immutable.
public enum Credential: Sendable, Equatable {
    /// Email and password (provider "password").
    case emailPassword(email: String, password: String)

    public var providerId: String {
        switch self {
        case .emailPassword: return "password"
        }
    }
}
