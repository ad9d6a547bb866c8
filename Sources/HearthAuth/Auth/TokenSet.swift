import HearthBackend

/// The tokens of one signed-in user.
package struct TokenSet: Equatable, Sendable {
    package var idToken: String
    package var refreshToken: String
    /// When the ID token expires, in ms since the Unix epoch (0: unknown, treated as expired).
    var expiresAtMs: Int64

    package init(idToken: String, refreshToken: String, expiresAtMs: Int64) {
        self.idToken = idToken
        self.refreshToken = refreshToken
        self.expiresAtMs = expiresAtMs
    }
}

/// When to refresh the ID token, and how to back off when refreshing fails. Pure: time comes in.
package struct TokenRefreshPolicy: Sendable {
    /// A cached token is handed out only if it stays valid this long (the iOS SDK's rule).
    var freshnessMarginMs: Int64 = 5 * 60 * 1000
    var initialBackoffMs: Int64 = 30 * 1000
    var maximumBackoffMs: Int64 = 16 * 60 * 1000

    package init() {}

    // The expiry comes from a server or a session file and may be anything: arithmetic
    // on it clamps instead of trapping.
    func needsRefresh(_ tokens: TokenSet, nowMs: Int64) -> Bool {
        tokens.expiresAtMs.clampedSubtracting(nowMs) <= freshnessMarginMs
    }

    /// How long until the proactive refresh should run (0: now).
    func proactiveDelayMs(_ tokens: TokenSet, nowMs: Int64) -> Int64 {
        max(0, tokens.expiresAtMs.clampedSubtracting(nowMs).clampedSubtracting(freshnessMarginMs))
    }

    /// The wait before retry number `attempt` (1-based): 30 s doubling to 16 min, with up to ±10%
    /// jitter (`jitter` in [-1, 1]) so that many clients offline together do not retry in step.
    func backoffMs(attempt: Int, jitter: Double) -> Int64 {
        let exponent = min(max(attempt - 1, 0), 30)
        let base = min(maximumBackoffMs, initialBackoffMs << Int64(exponent))
        let spread = Double(base) * 0.1 * min(max(jitter, -1), 1)
        return min(maximumBackoffMs, max(initialBackoffMs / 2, base + Int64(spread)))
    }
}

extension AuthError {
    /// The server says this session can never work again (user deleted or disabled, tokens revoked):
    /// the Firebase SDKs sign the user out on these, and so does Hearth.
    var isPermanentSessionFailure: Bool {
        switch code {
        case .userNotFound, .userDisabled, .userTokenExpired, .invalidUserToken: return true
        default: break
        }
        switch serverCode {
        case "INVALID_REFRESH_TOKEN", "TOKEN_EXPIRED", "USER_NOT_FOUND", "USER_DISABLED", "INVALID_ID_TOKEN":
            return true
        default:
            return false
        }
    }
}

extension Int64 {
    /// `self - other`, clamped to the representable range instead of trapping on overflow.
    func clampedSubtracting(_ other: Int64) -> Int64 {
        let (difference, overflow) = subtractingReportingOverflow(other)
        guard overflow else { return difference }
        return other < 0 ? .max : .min
    }

    /// `self * other`, clamped to the representable range instead of trapping on overflow.
    func clampedMultiplied(by other: Int64) -> Int64 {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        guard overflow else { return product }
        return (self < 0) == (other < 0) ? .max : .min
    }

    /// `self + other`, clamped to the representable range instead of trapping on overflow.
    func clampedAdding(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        guard overflow else { return sum }
        return other < 0 ? .min : .max
    }
}
