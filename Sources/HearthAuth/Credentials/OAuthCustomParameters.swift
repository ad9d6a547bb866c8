import HearthBackend

/// Custom parameters of a provider sign-in flow: extra query parameters for the IdP's authorization
/// URL (Microsoft `tenant`, `prompt`, `login_hint`; Twitter `lang`; Apple `locale`; ...).
package enum OAuthCustomParameters {
    /// Parameters the flow itself sets. The REST reference reserves client_id, response_type, scope,
    /// redirect_uri and state; response_mode decides how the IdP answers (query or form post), which
    /// the redirect receiver depends on. Compared without regard to case, since some IdPs read
    /// parameter names that way.
    static let reserved: [String] = ["client_id", "redirect_uri", "response_mode", "response_type", "scope", "state"]

    /// Nil when every parameter may be sent; otherwise `.invalidArgument` naming the first offending
    /// name in sorted order (an empty name, a reserved one, or one with control characters).
    static func validate(_ parameters: [String: String]) -> AuthError? {
        for name in parameters.keys.sorted() {
            if name.isEmpty {
                return AuthError(code: .invalidArgument, message: "A custom parameter needs a name.")
            }
            if reserved.contains(name.lowercased()) {
                return AuthError(code: .invalidArgument,
                                 message: "The custom parameter \"\(name)\" is reserved: the sign-in flow sets it itself.")
            }
            if name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
                return AuthError(code: .invalidArgument, message: "A custom parameter name contains a control character.")
            }
        }
        return nil
    }
}
