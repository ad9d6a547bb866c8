import HearthBackend
import HearthTransport

/// The signed-in user of one session: profile plus tokens.
struct Session: Equatable {
    var profile: UserProfile
    var tokens: TokenSet
}

/// Firebase Auth for one app. Public methods may be called from any thread: they post work to the
/// loop and return futures. Session state is guarded by a lock that is never held while host code,
/// I/O or the network runs.
package final class Auth: @unchecked Sendable {
    struct State {
        var session: Session?
        /// Bumps on every sign-in and sign-out: work started for an earlier user must not touch the
        /// current one.
        var generation: UInt64 = 0
        /// What every request is sent with; language and emulator live in it, so it is built once per
        /// change rather than per request.
        var backend: BackendConfig
        var languageCode: String? {
            get { backend.languageCode }
            set { backend.languageCode = newValue }
        }
        var emulator: EmulatorAddress? {
            get { backend.emulator }
            set { backend.emulator = newValue }
        }
        var tenantId: String? {
            get { backend.tenantId }
            set { backend.tenantId = newValue }
        }
        /// What listeners were last told, to call them only on real changes.
        var notifiedUid: String?
        var notifiedToken: String?
        var providerFlowSettings: ProviderFlowSettings?
        /// nil: disabled against the emulator (as Firebase's SDKs do), enabled in production.
        var appVerificationDisabledForTesting: Bool?
    }

    package let configuration: AppConfiguration
    package let dispatcher: CallbackDispatcher
    var loop: EventLoop { dispatcher.loop }

    let state: Locked<State>
    let store: SessionStore
    private let persistLock = Locked(())
    let operations = OperationTracker()
    let authStateListeners: ListenerRegistry
    let idTokenListeners: ListenerRegistry
    let policy = TokenRefreshPolicy()
    let nowMs: @Sendable () -> Int64

    /// Created on the loop thread on first use (libuv handles belong to the loop).
    private let makeTransport: (Auth) throws -> any HTTPTransport
    /// Loop-confined.
    private var backendInstance: Backend?
    lazy var refresher = TokenRefresher(auth: self)
    /// Loop-confined: the one pending provider flow.
    lazy var providerFlows = ProviderFlowRegistry(loop: loop)
    /// A copy of the pending flow's matcher, so hosts can ask "is this URL yours?" from any thread.
    let pendingRedirectMatcher = Locked<RedirectURLMatcher?>(nil)
    /// Loop-confined: codes sent recently, per number, and verifications in flight.
    lazy var phoneVerifications = PhoneVerificationCache()

    init(configuration: AppConfiguration, dispatcher: CallbackDispatcher, store: SessionStore,
         emulator: EmulatorAddress?, nowMs: @escaping @Sendable () -> Int64,
         makeTransport: @escaping (Auth) throws -> any HTTPTransport) {
        self.configuration = configuration
        self.dispatcher = dispatcher
        self.store = store
        self.nowMs = nowMs
        self.makeTransport = makeTransport
        self.authStateListeners = ListenerRegistry(dispatcher: dispatcher)
        self.idTokenListeners = ListenerRegistry(dispatcher: dispatcher)
        var initial = State(backend: BackendConfig(apiKey: configuration.apiKey, appId: configuration.appId,
                                                   emulator: emulator))
        // Loaded synchronously, so current_user is right from the first call and a sign-out right
        // after start sticks.
        let stored = store.load()
        if let bytes = stored,
           let saved = PersistedSession.decode(bytes, appName: configuration.appName, apiKey: configuration.apiKey) {
            initial.session = Session(profile: saved.user, tokens: saved.tokens)
            initial.notifiedUid = saved.user.uid
            initial.notifiedToken = saved.tokens.idToken
            // The restored user's tenant becomes the Auth's, as the Apple SDK does when it loads a saved
            // user: its requests then name the tenant the user belongs to, and a host that sets the same
            // tenant again after the start changes nothing.
            initial.tenantId = saved.user.tenantId
        } else if stored != nil {
            Log.warning("[\(configuration.appName)] the saved session could not be read (another app or API key, "
                        + "or damaged): starting signed out")
        }
        self.state = Locked(initial)
        operations.logLabel = "[\(configuration.appName)] "
    }

    /// Starts background work for a restored session (the proactive refresh timer).
    func start() {
        loop.execute { [self] in
            if state.current.session != nil { refresher.sessionChanged() }
        }
    }

    // MARK: - Configuration

    package func useEmulator(_ address: EmulatorAddress) {
        state.withLock { $0.emulator = address }
    }

    // The getters read one field under the lock: `state.current` copies the whole state (the session
    // and the backend configuration, a retain of each of their strings), and a sign-in reads the tenant.
    package var emulator: EmulatorAddress? { state.withLock { $0.emulator } }

    package var languageCode: String? {
        get { state.withLock { $0.languageCode } }
        set { state.withLock { $0.languageCode = (newValue?.isEmpty ?? true) ? nil : newValue } }
    }

    /// The Identity Platform tenant users sign in to (Firebase's `Auth.tenantId`); nil for the project's
    /// own users.
    package var tenantId: String? { state.withLock { $0.tenantId } }

    /// Sets `tenantId`. Requests sent afterwards name it; the signed-in user stays signed in, as in
    /// Firebase's SDKs (a user of another tenant then fails the requests that name the tenant with
    /// TENANT_ID_MISMATCH). A sign-in checks its user against the tenant when it completes, as they do,
    /// so one still running across a change fails with TENANT_ID_MISMATCH. An empty id is refused:
    /// Firebase has no tenant without a name, and "" is easily meant as "none", which is nil.
    package func setTenantId(_ tenantId: String?) throws(AuthError) {
        if let tenantId, tenantId.isEmpty {
            throw AuthError(code: .invalidArgument,
                            message: "The tenant id is empty (no tenant, the project's own users, is NULL).")
        }
        state.withLock { $0.tenantId = tenantId }
    }

    // MARK: - Current user

    package var currentUser: UserSnapshot? {
        state.withLock { $0.session?.profile }.map { UserSnapshot(profile: $0, auth: self) }
    }

    func snapshot(_ profile: UserProfile) -> UserSnapshot {
        UserSnapshot(profile: profile, auth: self)
    }

    /// Signs out now (from any thread); listeners are told on the loop.
    @discardableResult
    package func signOut() -> SessionStoreError? {
        endSession(ifGeneration: nil)
        return signOutStoreErase()
    }

    func signOutStoreErase() -> SessionStoreError? {
        let failure = persistLock.withLock { _ -> SessionStoreError? in
            do throws(SessionStoreError) {
                try store.erase()
                return nil
            } catch {
                return error
            }
        }
        // Logged with no lock held: the host's log callback may call back into Hearth.
        if let failure {
            Log.error("[\(configuration.appName)] the saved session could not be erased: \(failure.message)")
        }
        return failure
    }

    /// Clears the session (if it is still `generation`, when given), tells listeners, stops the
    /// refresh timer. Returns the new generation, or nil when nothing was signed in / it changed.
    @discardableResult
    func endSession(ifGeneration expected: UInt64?) -> UInt64? {
        let newGeneration: UInt64? = state.withLock { s in
            // A pattern, not `s.session != nil`, which copies the session out to compare it.
            guard case .some = s.session else { return nil }
            if let expected, s.generation != expected { return nil }
            s.session = nil
            s.generation += 1
            return s.generation
        }
        guard let newGeneration else { return nil }
        loop.execute { [self] in refresher.sessionChanged() }
        notifyListeners()
        return newGeneration
    }

    /// Makes `session` the signed-in user (a new sign-in), persists it and tells listeners.
    @discardableResult
    func installSession(_ session: Session) -> UInt64 {
        // A sign-in that finishes while the app is being destroyed must not resurrect a session.
        if dispatcher.isDestroyed { return 0 }
        let generation: UInt64 = state.withLock { s in
            s.session = session
            s.generation += 1
            return s.generation
        }
        persist(generation: generation)
        refresher.sessionChanged()
        notifyListeners()
        return generation
    }

    /// Applies a change to the same signed-in user (new tokens, new profile) if it is still
    /// `generation`. Returns the updated session, or nil when the user changed meanwhile.
    @discardableResult
    func updateSession(generation: UInt64, _ change: (inout Session) -> Void) -> Session? {
        let updated: Session? = state.withLock { s in
            guard s.generation == generation, var session = s.session else { return nil }
            change(&session)
            s.session = session
            return session
        }
        guard let updated else { return nil }
        persist(generation: generation)
        refresher.sessionChanged()
        notifyListeners()
        return updated
    }

    /// The signed-in user's tokens and session generation, nil when signed out: the session itself is
    /// not copied (a copy retains each of its strings; the token path asks several times per refresh).
    func currentTokens() -> (TokenSet, UInt64)? {
        state.withLock { s in
            guard case .some(let session) = s.session else { return nil }
            return (session.tokens, s.generation)
        }
    }

    /// `updateSession` for new tokens, changed in place (no copy of the session in and out of the
    /// lock). Returns whether `generation` was still the signed-in user.
    @discardableResult
    func updateTokens(generation: UInt64, _ tokens: TokenSet) -> Bool {
        let applied: Bool = state.withLock { s in
            guard s.generation == generation else { return false }
            // Assigned through the optional, nil when signed out: testing `s.session != nil` first copied the
            // whole session out and destroyed the copy (~700 instructions a refresh).
            return (s.session?.tokens = tokens) != nil
        }
        guard applied else { return false }
        persist(generation: generation)
        refresher.sessionChanged()
        notifyListeners()
        return true
    }

    /// Writes the session of `generation` if it is still the signed-in one. Serialized with
    /// sign-out's erase, so a late save can never resurrect a signed-out session.
    func persist(generation: UInt64) {
        if dispatcher.isDestroyed || !store.keepsSessions { return }
        let failure = persistLock.withLock { _ -> SessionStoreError? in
            let current: Session? = state.withLock { $0.generation == generation ? $0.session : nil }
            guard let session = current else { return nil }
            let record = PersistedSession(appName: configuration.appName, apiKey: configuration.apiKey,
                                          user: session.profile, tokens: session.tokens)
            // A failed save keeps the session for this run; it only won't survive a restart.
            do throws(SessionStoreError) {
                try store.save(record.encoded())
                return nil
            } catch {
                return error
            }
        }
        if let failure {
            Log.error("[\(configuration.appName)] the session could not be saved (it ends with this run): "
                      + failure.message)
        }
    }

    private func notifyListeners() {
        let (uidChanged, tokenChanged): (Bool, Bool) = state.withLock { s in
            let uid = s.session?.profile.uid
            let token = s.session?.tokens.idToken
            let result = (uid != s.notifiedUid, token != s.notifiedToken)
            s.notifiedUid = uid
            s.notifiedToken = token
            return result
        }
        if uidChanged {
            let uid = state.current.session?.profile.uid
            Log.info("[\(configuration.appName)] " + (uid.map { "signed in as \($0)" } ?? "signed out"))
            authStateListeners.notifyAll()
        }
        if tokenChanged || uidChanged { idTokenListeners.notifyAll() }
    }

    // MARK: - Listeners

    /// Nil once the app's destroy has begun. `release` runs once, after the listener's last call.
    package func addAuthStateListener(_ callback: @escaping @Sendable () -> Void,
                                     release: (@Sendable () -> Void)? = nil) -> UInt64? {
        authStateListeners.add(callback, release: release)
    }

    package func removeAuthStateListener(_ id: UInt64) -> Bool { authStateListeners.remove(id) }

    /// Nil once the app's destroy has begun. `release` runs once, after the listener's last call.
    package func addIdTokenListener(_ callback: @escaping @Sendable () -> Void,
                                   release: (@Sendable () -> Void)? = nil) -> UInt64? {
        idTokenListeners.add(callback, release: release)
    }

    package func removeIdTokenListener(_ id: UInt64) -> Bool { idTokenListeners.remove(id) }

    // MARK: - Operations plumbing

    package func lastResult(_ operation: Operation) -> FutureState? {
        operations.lastResult(operation)
    }

    /// Creates the future of `operation` and runs `body` on the loop thread.
    func perform(_ operation: Operation, _ body: @escaping (FutureState) -> Void) -> FutureState {
        let future = FutureState(dispatcher: dispatcher)
        operations.begin(operation, future)
        if dispatcher.isDestroyed {
            finish(future, .failure(AuthError(code: .appDestroyed, message: "The app was destroyed.")))
        } else if loop.acceptsInlineWork {
            // Called on the loop thread (a host loop, or inside a callback): the operation starts now
            // instead of a turn later. Its callbacks still run on a later turn (the dispatcher's rule).
            body(future)
        } else if !loop.execute({ body(future) }) {
            finish(future, .failure(AuthError(code: .cancelled, message: "The app was destroyed.")))
        }
        return future
    }

    /// A future that failed before any work started (bad arguments).
    func rejected(_ operation: Operation, _ error: AuthError) -> FutureState {
        let future = FutureState.failed(error, dispatcher: dispatcher)
        operations.begin(operation, future)
        return future
    }

    func finish(_ future: FutureState, _ result: FutureState.Outcome) {
        if Self.goesOnWithAuth(result) { future.auth = self }
        operations.finish(future, result)
    }

    /// A result the host continues with this Auth: a sign-in waiting for its second factor, or a
    /// multi-factor session.
    static func goesOnWithAuth(_ result: FutureState.Outcome) -> Bool {
        switch result {
        case .failure(let error): return error.code == .secondFactorRequired
        case .success(.multiFactorSession): return true
        case .success: return false
        }
    }

    /// Sends `rpc` with the configuration of the moment (language, emulator and tenant may change at any
    /// time). Loop thread. When HTTP cannot be set up the completion gets that error at once.
    func send<R: BackendRPC>(_ rpc: R, _ completion: @escaping (Result<R.Response, AuthError>) -> Void) {
        do throws(AuthError) {
            try backend().perform(rpc, config: backendConfiguration, completion: completion)
        } catch {
            completion(.failure(error))
        }
    }

    /// The backend, created on first use on the loop thread.
    private func backend() throws(AuthError) -> Backend {
        if let backendInstance { return backendInstance }
        do {
            let backend = Backend(transport: try makeTransport(self))
            backendInstance = backend
            return backend
        } catch let error as AuthError {
            throw error
        } catch let error as TransportSetupError {
            throw AuthError(code: .loopFailure, message: "Could not set up HTTP: \(error.reason)")
        } catch {
            throw AuthError(code: .loopFailure, message: "Could not set up HTTP: \(error)")
        }
    }

    /// Called on the loop thread while the app is destroyed, after `cancelPending`: stops what could
    /// still finish an operation or call the host.
    func shutdownOnLoop() {
        providerFlows.shutdown()
        phoneVerifications.abandonInFlight()
        pendingRedirectMatcher.withLock { $0 = nil }
        refresher.stop()
        backendInstance?.transport.close()
        backendInstance = nil
    }

    /// Completes every pending future as cancelled (any thread, during destroy, after the dispatcher is
    /// marked destroyed): their completion callbacks are then due, and run before the dispatcher
    /// finalizes. Listeners are called no more; their releases run when it finalizes.
    func cancelPending() {
        for future in operations.drainAll() {
            future.complete(.failure(AuthError(code: .cancelled, message: "The app was destroyed.")))
        }
        authStateListeners.removeAll()
        idTokenListeners.removeAll()
    }
}

