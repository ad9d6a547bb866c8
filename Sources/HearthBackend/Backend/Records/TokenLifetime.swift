import HearthWire

/// How long a freshly issued ID token is valid, in seconds from receipt.
enum TokenLifetime {
    /// `expiresIn` (a string of seconds, or a number) when present and sane; otherwise the ID token's
    /// own `exp - iat` (what JS does for MFA finalize, which sends no expiresIn); nil when neither is
    /// known, which callers treat as already expired (what iOS does).
    static func seconds(expiresIn: JSONValue?, idToken: String) -> Int64? {
        if let value = expiresIn?.int64Value, value >= 0 { return value }
        if let lifetime = (try? JWTClaims(token: idToken))?.lifetime, lifetime >= 0 { return lifetime }
        return nil
    }
}
