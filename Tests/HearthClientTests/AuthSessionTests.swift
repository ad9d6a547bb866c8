@testable import HearthAuth
import HearthBackend
@testable import HearthTransport
import Dispatch
import HearthWire
import XCTest

final class AuthSessionTests: XCTestCase {
    var loop: EventLoop!
    var store: MemorySessionStore!
    var clock: Locked<Int64>!
    var service: FakeIdentityToolkit!
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
        let service = FakeIdentityToolkit(loop: loop, uid: "user-1")
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

    func testAFutureKeepsItsAuthOnlyWhenItsResultGoesOnWithIt() throws {
        try saveSession(expiresAtMs: clock.current + 60 * minute)
        let auth = makeAuth()
        let token = auth.getToken(uid: "user-1", forceRefresh: false)
        let session = auth.multiFactorSession(uid: "user-1")
        let noUser = auth.multiFactorSession(uid: "someone-else")
        for future in [token, session, noUser] { XCTAssertEqual(future.wait(timeoutMs: 2_000), .complete) }
        XCTAssertNil(token.auth, "a token does not go on with the Auth")
        XCTAssertTrue(session.auth === auth, "a multi-factor session enrolls through its Auth")
        XCTAssertNil(noUser.auth, "a failed session request does not go on with it")
        XCTAssertTrue(Auth.goesOnWithAuth(.failure(AuthError(code: .secondFactorRequired))),
                      "a sign-in waiting for its second factor is finished through its Auth")
    }

    func testConcurrentRefreshesCoalesceIntoOneRequest() throws {
        try saveSession(expiresAtMs: clock.current + 2 * minute)  // inside the 5-minute margin
        let auth = makeAuth()
        let futures = (0..<5).map { _ in auth.getToken(uid: "user-1", forceRefresh: false) }
            + [auth.getToken(uid: "user-1", forceRefresh: true)]
        waitUntil { service.refreshCount >= 1 }
        usleep(20_000)
        XCTAssertEqual(service.refreshCount, 1)
        service.answerRefreshes(idToken: "id-2", refreshToken: "r-2")
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
        service.answerRefreshes(idToken: "id-2", refreshToken: "r-rotated")
        XCTAssertEqual(first.wait(timeoutMs: 2_000), .complete)
        let saved = PersistedSession.decode(try XCTUnwrap(store.load()), appName: "[DEFAULT]", apiKey: "key")
        XCTAssertEqual(saved?.tokens.refreshToken, "r-rotated")
        XCTAssertEqual(saved?.tokens.idToken, "id-2")
        XCTAssertEqual(saved?.tokens.expiresAtMs, clock.current + 60 * minute)

        let second = auth.getToken(uid: "user-1", forceRefresh: true)
        waitUntil { service.refreshCount == 2 }
        XCTAssertEqual(service.refreshedWith, ["r-1", "r-rotated"])
        service.answerRefreshes(idToken: "id-3", refreshToken: nil)
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
        service.answerRefreshes(error: "INVALID_REFRESH_TOKEN")
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
        service.failRefreshes(.network("connection refused"))
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

    func testARefreshSoonAfterAnotherLeavesTheProactiveRefreshAsArmed() throws {
        try saveSession(expiresAtMs: clock.current + 60 * minute)
        let auth = makeAuth()
        func refresh(_ count: Int) {
            let future = auth.getToken(uid: "user-1", forceRefresh: true)
            waitUntil { service.refreshCount == count }
            service.answerRefreshes(idToken: "id-\(count + 1)", refreshToken: nil)
            XCTAssertEqual(future.wait(timeoutMs: 2_000), .complete)
        }
        func deadline() -> Int64? {
            let seen = Locked<Int64?>(nil)
            let done = DispatchSemaphore(value: 0)
            loop.execute {
                seen.withLock { $0 = auth.refresher.proactiveDeadlineMs }
                done.signal()
            }
            done.wait()
            return seen.current
        }
        let start = clock.current
        refresh(1)
        // Five minutes before the new token's hour is up.
        XCTAssertEqual(deadline(), start + 55 * minute)
        clock.withLock { $0 += 500 }
        refresh(2)
        XCTAssertEqual(deadline(), start + 55 * minute, "half a second later: the armed timer stays")
        clock.withLock { $0 += 2_000 }
        refresh(3)
        XCTAssertEqual(deadline(), start + 2_500 + 55 * minute, "seconds later: re-armed")
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
        XCTAssertEqual(service.bodies(of: "accounts:update").compactMap { $0["email"]?.stringValue }, ["moved@example.com"])
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
        XCTAssertTrue(service.bodies(of: "accounts:update").isEmpty)
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