extension Auth {
    /// Signs the user of `generation` out because its session is no longer valid (refresh token
    /// revoked, user deleted or disabled). Listeners are told; the stored session is erased.
    func expireSession(generation: UInt64) {
        guard endSession(ifGeneration: generation) != nil else { return }
        Log.warning("[\(configuration.appName)] the server ended the session (refresh token revoked, user deleted "
                    + "or disabled): signed out")
        _ = signOutStoreErase()
    }


    /// The session's tokens once the server issued `idToken` for `expiresIn` seconds, with `refreshToken`
    /// (nil or empty: the server kept the old one, `previous`'s).
    func tokenSet(idToken: String, refreshToken: String?, expiresIn: Int64?, previous: TokenSet? = nil) -> TokenSet {
        let kept = refreshToken.flatMap { $0.isEmpty ? nil : $0 } ?? previous?.refreshToken ?? ""
        return TokenSet(idToken: idToken, refreshToken: kept, expiresAtMs: expiry(idToken: idToken, expiresIn: expiresIn))
    }

    func tokenSet(_ issued: TokenResponse, previous: TokenSet? = nil) -> TokenSet {
        tokenSet(idToken: issued.idToken, refreshToken: issued.refreshToken, expiresIn: issued.expiresIn,
                 previous: previous)
    }

