import FuzzSupport
@testable import HearthAuth
@testable import HearthBackend

// A session file as `Auth` loads it at start-up: any bytes (corrupt, truncated, tampered, another
// app's) either load as a session of this app or read as signed out. A loaded session re-encodes
// to one that loads the same, and its token schedule is computable whatever its expiry.

private let appName = "[DEFAULT]"
private let apiKey = "fuzz-api-key"

func fuzzOne(_ data: [UInt8]) {
    guard let session = PersistedSession.decode(data, appName: appName, apiKey: apiKey) else { return }
    let again = PersistedSession.decode(session.encoded(), appName: appName, apiKey: apiKey)
    fuzzCheck(again == session, "session changed in an encode/decode round trip")
    let policy = TokenRefreshPolicy()
    for nowMs: Int64 in [0, 1_763_000_000_000, .max] {
        _ = policy.needsRefresh(session.tokens, nowMs: nowMs)
        fuzzCheck(policy.proactiveDelayMs(session.tokens, nowMs: nowMs) >= 0, "negative refresh delay")
    }
    _ = try? JWTClaims(token: session.tokens.idToken)
}

@main enum Main { static func main() { fuzzMain("fuzz-persisted-session", fuzzOne) } }
