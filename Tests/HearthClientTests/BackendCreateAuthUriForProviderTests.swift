@testable import HearthBackend
import XCTest

/// accounts:createAuthUri as the start of a production provider sign-in (client-wire-reference §1.6).
final class BackendCreateAuthUriForProviderTests: XCTestCase {
    private let harness = BackendHarness()

    func testRequestCarriesProviderContinueUriScopesAndCustomParameters() {
        let rpc = CreateAuthUriForProvider(providerId: "microsoft.com", continueUri: "http://127.0.0.1:53682/",
                                           scopes: ["mail.read", "calendars.read"],
                                           customParameters: ["tenant": "contoso.onmicrosoft.com", "prompt": "consent"])
        let request = BackendHarness.request(rpc)
        XCTAssertEqual(request.url, "https://identitytoolkit.googleapis.com/v1/accounts:createAuthUri?key=APIKey")
        XCTAssertEqual(String(decoding: request.body, as: UTF8.self),
                       #"{"providerId":"microsoft.com","continueUri":"http://127.0.0.1:53682/","#
                       + #""oauthScope":"mail.read calendars.read","customParameter":{"prompt":"consent","tenant":"contoso.onmicrosoft.com"}}"#)
    }

    func testWithoutScopesOrParametersThoseFieldsAreLeftOut() {
        let rpc = CreateAuthUriForProvider(providerId: "twitter.com", continueUri: "com.example.app:/oauth")
        XCTAssertEqual(decodedJSONBody(BackendHarness.request(rpc)),
                       ["providerId": "twitter.com", "continueUri": "com.example.app:/oauth"])
    }

    func testEmptyAndRepeatedScopesAreDropped() {
        let rpc = CreateAuthUriForProvider(providerId: "apple.com", continueUri: "http://127.0.0.1:1/",
                                           scopes: ["email", "", "name", "email"])
        XCTAssertEqual(rpc.oauthScope, "email name")
        XCTAssertNil(CreateAuthUriForProvider(providerId: "apple.com", continueUri: "u", scopes: ["", ""]).oauthScope)
    }

    func testCallersSessionIdIsSent() {
        let rpc = CreateAuthUriForProvider(providerId: "github.com", continueUri: "http://127.0.0.1:1/", sessionId: "MY-SESSION")
        XCTAssertEqual(decodedJSONBody(BackendHarness.request(rpc))?["sessionId"], "MY-SESSION")
    }

    func testEmulatorRequestGoesToTheEmulator() {
        let rpc = CreateAuthUriForProvider(providerId: "github.com", continueUri: "http://127.0.0.1:1/")
        XCTAssertEqual(BackendHarness.request(rpc, config: BackendHarness.emulator).url,
                       "http://127.0.0.1:9099/identitytoolkit.googleapis.com/v1/accounts:createAuthUri?key=fake-key")
    }

    func testAnswerGivesTheAuthorizationURLAndSession() {
        let body = #"""
        {"kind":"identitytoolkit#CreateAuthUriResponse",
         "authUri":"https://login.microsoftonline.com/contoso.onmicrosoft.com/oauth2/v2.0/authorize?client_id=abc&response_type=code&scope=openid+mail.read&state=AMbdmDk",
         "providerId":"microsoft.com","sessionId":"AMbdmDkSERVER"}
        """#
        let rpc = CreateAuthUriForProvider(providerId: "microsoft.com", continueUri: "http://127.0.0.1:53682/")
        let response = harness.decode(rpc, body: body)
        XCTAssertEqual(response?.authUri, "https://login.microsoftonline.com/contoso.onmicrosoft.com/oauth2/v2.0/authorize?client_id=abc&response_type=code&scope=openid+mail.read&state=AMbdmDk")
        XCTAssertEqual(response?.sessionId, "AMbdmDkSERVER")
        XCTAssertEqual(response?.providerId, "microsoft.com")
    }

    func testAnswerWithoutSessionIdKeepsTheCallersOne() {
        let rpc = CreateAuthUriForProvider(providerId: "github.com", continueUri: "http://127.0.0.1:1/", sessionId: "MINE")
        let response = harness.decode(rpc, body: #"{"authUri":"https://github.com/login/oauth/authorize?x=1"}"#)
        XCTAssertEqual(response?.sessionId, "MINE")
        XCTAssertEqual(response?.providerId, "github.com")
    }

    func testAnswerWithoutAnySessionIdIsMalformed() {
        let rpc = CreateAuthUriForProvider(providerId: "github.com", continueUri: "http://127.0.0.1:1/")
        let error = harness.error(rpc, status: 200, body: #"{"authUri":"https://github.com/login/oauth/authorize"}"#)
        XCTAssertEqual(error?.message, "The server sent a malformed response: missing sessionId.")
    }

    func testAnswerWithoutAuthUriIsMalformed() {
        let rpc = CreateAuthUriForProvider(providerId: "github.com", continueUri: "http://127.0.0.1:1/")
        let error = harness.error(rpc, status: 200, body: #"{"sessionId":"S","providerId":"github.com"}"#)
        XCTAssertEqual(error?.code, .failure)
        XCTAssertEqual(error?.message, "The server sent a malformed response: missing authUri.")
    }

    func testUnknownProviderIsAnInvalidProviderId() {
        let rpc = CreateAuthUriForProvider(providerId: "oidc.nope", continueUri: "http://127.0.0.1:1/")
        let error = harness.error(rpc, status: 400, body: #"{"error":{"code":400,"message":"INVALID_PROVIDER_ID : Provider oidc.nope is not enabled."}}"#)
        XCTAssertEqual(error?.code, .invalidProviderId)
    }
}
