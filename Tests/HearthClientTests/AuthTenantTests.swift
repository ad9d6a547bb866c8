@testable import HearthAuth
@testable import HearthBackend
@testable import HearthTransport
import HearthWire
import XCTest

/// Auth's tenant (Firebase's `Auth.tenantId`): what requests are configured with, the one-tenant rule
/// for the users it installs, restored sessions, and taking over a user of another Auth.
final class AuthTenantTests: XCTestCase {
    var loop: EventLoop!
    let minute: Int64 = 60_000

    override func setUpWithError() throws {
        loop = try EventLoop.makeOwned()
    }

    override func tearDown() {
        loop.shutdown()
    }

    private func makeAuth(store: SessionStore = MemorySessionStore(), apiKey: String = "key",
                          appName: String = "[DEFAULT]", lookupTenant: String?) -> (Auth, FakeIdentityToolkit) {
        let service = FakeIdentityToolkit(loop: loop, uid: "u")
        service.lookupUser["tenantId"] = lookupTenant.map(JSONValue.string)
        var configuration = AppConfiguration(apiKey: apiKey)
        configuration.appName = appName
        let auth = Auth(configuration: configuration,
                        dispatcher: CallbackDispatcher(loop: loop), store: store, emulator: nil,
                        nowMs: { 1_000 * 60_000 }) { _ in service }
        auth.start()
        return (auth, service)
    }

    private func outcome(_ future: FutureState, file: StaticString = #filePath, line: UInt = #line) -> FutureState.Outcome? {
        XCTAssertEqual(future.wait(timeoutMs: 5_000), .complete, file: file, line: line)
        return future.result
    }

    private func session(tenantId: String?, uid: String = "u") -> PersistedSession {
        var profile = UserProfile(uid: uid)
        profile.email = "\(uid)@example.com"
        profile.tenantId = tenantId
        return PersistedSession(appName: "[DEFAULT]", apiKey: "key", user: profile,
                                tokens: TokenSet(idToken: "id-1", refreshToken: "r-1", expiresAtMs: 1_000 * minute + 60 * minute))
    }

    func testTheTenantIsWhatRequestsAreConfiguredWithAndEmptyIsRefused() throws {
        let (auth, _) = makeAuth(lookupTenant: nil)
        XCTAssertNil(auth.tenantId)
        XCTAssertNil(auth.backendConfiguration.tenantId)
        try auth.setTenantId("tenant-1")
        XCTAssertEqual(auth.backendConfiguration.tenantId, "tenant-1")
        XCTAssertThrowsError(try auth.setTenantId("")) { error in
            XCTAssertEqual((error as? AuthError)?.code, .invalidArgument)
        }
        XCTAssertEqual(auth.tenantId, "tenant-1", "a refused id leaves the tenant as it was")
        try auth.setTenantId(nil)
        XCTAssertNil(auth.backendConfiguration.tenantId)
    }

    func testASignUpInTheTenantInstallsAUserOfThatTenant() throws {
        let store = MemorySessionStore()
        let (auth, _) = makeAuth(store: store, lookupTenant: "tenant-1")
        try auth.setTenantId("tenant-1")
        guard case .success(.authResult(let result))? = outcome(auth.signInAnonymously()) else {
            return XCTFail("expected an auth result")
        }
        XCTAssertEqual(result.user?.profile.tenantId, "tenant-1")
        XCTAssertEqual(auth.currentUser?.profile.tenantId, "tenant-1")
        let saved = PersistedSession.decode(try XCTUnwrap(store.load()), appName: "[DEFAULT]", apiKey: "key")
        XCTAssertEqual(saved?.user.tenantId, "tenant-1")
    }

    func testASignInYieldingAUserOfAnotherTenantFailsAndInstallsNobody() throws {
        let store = MemorySessionStore()
        let (auth, _) = makeAuth(store: store, lookupTenant: "tenant-2")
        try auth.setTenantId("tenant-1")
        let calls = Locked(0)
        _ = auth.addAuthStateListener { calls.withLock { $0 += 1 } }
        guard case .failure(let error)? = outcome(auth.signInAnonymously()) else { return XCTFail("expected failure") }
        XCTAssertEqual(error.code, .tenantIdMismatch)
        XCTAssertTrue(error.message.contains("\"tenant-2\"") && error.message.contains("\"tenant-1\""), error.message)
        XCTAssertNil(auth.currentUser)
        XCTAssertNil(store.load())
        usleep(50_000)
        XCTAssertEqual(calls.current, 1, "only the initial call: nobody signed in")
    }

