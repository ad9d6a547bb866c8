import XCTest
@testable import HearthCore

/// An identity service whose answers the test controls. Calls arrive on the loop thread; answers
/// are delivered there too.
final class FakeIdentityService: IdentityService, @unchecked Sendable {
    let loop: EventLoop
    private let lock = Locked<(refreshes: [String], pending: [(Result<IssuedTokens, AuthError>) -> Void])>(([], []))
    var refreshAnswer: (() -> Result<IssuedTokens, AuthError>)?
    var lookupRecord: AccountRecord

    init(loop: EventLoop, uid: String) {
        self.loop = loop
        self.lookupRecord = AccountRecord(localId: uid, email: "\(uid)@example.com", hasPassword: true)
    }

    var refreshCount: Int { lock.withLock { $0.refreshes.count } }
    var refreshedWith: [String] { lock.withLock { $0.refreshes } }

    /// Answers every refresh waiting so far (on the loop).
    func answerRefreshes(_ result: Result<IssuedTokens, AuthError>) {
        let pending = lock.withLock { state -> [(Result<IssuedTokens, AuthError>) -> Void] in
            defer { state.pending.removeAll() }
            return state.pending
        }
        loop.execute { for completion in pending { completion(result) } }
    }

    func refresh(refreshToken: String, _ completion: @escaping (Result<IssuedTokens, AuthError>) -> Void) {
        lock.withLock {
            $0.refreshes.append(refreshToken)
            $0.pending.append(completion)
        }
    }

    func signUp(_ request: SignUpParameters, _ completion: @escaping (Result<IssuedTokens, AuthError>) -> Void) {
        completion(.success(IssuedTokens(idToken: "id-new", refreshToken: "r-new", expiresIn: 3600, localId: "u")))
    }
    func signInWithPassword(email: String, password: String, _ completion: @escaping (Result<IssuedTokens, AuthError>) -> Void) {
        completion(.failure(AuthError(code: .wrongPassword)))
    }
    func signInWithCustomToken(_ token: String, _ completion: @escaping (Result<IssuedTokens, AuthError>) -> Void) {
        completion(.failure(AuthError(code: .invalidCustomToken)))
    }
    func lookup(idToken: String, _ completion: @escaping (Result<AccountRecord, AuthError>) -> Void) {
        completion(.success(lookupRecord))
    }
    func update(idToken: String, _ changes: AccountChanges, _ completion: @escaping (Result<AccountUpdateResult, AuthError>) -> Void) {
        updates.append(changes)
        completion(.success(AccountUpdateResult()))
    }
    func deleteAccount(idToken: String, _ completion: @escaping (Result<Void, AuthError>) -> Void) {
        completion(.success(()))
    }
    func sendOobCode(_ request: OobCodeRequest, settings: ActionCodeSettings?,
                     _ completion: @escaping (Result<Void, AuthError>) -> Void) {
        completion(.success(()))
    }
    func signInMethods(forEmail email: String, _ completion: @escaping (Result<[String], AuthError>) -> Void) {
        completion(.success(["password"]))
    }
    /// What signInWithIdp answers (default: tokens of `idpSubject`).
    var idpAnswer: Result<IdpSignIn, AuthError>?
    var idpRequests: [SignInWithIdp] = []
    var updates: [AccountChanges] = []

    func signInWithIdp(_ request: SignInWithIdp, _ completion: @escaping (Result<IdpSignIn, AuthError>) -> Void) {
        idpRequests.append(request)
        completion(idpAnswer ?? .failure(AuthError(code: .invalidCredential)))
    }
    func createAuthUri(_ request: CreateAuthUriForProvider,
                       _ completion: @escaping (Result<CreateAuthUriForProvider.Response, AuthError>) -> Void) {
        completion(.failure(AuthError(code: .invalidProviderId)))
    }
    /// Phone codes sent (sendVerificationCode requests), answered with verification ids "v1", "v2", ...
    var sentCodes: [SendVerificationCode] = []

    func call<R: BackendRPC>(_ rpc: R, _ completion: @escaping (Result<R.Response, AuthError>) -> Void) {
        if let send = rpc as? SendVerificationCode {
            sentCodes.append(send)
            if let answer = PhoneSessionInfo(sessionInfo: "v\(sentCodes.count)") as? R.Response {
                return completion(.success(answer))
            }
        }
        completion(.failure(AuthError(code: .failure, message: "the fake does not answer \(R.self)")))
    }

    func shutdown() {}
}

final class AuthSessionTests: XCTestCase {
    var loop: EventLoop!
    var store: MemorySessionStore!
    var clock: Locked<Int64>!
    var service: FakeIdentityService!
    let minute: Int64 = 60_000

    override func setUpWithError() throws {
        loop = try EventLoop.makeOwned()
        store = MemorySessionStore()
        clock = Locked(1_000 * minute)
    }

