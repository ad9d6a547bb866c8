/// Who is calling, as the Firebase Auth Emulator decides it: an admin holding the fake OAuth token
/// `owner` (what the Admin SDKs send in emulator mode), an app holding any API key, or nobody.
struct Caller: Sendable, Equatable {
    enum Bearer: Sendable, Equatable {
        case none
        /// `owner` (any case) or a production service-account token (`ya29.`), both taken as admin.
        case admin
        /// Any other Bearer value: 401 where OAuth2 is accepted.
        case invalid
    }

    var bearer: Bearer
    var hasApiKey: Bool

    /// Admin rights count only where the operation accepts OAuth2; see `CallerAuthentication.authorize`.
    var isAdmin: Bool { bearer == .admin }

}

/// Which callers an operation accepts, from the `security` of its API description.
enum AccessPolicy: Sendable {
    /// OAuth2 or API key (almost every Identity Toolkit method).
    case apiKeyOrAdmin
    /// API key only (securetoken, passkeys).
    case apiKey
    /// No authentication (emulator-only routes).
    case open
}

enum CallerAuthentication {
    /// Reads `Authorization` (non-Bearer schemes are ignored) and the API key (`key` query parameter
    /// or `x-goog-api-key` header; any non-empty value is accepted, as by the reference).
    static func identify(authorization: String?, apiKeyHeader: String?, query: QueryParameters) -> Caller {
        var bearer = Caller.Bearer.none
        if let authorization, authorization.lowercased().hasPrefix("bearer ") {
            let token = authorization.dropFirst("bearer ".count)
            bearer = (token.lowercased() == "owner" || token.hasPrefix("ya29.")) ? .admin : .invalid
        }
        let key = query["key"] ?? apiKeyHeader
        return Caller(bearer: bearer, hasApiKey: !(key ?? "").isEmpty)
    }

    /// The caller as the operation sees it: admin rights are dropped where OAuth2 is not accepted.
    static func authorize(_ caller: Caller, for policy: AccessPolicy) throws(ApiError) -> Caller {
        switch policy {
        case .open:
            return Caller(bearer: .none, hasApiKey: caller.hasApiKey)
        case .apiKey:
            if !caller.hasApiKey { throw .missingApiKey }
            return Caller(bearer: .none, hasApiKey: true)
        case .apiKeyOrAdmin:
            if caller.bearer == .invalid { throw .invalidCredentials }
            if !caller.hasApiKey && !caller.isAdmin { throw .missingApiKey }
            return caller
        }
    }
}
