import HearthBackend
import HearthTransport

/// Keeps the ID token fresh. Loop-confined. Concurrent requests for a fresh token share one refresh;
/// while a user is signed in a timer refreshes ahead of expiry; transient failures back off (30 s
/// doubling to 16 min, jittered); permanent ones sign the user out.
final class TokenRefresher {
    private unowned let auth: Auth
    private var waiters = RefreshWaiters()
    private var timer: LoopTimer?
    /// What the timer was last armed for: its deadline on `auth.nowMs`'s clock and the session.
    private var armed: (deadlineMs: Int64, generation: UInt64)?
    /// How much later a new deadline for the same session may be and still leave the armed timer as it is.
    static let rearmToleranceMs: Int64 = 1_000
    private var consecutiveFailures = 0
    private var failingGeneration: UInt64 = 0
    private var lastSuccessMs: Int64 = .min
    private var stopped = false
    /// After a refresh, wait at least this long before a proactive one, even if the server hands out
    /// tokens that are already inside the freshness margin (so the timer can never spin).
    static let minimumProactiveIntervalMs: Int64 = 30_000

    init(auth: Auth) {
        self.auth = auth
    }

    /// The current ID token, refreshed first when it expires within 5 minutes or `force` is set.
    func token(force: Bool, _ completion: @escaping (Result<String, AuthError>) -> Void) {
        // The tokens alone, not the whole session: every copy of a session retains each of its strings.
        guard let (tokens, generation) = auth.currentTokens() else {
            return completion(.failure(AuthError(code: .noSignedInUser, message: "No user is signed in.")))
        }
        if !force && !auth.policy.needsRefresh(tokens, nowMs: auth.nowMs()) {
            return completion(.success(tokens.idToken))
        }
        if !waiters.add(completion, for: generation) { refresh(refreshToken: tokens.refreshToken, generation: generation) }
    }

    private func refresh(refreshToken: String, generation: UInt64) {
        guard !stopped else {
            return answer(generation, .failure(AuthError(code: .cancelled, message: "The app was destroyed.")))
        }
        auth.send(SecureTokenRefresh(refreshToken: refreshToken)) { [weak self] result in
            self?.refreshed(result, previousRefreshToken: refreshToken, generation: generation)
        }
    }

    private func refreshed(_ result: Result<SecureTokenRefresh.Response, AuthError>, previousRefreshToken: String,
                           generation: UInt64) {
        switch result {
        case .success(let issued):
            // The server may rotate the refresh token; the old one stays when it sends none.
            let tokens = auth.tokenSet(idToken: issued.idToken,
                                       refreshToken: issued.refreshToken.flatMap { $0.isEmpty ? nil : $0 }
                                           ?? previousRefreshToken,
                                       expiresIn: issued.expiresIn)
            consecutiveFailures = 0
            lastSuccessMs = auth.nowMs()
            auth.updateTokens(generation: generation, tokens)
            answer(generation, .success(tokens.idToken))
        case .failure(let error):
            if error.isPermanentSessionFailure {
                auth.expireSession(generation: generation)
            } else {
                scheduleRetry(generation: generation)
            }
            answer(generation, .failure(error))
        }
    }

    private func answer(_ generation: UInt64, _ result: Result<String, AuthError>) {
        waiters.take(generation)?.answer(result)
    }

    /// Re-arms the proactive timer for the current session (or stops it when signed out).
    func sessionChanged() {
        guard !stopped else { return }
        guard let (tokens, generation) = auth.currentTokens() else {
            timer?.stop()
            consecutiveFailures = 0
            return
        }
        // A backoff for this same user is already scheduled; a new user starts healthy.
        if consecutiveFailures > 0 && failingGeneration == generation { return }
        consecutiveFailures = 0
        let now = auth.nowMs()
        var delay = auth.policy.proactiveDelayMs(tokens, nowMs: now)
        if lastSuccessMs != .min {
            delay = max(delay, lastSuccessMs + Self.minimumProactiveIntervalMs - now)
        }
        arm(afterMs: delay, generation: generation)
    }

    private func scheduleRetry(generation: UInt64) {
        guard !stopped, auth.state.current.generation == generation else { return }
        if failingGeneration != generation { consecutiveFailures = 0 }
        failingGeneration = generation
        consecutiveFailures += 1
        let delay = auth.policy.backoffMs(attempt: consecutiveFailures, jitter: Double.random(in: -1...1))
        arm(afterMs: delay, generation: generation)
    }

    private func arm(afterMs delay: Int64, generation: UInt64) {
        let timer = self.timer ?? auth.loop.makeTimer()
        self.timer = timer
        let deadlineMs = auth.nowMs() &+ max(0, delay)
        // Every refresh moves the deadline on by about the time since the last one: a timer already armed
        // for this user less than a second earlier is left as it is (it fires that much early), rather
        // than re-armed with a new closure after every forced refresh.
        if let armed, armed.generation == generation, timer.isActive,
           deadlineMs >= armed.deadlineMs, deadlineMs - armed.deadlineMs < Self.rearmToleranceMs {
            return
        }
        armed = (deadlineMs, generation)
        timer.start(afterMs: UInt64(max(0, delay))) { [weak self] in
            self?.proactiveRefresh(generation: generation)
        }
    }

    private func proactiveRefresh(generation: UInt64) {
        guard let (tokens, current) = auth.currentTokens(), current == generation, !waiters.isRunning(generation) else { return }
        waiters.start(generation)
        refresh(refreshToken: tokens.refreshToken, generation: generation)
    }

    /// The number of failed refreshes in a row (0 when healthy).
    var failureCount: Int { consecutiveFailures }

    /// When the proactive refresh is due (on `auth.nowMs`'s clock), nil when none is armed (tests).
    var proactiveDeadlineMs: Int64? { timer?.isActive == true ? armed?.deadlineMs : nil }

    func stop() {
        stopped = true
        timer?.close()
        timer = nil
        for refresh in waiters.takeAll() {
            refresh.answer(.failure(AuthError(code: .cancelled, message: "The app was destroyed.")))
        }
    }
}