    override func tearDown() {
        loop.shutdown()
    }

    private func saveSession(idToken: String = "id-1", refreshToken: String = "r-1", expiresAtMs: Int64) throws {
        var profile = UserProfile(uid: "user-1")
        profile.email = "user-1@example.com"
        let session = PersistedSession(appName: "[DEFAULT]", apiKey: "key", user: profile,
                                       tokens: TokenSet(idToken: idToken, refreshToken: refreshToken, expiresAtMs: expiresAtMs))
        try store.save(session.encoded())
    }

    private func makeAuth() -> Auth {
        let clock = self.clock!
        let service = FakeIdentityService(loop: loop, uid: "user-1")
        self.service = service
        let auth = Auth(configuration: AppConfiguration(apiKey: "key"), dispatcher: CallbackDispatcher(loop: loop),
                        store: store, emulator: nil, nowMs: { clock.current }) { _ in service }
        auth.start()
        return auth
    }

    private func waitUntil(_ condition: () -> Bool, file: StaticString = #filePath, line: UInt = #line) {
        for _ in 0..<500 where !condition() { usleep(2_000) }
        XCTAssertTrue(condition(), "condition not met in time", file: file, line: line)
    }

    func testAPersistedSessionIsTheCurrentUserAsSoonAsAuthExists() throws {
        try saveSession(expiresAtMs: clock.current + 60 * minute)
        let auth = makeAuth()
        XCTAssertEqual(auth.currentUser?.uid, "user-1")
        XCTAssertEqual(auth.currentUser?.profile.email, "user-1@example.com")
    }

    func testSignOutRightAfterStartSticksAcrossRestarts() throws {
        try saveSession(expiresAtMs: clock.current + 60 * minute)
        let auth = makeAuth()
        XCTAssertNil(auth.signOut())
        XCTAssertNil(auth.currentUser)
        XCTAssertNil(store.load())
        XCTAssertNil(makeAuth().currentUser)
    }

    func testAFreshCachedTokenIsReturnedWithoutAnyRequest() throws {
        try saveSession(expiresAtMs: clock.current + 60 * minute)
        let auth = makeAuth()
        let future = auth.getToken(uid: "user-1", forceRefresh: false)
        XCTAssertEqual(future.wait(timeoutMs: 2_000), .complete)
        guard case .success(.string(let token))? = future.result else { return XCTFail("no token") }
        XCTAssertEqual(token, "id-1")
        XCTAssertEqual(service.refreshCount, 0)
    }

    func testConcurrentRefreshesCoalesceIntoOneRequest() throws {
        try saveSession(expiresAtMs: clock.current + 2 * minute)  // inside the 5-minute margin
        let auth = makeAuth()
        let futures = (0..<5).map { _ in auth.getToken(uid: "user-1", forceRefresh: false) }
            + [auth.getToken(uid: "user-1", forceRefresh: true)]
        waitUntil { service.refreshCount >= 1 }
        usleep(20_000)
        XCTAssertEqual(service.refreshCount, 1)
        service.answerRefreshes(.success(IssuedTokens(idToken: "id-2", refreshToken: "r-2", expiresIn: 3600)))
        for future in futures {
            XCTAssertEqual(future.wait(timeoutMs: 2_000), .complete)
            guard case .success(.string(let token))? = future.result else { return XCTFail("no token") }
            XCTAssertEqual(token, "id-2")
        }
    }

    func testARotatedRefreshTokenIsPersistedAndUsedNextTime() throws {
        try saveSession(expiresAtMs: clock.current + 60 * minute)
        let auth = makeAuth()
        let first = auth.getToken(uid: "user-1", forceRefresh: true)
        waitUntil { service.refreshCount == 1 }
        service.answerRefreshes(.success(IssuedTokens(idToken: "id-2", refreshToken: "r-rotated", expiresIn: 3600)))
        XCTAssertEqual(first.wait(timeoutMs: 2_000), .complete)
        let saved = PersistedSession.decode(try XCTUnwrap(store.load()), appName: "[DEFAULT]", apiKey: "key")
        XCTAssertEqual(saved?.tokens.refreshToken, "r-rotated")
        XCTAssertEqual(saved?.tokens.idToken, "id-2")
        XCTAssertEqual(saved?.tokens.expiresAtMs, clock.current + 60 * minute)

        let second = auth.getToken(uid: "user-1", forceRefresh: true)
        waitUntil { service.refreshCount == 2 }
        XCTAssertEqual(service.refreshedWith, ["r-1", "r-rotated"])
        service.answerRefreshes(.success(IssuedTokens(idToken: "id-3", refreshToken: "", expiresIn: 3600)))
        XCTAssertEqual(second.wait(timeoutMs: 2_000), .complete)
        let kept = PersistedSession.decode(try XCTUnwrap(store.load()), appName: "[DEFAULT]", apiKey: "key")
        XCTAssertEqual(kept?.tokens.refreshToken, "r-rotated", "an absent refresh token keeps the old one")
    }