    func testAnAuthWithoutATenantRefusesAUserOfOneAndTheReverse() throws {
        let (projectAuth, _) = makeAuth(lookupTenant: "tenant-2")
        guard case .failure(let error)? = outcome(projectAuth.signInAnonymously()) else { return XCTFail("expected failure") }
        XCTAssertEqual(error.code, .tenantIdMismatch)
        XCTAssertTrue(error.message.contains("project's own users"), error.message)

        let (tenantAuth, _) = makeAuth(lookupTenant: nil)
        try tenantAuth.setTenantId("tenant-1")
        guard case .failure(let reverse)? = outcome(tenantAuth.signInAnonymously()) else { return XCTFail("expected failure") }
        XCTAssertEqual(reverse.code, .tenantIdMismatch)
        XCTAssertNil(tenantAuth.currentUser)
    }

    func testARestoredSessionBringsItsTenantToTheAuth() throws {
        let store = MemorySessionStore()
        try store.save(session(tenantId: "tenant-9").encoded())
        let (auth, _) = makeAuth(store: store, lookupTenant: "tenant-9")
        XCTAssertEqual(auth.currentUser?.profile.tenantId, "tenant-9")
        XCTAssertEqual(auth.tenantId, "tenant-9")
        XCTAssertEqual(auth.backendConfiguration.tenantId, "tenant-9")
        // Reloading keeps the user in its tenant.
        guard case .success(.user(let reloaded))? = outcome(auth.reload(uid: "u")) else { return XCTFail("no user") }
        XCTAssertEqual(reloaded.profile.tenantId, "tenant-9")
    }

    func testUpdateCurrentUserTakesOverTheSessionOfAUserOfTheSameTenant() throws {
        let (source, _) = makeAuth(appName: "source", lookupTenant: "tenant-1")
        try source.setTenantId("tenant-1")
        guard case .success(.authResult(let signedIn))? = outcome(source.signInAnonymously()),
              let user = signedIn.user else { return XCTFail("no user") }

        let otherStore = MemorySessionStore()
        let (other, _) = makeAuth(store: otherStore, appName: "other", lookupTenant: nil)
        try other.setTenantId("tenant-2")
        guard case .failure(let mismatch)? = outcome(other.updateCurrentUser(user)) else { return XCTFail("expected failure") }
        XCTAssertEqual(mismatch.code, .tenantIdMismatch)
        XCTAssertNil(other.currentUser)
        XCTAssertNil(otherStore.load())

        try other.setTenantId("tenant-1")
        guard case .success(.none)? = outcome(other.updateCurrentUser(user)) else { return XCTFail("expected success") }
        XCTAssertEqual(other.currentUser?.uid, "u")
        XCTAssertEqual(other.currentUser?.profile.tenantId, "tenant-1")
        XCTAssertEqual(other.state.current.session?.tokens, source.state.current.session?.tokens)
        XCTAssertEqual(source.currentUser?.uid, "u", "the first Auth keeps its user")
        let saved = PersistedSession.decode(try XCTUnwrap(otherStore.load()), appName: "other", apiKey: "key")
        XCTAssertEqual(saved?.user.tenantId, "tenant-1")
    }

    func testUpdateCurrentUserRefusesAnotherAPIKeyAndAUserNoLongerSignedIn() throws {
        let (source, _) = makeAuth(appName: "source", lookupTenant: nil)
        guard case .success(.authResult(let signedIn))? = outcome(source.signInAnonymously()),
              let user = signedIn.user else { return XCTFail("no user") }
        let (foreign, _) = makeAuth(apiKey: "another-key", appName: "foreign", lookupTenant: nil)
        guard case .failure(let keyError)? = outcome(foreign.updateCurrentUser(user)) else { return XCTFail("expected failure") }
        XCTAssertEqual(keyError.code, .invalidUserToken)

        let (target, _) = makeAuth(appName: "target", lookupTenant: nil)
        XCTAssertNil(source.signOut())
        guard case .failure(let gone)? = outcome(target.updateCurrentUser(user)) else { return XCTFail("expected failure") }
        XCTAssertEqual(gone.code, .noSignedInUser)
        XCTAssertNil(target.currentUser)
        XCTAssertNotNil(target.lastResult(.updateCurrentUser))
    }
}
