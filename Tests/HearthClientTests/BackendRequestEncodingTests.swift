@testable import HearthBackend
import HearthWire
import XCTest

/// Exact URL and body of every RPC, in production and emulator mode.
final class BackendRequestEncodingTests: XCTestCase {
    private let prodV1 = "https://identitytoolkit.googleapis.com/v1/"
    private let emuV1 = "http://127.0.0.1:9099/identitytoolkit.googleapis.com/v1/"

    private func assertRequest<R: BackendRPC>(_ rpc: R, method: String, body expected: JSONValue,
                                              file: StaticString = #filePath, line: UInt = #line) {
        let production = BackendHarness.request(rpc, config: BackendHarness.production)
        XCTAssertEqual(production.method, "POST", file: file, line: line)
        XCTAssertEqual(production.url, prodV1 + method + "?key=APIKey", file: file, line: line)
        XCTAssertEqual(production.header("Content-Type"), "application/json", file: file, line: line)
        XCTAssertEqual(decodedJSONBody(production, file: file, line: line), expected, file: file, line: line)

        let emulator = BackendHarness.request(rpc, config: BackendHarness.emulator)
        XCTAssertEqual(emulator.url, emuV1 + method + "?key=fake-key", file: file, line: line)
        XCTAssertEqual(emulator.body, production.body, file: file, line: line)
        XCTAssertEqual(headerLines(emulator), headerLines(production), file: file, line: line)
    }