    /// When `idToken` expires, in ms since the epoch (its claims are decoded only when the answer had no
    /// `expiresIn`).
    private func expiry(idToken: String, expiresIn: Int64?) -> Int64 {
        if let seconds = expiresIn, seconds > 0 { return Self.expiryMs(expiresIn: seconds, claims: nil, nowMs: nowMs()) }
        return Self.expiryMs(expiresIn: nil, claims: try? JWTClaims(token: idToken), nowMs: 0)
    }

    /// `expiresIn` seconds from now, else the token's `exp`, in ms since the epoch; 0 (expired) when
    /// neither is known. Both come from the server, so an absurd value (`"expiresIn": "9223372036854775807"`)
    /// clamps to the far future or to 0 rather than trapping.
    static func expiryMs(expiresIn: Int64?, claims: JWTClaims?, nowMs: Int64) -> Int64 {
        if let seconds = expiresIn, seconds > 0 { return nowMs.clampedAdding(seconds.clampedMultiplied(by: 1000)) }
        if let exp = claims?.expiration { return max(0, exp.clampedMultiplied(by: 1000)) }
        return 0
    }
}

extension Auth {
    /// A future for `operation` that failed before any work started (bad arguments).
    package func rejectedOperation(_ operation: Operation, _ error: AuthError) -> FutureState {
        rejected(operation, error)
    }
}

extension Auth {
    /// What the backend needs for the next request (language and emulator may change any time).
    var backendConfiguration: BackendConfig {
        state.withLock { $0.backend }
    }
}
