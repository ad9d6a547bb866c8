@testable import HearthAuth
@testable import HearthBackend
import HearthWire
import XCTest

/// The credential an answer hands back, and how it signs in again (client-wire-reference §4.3).
final class CredentialsUpdatedCredentialTests: XCTestCase {
    private func response(_ json: String, file: StaticString = #filePath, line: UInt = #line) -> IdpResponse {
        guard case .object(let object)? = try? JSONValue.parse(json) else {
            XCTFail("not a JSON object", file: file, line: line)
            return IdpResponse(decoding: [:])
        }
        return IdpResponse(decoding: object)
    }

    func testCredentialCarriesEveryIdpTokenOfTheAnswer() {
        let updated = UpdatedCredential(response: response("""
        {"providerId":"oidc.acme","oauthIdToken":"OIDC_ID","oauthAccessToken":"OIDC_AT","nonce":"raw-n",
         "pendingToken":"PT","email":"a@b.c"}
        """))
        XCTAssertEqual(updated.credential, .oauth(OAuthCredential(providerId: "oidc.acme", idToken: "OIDC_ID",
                                                                  accessToken: "OIDC_AT", rawNonce: "raw-n",
                                                                  pendingToken: "PT")))
        XCTAssertEqual(updated.email, "a@b.c")
    }

    func testTwitterCredentialKeepsTheTokenSecret() {
        let updated = UpdatedCredential(response: response(
            #"{"providerId":"twitter.com","oauthAccessToken":"TOKEN","oauthTokenSecret":"SECRET"}"#))
        XCTAssertEqual(updated.credential, .oauth(OAuthCredential(providerId: "twitter.com", accessToken: "TOKEN",
                                                                  secret: "SECRET")))
        XCTAssertEqual(updated.credential?.postBody, "access_token=TOKEN&oauth_token_secret=SECRET&providerId=twitter.com")
    }

    func testAnswerWithoutIdpTokensGivesNoCredentialButTheEmail() {
        let updated = UpdatedCredential(response: response(#"{"providerId":"google.com","email":"a@b.c","oauthIdToken":""}"#))
        XCTAssertNil(updated.credential)
        XCTAssertEqual(updated.email, "a@b.c")
    }

    func testAnswerWithoutAProviderGivesNoCredential() {
        XCTAssertNil(UpdatedCredential(response: response(#"{"oauthAccessToken":"A"}"#)).credential)
    }

    func testPendingTokenAloneStillGivesACredential() {
        let updated = UpdatedCredential(response: response(#"{"providerId":"saml.acme","pendingToken":"PT"}"#))
        XCTAssertEqual(updated.credential, .oauth(.pending(providerId: "saml.acme", pendingToken: "PT")))
        XCTAssertNil(updated.credential?.validationError)
    }

    func testUpdatedCredentialSignsInWithItsTokensInThePostBody() {
        let updated = UpdatedCredential(response: response(
            #"{"providerId":"google.com","oauthIdToken":"G_ID","oauthAccessToken":"G_AT"}"#))
        guard let credential = updated.credential else { return XCTFail("no credential") }
        XCTAssertNil(credential.validationError)
        let body = decodedJSONBody(BackendHarness.request(credential.signInWithIdp()))
        XCTAssertEqual(body, ["requestUri": "http://localhost",
                              "postBody": "id_token=G_ID&access_token=G_AT&providerId=google.com",
                              "returnSecureToken": true, "returnIdpCredential": true])
    }

    func testUpdatedCredentialWithAPendingTokenSendsTheTokenInsteadOfThePostBodyTokens() {
        let updated = UpdatedCredential(response: response(
            #"{"providerId":"google.com","oauthIdToken":"G_ID","pendingToken":"PT"}"#))
        guard let credential = updated.credential else { return XCTFail("no credential") }
        let body = decodedJSONBody(BackendHarness.request(credential.signInWithIdp()))
        XCTAssertEqual(body, ["requestUri": "http://localhost", "postBody": "providerId=google.com", "pendingToken": "PT",
                              "returnSecureToken": true, "returnIdpCredential": true])
    }

    func testErrorsWithoutA200BodyGiveNothing() {
        XCTAssertNil(UpdatedCredential(error: AuthError(code: .networkRequestFailed)))
        let envelope: JSONValue = ["error": ["code": 400, "message": "FEDERATED_USER_ID_ALREADY_LINKED"]]
        XCTAssertNil(UpdatedCredential(error: AuthError(code: .credentialAlreadyInUse, body: envelope)))
        XCTAssertNil(UpdatedCredential(error: AuthError(code: .credentialAlreadyInUse, body: "text")))
    }

    func testPrintedUpdatedCredentialHidesTheTokens() {
        let updated = UpdatedCredential(response: response(#"{"providerId":"github.com","oauthAccessToken":"GH-SECRET"}"#))
        var dumped = ""
        dump(updated, to: &dumped)
        for text in [String(describing: updated), dumped] {
            XCTAssertFalse(text.contains("GH-SECRET"), text)
        }
    }
}
