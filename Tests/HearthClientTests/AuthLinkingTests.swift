@testable import HearthAuth
@testable import HearthBackend
@testable import HearthTransport
import HearthWire
import XCTest

/// Linking, unlinking and reauthentication rules that Auth enforces itself, against a fake Identity Toolkit.
final class AuthLinkingTests: XCTestCase {
    var loop: EventLoop!
    var store: MemorySessionStore!
    var service: FakeIdentityToolkit!
    let now: Int64 = 1_700_000_000_000

    override func setUpWithError() throws {
        loop = try EventLoop.makeOwned()
        store = MemorySessionStore()
    }

    override func tearDown() { loop.shutdown() }

    /// A signed-in user "user-1" with an email/password and a Google account linked.
    private func makeAuth() throws -> Auth {
        var profile = UserProfile(uid: "user-1")
        profile.email = "user-1@example.com"
        profile.providerData = [UserInfoSnapshot(uid: "user-1@example.com", providerId: "password"),
                                UserInfoSnapshot(uid: "g-1", providerId: "google.com")]
        try store.save(PersistedSession(appName: "[DEFAULT]", apiKey: "key", user: profile,
                                        tokens: TokenSet(idToken: "id", refreshToken: "r", expiresAtMs: now + 3_600_000)).encoded())
        let service = FakeIdentityToolkit(loop: loop, uid: "user-1")
        service.lookupUser["providerUserInfo"] = [["providerId": "password", "rawId": "user-1@example.com"],
                                                  ["providerId": "google.com", "rawId": "g-1"]]
        self.service = service
        let now = self.now
        return Auth(configuration: AppConfiguration(apiKey: "key"), dispatcher: CallbackDispatcher(loop: loop),
                    store: store, emulator: nil, nowMs: { now }) { _ in service }
    }

    private func error(of future: FutureState, file: StaticString = #filePath, line: UInt = #line) -> AuthError? {
        XCTAssertEqual(future.wait(timeoutMs: 5_000), .complete, file: file, line: line)
        guard case .failure(let error)? = future.result else { return nil }
        return error
    }

    /// An unsigned JWT whose subject is `sub`.
    private func token(sub: String) -> String {
        let payload = Base64.urlEncoded(Array("{\"sub\":\"\(sub)\",\"exp\":9999999999}".utf8))
        return "eyJhbGciOiJub25lIn0.\(payload)."
    }

    func testLinkingAProviderThatIsAlreadyLinkedFailsWithoutAskingTheServer() throws {
        let auth = try makeAuth()
        let google = Credential.federated(.google(idToken: "{\"sub\":\"g-2\"}", accessToken: nil))
        XCTAssertEqual(error(of: auth.link(uid: "user-1", with: google))?.code, .providerAlreadyLinked)
        XCTAssertTrue(service.bodies(of: "accounts:signInWithIdp").isEmpty)
    }

    func testUnlinkingAProviderThatIsNotLinkedFailsWithNoSuchProvider() throws {
        let auth = try makeAuth()
        XCTAssertEqual(error(of: auth.unlink(uid: "user-1", providerId: "twitter.com"))?.code, .noSuchProvider)
        XCTAssertTrue(service.bodies(of: "accounts:update").isEmpty)
    }

    func testUnlinkingPasswordClearsTheEmail() throws {
        let auth = try makeAuth()
        XCTAssertNil(error(of: auth.unlink(uid: "user-1", providerId: "password")))
        XCTAssertEqual(service.bodies(of: "accounts:update").first?["deleteProvider"], ["password"])
        XCTAssertEqual(auth.currentUser?.profile.email, "")
        XCTAssertEqual(auth.currentUser?.profile.providerData.map(\.providerId), ["google.com"])
    }

    func testReauthenticatingAsAnotherUserFailsWithUserMismatchAndKeepsTheUser() throws {
        let auth = try makeAuth()
        service.idpAnswer = ["idToken": .string(token(sub: "someone-else")), "refreshToken": "r2", "expiresIn": "3600",
                             "localId": "someone-else", "providerId": "google.com"]
        let google = Credential.federated(.google(idToken: "{\"sub\":\"g-9\"}", accessToken: nil))
        XCTAssertEqual(error(of: auth.reauthenticate(uid: "user-1", with: google, retrieveData: false))?.code, .userMismatch)
        XCTAssertEqual(auth.currentUser?.uid, "user-1")
        XCTAssertEqual(auth.state.current.session?.tokens.idToken, "id", "the other account's tokens are not installed")
    }

    func testReauthenticationSendsAutoCreateFalse() throws {
        let auth = try makeAuth()
        let google = Credential.federated(.google(idToken: "{\"sub\":\"g-1\"}", accessToken: nil))
        _ = error(of: auth.reauthenticate(uid: "user-1", with: google, retrieveData: true))
        XCTAssertEqual(service.bodies(of: "accounts:signInWithIdp").first?["autoCreate"], false)
    }

    func testAnEmptyTokenIsRefusedBeforeAnyRequest() throws {
        let auth = try makeAuth()
        let empty = Credential.federated(.gitHub(token: ""))
        XCTAssertEqual(error(of: auth.signIn(with: empty))?.code, .invalidCredential)
        XCTAssertEqual(error(of: auth.link(uid: "user-1", with: empty))?.code, .invalidCredential)
        XCTAssertTrue(service.bodies(of: "accounts:signInWithIdp").isEmpty)
    }
}