    func testAPermanentRefreshFailureSignsOutAndTellsListeners() throws {
        try saveSession(expiresAtMs: clock.current + 60 * minute)
        let auth = makeAuth()
        let calls = Locked(0)
        _ = auth.addAuthStateListener { calls.withLock { $0 += 1 } }
        waitUntil { calls.current == 1 }  // the initial call
        let future = auth.getToken(uid: "user-1", forceRefresh: true)
        waitUntil { service.refreshCount == 1 }
        service.answerRefreshes(.failure(AuthError(code: .failure, message: "INVALID_REFRESH_TOKEN", serverCode: "INVALID_REFRESH_TOKEN")))
        XCTAssertEqual(future.wait(timeoutMs: 2_000), .complete)
        waitUntil { calls.current == 2 }
        XCTAssertNil(auth.currentUser)
        XCTAssertNil(store.load())
    }

    func testATransientRefreshFailureKeepsTheSession() throws {
        try saveSession(expiresAtMs: clock.current + 60 * minute)
        let auth = makeAuth()
        let future = auth.getToken(uid: "user-1", forceRefresh: true)
        waitUntil { service.refreshCount == 1 }
        service.answerRefreshes(.failure(AuthError(code: .networkRequestFailed, message: "connection refused")))
        XCTAssertEqual(future.wait(timeoutMs: 2_000), .complete)
        guard case .failure(let error)? = future.result else { return XCTFail("expected failure") }
        XCTAssertEqual(error.code, .networkRequestFailed)
        XCTAssertEqual(auth.currentUser?.uid, "user-1")
        XCTAssertNotNil(store.load())
    }

    func testATokenAlreadyInsideTheMarginIsRefreshedProactively() throws {
        try saveSession(expiresAtMs: clock.current + 4 * minute)
        let auth = makeAuth()
        withExtendedLifetime(auth) { waitUntil { service.refreshCount == 1 } }
    }

    func testOperationsOnAUserWhoIsNoLongerSignedInFail() throws {
        try saveSession(expiresAtMs: clock.current + 60 * minute)
        let auth = makeAuth()
        let future = auth.getToken(uid: "someone-else", forceRefresh: false)
        XCTAssertEqual(future.wait(timeoutMs: 2_000), .complete)
        guard case .failure(let error)? = future.result else { return XCTFail("expected failure") }
        XCTAssertEqual(error.code, .noSignedInUser)
    }

    func testUpdatingTheEmailAsksForItAndLeavesTheNewAddressUnverified() throws {
        var profile = UserProfile(uid: "user-1")
        profile.email = "user-1@example.com"
        profile.isEmailVerified = true
        let session = PersistedSession(appName: "[DEFAULT]", apiKey: "key", user: profile,
                                       tokens: TokenSet(idToken: "id-1", refreshToken: "r-1",
                                                        expiresAtMs: clock.current + 60 * minute))
        try store.save(session.encoded())
        let auth = makeAuth()
        let future = auth.updateEmail(uid: "user-1", email: "moved@example.com")
        XCTAssertEqual(future.wait(timeoutMs: 2_000), .complete)
        guard case .success? = future.result else { return XCTFail("expected success, got \(String(describing: future.result))") }
        XCTAssertEqual(service.updates.map(\.email), ["moved@example.com"])
        XCTAssertEqual(auth.currentUser?.profile.email, "moved@example.com")
        XCTAssertEqual(auth.currentUser?.profile.isEmailVerified, false)
    }

    func testAnEmptyEmailIsRefusedWithoutARequest() throws {
        try saveSession(expiresAtMs: clock.current + 60 * minute)
        let auth = makeAuth()
        let future = auth.updateEmail(uid: "user-1", email: "")
        XCTAssertEqual(future.wait(timeoutMs: 2_000), .complete)
        guard case .failure(let error)? = future.result else { return XCTFail("expected failure") }
        XCTAssertEqual(error.code, .missingEmail)
        XCTAssertTrue(service.updates.isEmpty)
        XCTAssertEqual(auth.currentUser?.profile.email, "user-1@example.com")
    }

    func testWaitingOnTheLoopThreadReportsWouldDeadlockInsteadOfBlocking() throws {
        try saveSession(expiresAtMs: clock.current + 2 * minute)
        let auth = makeAuth()
        let future = auth.getToken(uid: "user-1", forceRefresh: true)
        let seen = Locked<FutureWaitResult?>(nil)
        loop.execute { seen.withLock { $0 = future.wait(timeoutMs: 10_000) } }
        waitUntil { seen.current != nil }
        XCTAssertEqual(seen.current, .wouldDeadlock)
    }
}
