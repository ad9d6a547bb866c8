/// The token triple sign-in responses carry.
struct IssuedTokens: Sendable {
    var idToken: String
    var refreshToken: String
    /// Seconds, as a string ("3600"), wherever it appears.
    var expiresIn: String
}