    func testAnonymousSignUpSendsOnlyReturnSecureToken() {
        assertRequest(SignUp.anonymous, method: "accounts:signUp", body: ["returnSecureToken": true])
        XCTAssertEqual(String(decoding: BackendHarness.request(SignUp.anonymous).body, as: UTF8.self),
                       #"{"returnSecureToken":true}"#)
    }

    func testEmailSignUpSendsCredentialsAndDisplayName() {
        // SignUpNewUserTests.testSignUpNewUserRequestNotAnonymous (client-wire-reference §5.1).
        let rpc = SignUp(email: "testgmail.com", password: "Password", displayName: "DisplayName")
        assertRequest(rpc, method: "accounts:signUp", body: [
            "email": "testgmail.com", "password": "Password", "displayName": "DisplayName", "returnSecureToken": true,
        ])
    }

    func testEmailSignUpWithoutDisplayNameOmitsIt() {
        assertRequest(SignUp(email: "a@b.c", password: "secret1"), method: "accounts:signUp",
                      body: ["email": "a@b.c", "password": "secret1", "returnSecureToken": true])
    }

    func testLinkingEmailPasswordSendsTheCurrentIdToken() {
        assertRequest(SignUp.link(idToken: "ID_TOKEN", email: "a@b.c", password: "secret1"), method: "accounts:signUp",
                      body: ["idToken": "ID_TOKEN", "email": "a@b.c", "password": "secret1", "returnSecureToken": true])
    }

    func testSignInWithPassword() {
        assertRequest(SignInWithPassword(email: "a@b.c", password: "p\"w\\d"), method: "accounts:signInWithPassword",
                      body: ["email": "a@b.c", "password": "p\"w\\d", "returnSecureToken": true])
    }

    func testSignInWithCustomToken() {
        assertRequest(SignInWithCustomToken(token: "eyJ.custom.token"), method: "accounts:signInWithCustomToken",
                      body: ["token": "eyJ.custom.token", "returnSecureToken": true])
    }

    func testLookupSendsOnlyTheIdToken() {
        assertRequest(GetAccountInfo(idToken: "ID_TOKEN"), method: "accounts:lookup", body: ["idToken": "ID_TOKEN"])
    }

    func testProfileUpdateSendsOnlyTheGivenFields() {
        assertRequest(SetAccountInfo(idToken: "T", displayName: "Ada", photoUrl: "https://x/p.png"),
                      method: "accounts:update",
                      body: ["idToken": "T", "displayName": "Ada", "photoUrl": "https://x/p.png", "returnSecureToken": true])
    }

    func testDeletingProfileAttributesSendsDeleteAttribute() {
        assertRequest(SetAccountInfo(idToken: "T", deleteAttributes: [.displayName, .photoUrl]), method: "accounts:update",
                      body: ["idToken": "T", "deleteAttribute": ["DISPLAY_NAME", "PHOTO_URL"], "returnSecureToken": true])
    }

    func testPasswordAndEmailChange() {
        assertRequest(SetAccountInfo(idToken: "T", email: "new@b.c", password: "newpass"), method: "accounts:update",
                      body: ["idToken": "T", "email": "new@b.c", "password": "newpass", "returnSecureToken": true])
    }

    func testUnlinkSendsDeleteProvider() {
        assertRequest(SetAccountInfo(idToken: "T", deleteProviders: ["password", "google.com"]), method: "accounts:update",
                      body: ["idToken": "T", "deleteProvider": ["password", "google.com"], "returnSecureToken": true])
    }

    func testUserAttributeWireNames() {
        XCTAssertEqual(UserAttribute.allCases.map(\.rawValue), ["DISPLAY_NAME", "PHOTO_URL", "EMAIL", "PASSWORD"])
    }

    func testDeleteAccount() {
        assertRequest(DeleteAccount(idToken: "T"), method: "accounts:delete", body: ["idToken": "T"])
    }

    func testPasswordResetEmail() {
        assertRequest(SendOobCode(.passwordReset(email: "a@b.c")), method: "accounts:sendOobCode",
                      body: ["requestType": "PASSWORD_RESET", "email": "a@b.c"])
    }

    func testVerificationEmail() {
        assertRequest(SendOobCode(.verifyEmail(idToken: "T")), method: "accounts:sendOobCode",
                      body: ["requestType": "VERIFY_EMAIL", "idToken": "T"])
    }

    func testVerifyBeforeUpdatingEmail() {
        assertRequest(SendOobCode(.verifyAndChangeEmail(idToken: "T", newEmail: "new@b.c")), method: "accounts:sendOobCode",
                      body: ["requestType": "VERIFY_AND_CHANGE_EMAIL", "idToken": "T", "newEmail": "new@b.c"])
    }

    func testCreateAuthUriProbesTheEmailWithALocalhostContinueUri() {
        assertRequest(CreateAuthUri(identifier: "a@b.c"), method: "accounts:createAuthUri",
                      body: ["identifier": "a@b.c", "continueUri": "http://localhost"])
    }

    func testTokenRefreshSendsAFormBodyToSecureToken() {
        let rpc = SecureTokenRefresh(refreshToken: "old-refresh+token/=")
        let production = BackendHarness.request(rpc)
        XCTAssertEqual(production.method, "POST")
        XCTAssertEqual(production.url, "https://securetoken.googleapis.com/v1/token?key=APIKey")
        XCTAssertEqual(String(decoding: production.body, as: UTF8.self),
                       "grant_type=refresh_token&refresh_token=old-refresh%2Btoken%2F%3D")
        let emulator = BackendHarness.request(rpc, config: BackendHarness.emulator)
        XCTAssertEqual(emulator.url, "http://127.0.0.1:9099/securetoken.googleapis.com/v1/token?key=fake-key")
        XCTAssertEqual(emulator.body, production.body)
    }

    func testNonASCIIAndControlCharactersSurviveTheBody() {
        let rpc = SetAccountInfo(idToken: "T", displayName: "Zoë \"Z\"\n😀\u{01}")
        XCTAssertEqual(decodedJSONBody(BackendHarness.request(rpc))?["displayName"], "Zoë \"Z\"\n😀\u{01}")
    }

    func testPerformSendsTheBuiltRequest() {
        let harness = BackendHarness()
        harness.backend.perform(SignInWithPassword(email: "a@b.c", password: "pw"), config: BackendHarness.emulator) { _ in }
        XCTAssertEqual(harness.transport.requests,
                       [BackendHarness.request(SignInWithPassword(email: "a@b.c", password: "pw"), config: BackendHarness.emulator)])
    }

    func testPrintedRPCsDoNotShowSecrets() {
        let rpcs: [any BackendRPC] = [
            SignInWithPassword(email: "a@b.c", password: "hunter2-secret"),
            SecureTokenRefresh(refreshToken: "hunter2-secret"),
            SetAccountInfo(idToken: "hunter2-secret", password: "hunter2-secret"),
        ]
        for rpc in rpcs {
            var dumped = ""
            dump(rpc, to: &dumped)
            for text in [String(describing: rpc), String(reflecting: rpc), dumped] {
                XCTAssertFalse(text.contains("hunter2"), text)
            }
        }
        XCTAssertEqual(String(describing: SecureTokenRefresh(refreshToken: "x")), "SecureTokenRefresh(v1/token)")
    }
}
