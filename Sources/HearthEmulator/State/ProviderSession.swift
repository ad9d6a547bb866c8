/// A provider sign-in flow createAuthUri started (hearth-emulator only): what the fake consent page
/// needs to show, where it sends the browser back, and what signInWithIdp checks the redirect against.
struct ProviderSession: Sendable {
    var sessionId: String
    var providerId: String
    /// Where the consent page redirects: the app's loopback receiver or custom-scheme URL.
    var continueUri: String
    /// Echoed in the redirect, as an OAuth `state`.
    var state: String
    var scopes: [String]
    /// createAuthUri's `customParameter`, e.g. `login_hint`, `nonce`, `tenant`, `prompt`, `lang`.
    var customParameters: [(name: String, value: String)]
    /// Seconds since the epoch.
    var createdAt: Int64
    /// signInWithIdp consumed the redirect; a second use is a replay.
    var isCompleted = false

    func customParameter(_ name: String) -> String? {
        customParameters.first { $0.name == name }?.value
    }

    /// The parameter `state` travels in. Twitter signs in with OAuth 1.0a through Firebase: its
    /// authorization URL carries a request token (`oauth_token`), which comes back with an
    /// `oauth_verifier`, or as `denied` on Cancel, and there is no `state`. The emulator keeps that
    /// shape so clients meet in testing what production sends them.
    var correlationParameter: String { Self.correlationParameter(providerId: providerId) }

    static func correlationParameter(providerId: String) -> String {
        providerId == "twitter.com" ? "oauth_token" : "state"
    }
}

/// Pending provider sessions by session id and by state. Sessions live an hour and at most
/// `capacity` are kept (the oldest go first), so a client that never finishes its flows cannot grow
/// the emulator without bound.
struct ProviderSessionBook: Sendable {
    static let lifetimeSeconds: Int64 = 3600
    static let capacity = 10_000

    private var sessions: [String: ProviderSession] = [:]
    private var sessionIdByState: [String: String] = [:]
    private var order: [String] = []

    /// Starts (or restarts, for a reused session id) a flow.
    mutating func add(_ session: ProviderSession) {
        removeExpired(now: session.createdAt)
        remove(sessionId: session.sessionId)
        sessions[session.sessionId] = session
        sessionIdByState[session.state] = session.sessionId
        order.append(session.sessionId)
        while order.count > Self.capacity, let oldest = order.first { remove(sessionId: oldest) }
    }

    func session(id: String, now: Int64) -> ProviderSession? {
        sessions[id].flatMap { isLive($0, now: now) ? $0 : nil }
    }

    func session(state: String, now: Int64) -> ProviderSession? {
        sessionIdByState[state].flatMap { session(id: $0, now: now) }
    }

    mutating func markCompleted(sessionId: String) {
        sessions[sessionId]?.isCompleted = true
    }

    private func isLive(_ session: ProviderSession, now: Int64) -> Bool {
        now - session.createdAt <= Self.lifetimeSeconds
    }

    private mutating func remove(sessionId: String) {
        guard let old = sessions.removeValue(forKey: sessionId) else { return }
        if sessionIdByState[old.state] == sessionId { sessionIdByState[old.state] = nil }
        order.removeAll { $0 == sessionId }
    }

    private mutating func removeExpired(now: Int64) {
        while let oldest = order.first, let session = sessions[oldest], !isLive(session, now: now) {
            remove(sessionId: oldest)
        }
    }
}
