@testable import HearthAuth
import XCTest

/// The signInWithIdp `postBody` of every credential kind (client-wire-reference §1.5's table).
final class CredentialsPostBodyTests: XCTestCase {
    /// The form decoded by Foundation (independent of Hearth's encoder), in order.
    private func formFields(_ body: String, file: StaticString = #filePath, line: UInt = #line) -> [String] {
        guard let items = URLComponents(string: "http://x/?" + body)?.queryItems else {
            XCTFail("not a form body: \(body)", file: file, line: line)
            return []
        }
        return items.map { "\($0.name)=\($0.value ?? "<nil>")" }
    }

    // MARK: - Google, Facebook, Twitter, GitHub, Play Games

    func testGoogleWithBothTokens() {
        let credential = FederatedCredential.google(idToken: "GOOGLE_ID_TOKEN", accessToken: "GOOGLE_ACCESS_TOKEN")
        XCTAssertEqual(credential.postBody, "id_token=GOOGLE_ID_TOKEN&access_token=GOOGLE_ACCESS_TOKEN&providerId=google.com")
        XCTAssertEqual(credential.providerId, "google.com")
    }

    func testGoogleWithOnlyAnIdTokenOmitsTheAccessToken() {
        XCTAssertEqual(FederatedCredential.google(idToken: "ID", accessToken: nil).postBody, "id_token=ID&providerId=google.com")
        XCTAssertEqual(FederatedCredential.google(idToken: "ID", accessToken: "").postBody, "id_token=ID&providerId=google.com")
    }

    func testGoogleWithOnlyAnAccessTokenOmitsTheIdToken() {
        XCTAssertEqual(FederatedCredential.google(idToken: "", accessToken: "AT").postBody, "access_token=AT&providerId=google.com")
    }

    func testFacebookSendsTheAccessToken() {
        let credential = FederatedCredential.facebook(accessToken: "FB_ACCESS_TOKEN")
        XCTAssertEqual(credential.postBody, "access_token=FB_ACCESS_TOKEN&providerId=facebook.com")
        XCTAssertEqual(credential.providerId, "facebook.com")
    }

    func testFacebookLimitedLoginSendsTheIdTokenAndRawNonce() {
        let credential = FederatedCredential.facebookLimitedLogin(idToken: "FB_AUTH_TOKEN", rawNonce: "raw-nonce")
        XCTAssertEqual(credential.postBody, "id_token=FB_AUTH_TOKEN&providerId=facebook.com&nonce=raw-nonce")
        XCTAssertEqual(credential.providerId, "facebook.com")
    }

    func testTwitterSendsTokenAndSecret() {
        let credential = FederatedCredential.twitter(token: "OAUTH_TOKEN", secret: "TOKEN_SECRET")
        XCTAssertEqual(credential.postBody, "access_token=OAUTH_TOKEN&oauth_token_secret=TOKEN_SECRET&providerId=twitter.com")
        XCTAssertEqual(credential.providerId, "twitter.com")
    }

    func testGitHubSendsTheAccessToken() {
        let credential = FederatedCredential.gitHub(token: "gho_123")
        XCTAssertEqual(credential.postBody, "access_token=gho_123&providerId=github.com")
        XCTAssertEqual(credential.providerId, "github.com")
    }

    func testPlayGamesSendsTheServerAuthCodeAsCode() {
        // The C++ SDK's VerifyAssertionRequest::FromAuthCode: `code=`.
        let credential = FederatedCredential.playGames(serverAuthCode: "4/0AX4Xf")
        XCTAssertEqual(credential.postBody, "code=4%2F0AX4Xf&providerId=playgames.google.com")
        XCTAssertEqual(credential.providerId, "playgames.google.com")
    }

    // MARK: - Apple

    func testAppleSendsTheIdTokenAndTheRawNonce() {
        let credential = FederatedCredential.apple(idToken: "APPLE_ID_TOKEN", rawNonce: "RAW_NONCE", authorizationCode: nil,
                                                   fullName: nil)
        XCTAssertEqual(credential.postBody, "id_token=APPLE_ID_TOKEN&providerId=apple.com&nonce=RAW_NONCE")
        XCTAssertEqual(credential.providerId, "apple.com")
    }

    func testAppleAuthorizationCodeGoesAsTheAccessToken() {
        let credential = FederatedCredential.apple(idToken: "APPLE_ID_TOKEN", rawNonce: "RAW_NONCE",
                                                   authorizationCode: "c0de", fullName: nil)
        XCTAssertEqual(credential.postBody, "id_token=APPLE_ID_TOKEN&access_token=c0de&providerId=apple.com&nonce=RAW_NONCE")
    }

    func testAppleFullNameGoesAsTheUserJSONWithSortedKeys() {
        // VerifyAssertionTests.testVerifyAssertionRequestOptionalFields (client-wire-reference §5.2).
        let name = PersonName(givenName: "Paul", familyName: "B")
        XCTAssertEqual(name.appleUserJSON, #"{"name":{"firstName":"Paul","lastName":"B"}}"#)
        let credential = FederatedCredential.apple(idToken: "T", rawNonce: "N", authorizationCode: nil, fullName: name)
        XCTAssertEqual(credential.postBody,
                       "id_token=T&providerId=apple.com&nonce=N&user=%7B%22name%22%3A%7B%22firstName%22%3A%22Paul%22%2C%22lastName%22%3A%22B%22%7D%7D")
        XCTAssertEqual(formFields(credential.postBody).last, #"user={"name":{"firstName":"Paul","lastName":"B"}}"#)
    }

    func testAppleNameWithOnlyOnePartSendsOnlyThatPart() {
        XCTAssertEqual(PersonName(givenName: "Zoë", familyName: nil).appleUserJSON, #"{"name":{"firstName":"Zoë"}}"#)
        XCTAssertEqual(PersonName(givenName: "", familyName: "Ng").appleUserJSON, #"{"name":{"lastName":"Ng"}}"#)
    }

    func testAppleEmptyNameSendsNoUser() {
        let credential = FederatedCredential.apple(idToken: "T", rawNonce: "N", authorizationCode: "",
                                                   fullName: PersonName(givenName: "", familyName: nil))
        XCTAssertEqual(credential.postBody, "id_token=T&providerId=apple.com&nonce=N")
    }

    // MARK: - Generic OAuth / OIDC

    func testOIDCWithIdTokenAndRawNonce() {
        let credential = FederatedCredential.oauth(OAuthCredential(providerId: "oidc.example", idToken: "OIDC_TOKEN",
                                                                   rawNonce: "n0nce"))
        XCTAssertEqual(credential.postBody, "id_token=OIDC_TOKEN&providerId=oidc.example&nonce=n0nce")
        XCTAssertEqual(credential.providerId, "oidc.example")
    }

    func testMicrosoftWithAnAccessTokenOnly() {
        let credential = FederatedCredential.oauth(OAuthCredential(providerId: "microsoft.com", accessToken: "MS_AT"))
        XCTAssertEqual(credential.postBody, "access_token=MS_AT&providerId=microsoft.com")
    }

    func testGenericCredentialWithEveryTokenKeepsTheFixedOrder() {
        let credential = FederatedCredential.oauth(OAuthCredential(providerId: "yahoo.com", idToken: "I", accessToken: "A",
                                                                   secret: "S", rawNonce: "N"))
        XCTAssertEqual(credential.postBody, "id_token=I&access_token=A&oauth_token_secret=S&providerId=yahoo.com&nonce=N")
    }

    func testPendingTokenReplacesTheIdpTokensAndKeepsTheProviderId() {
        let credential = FederatedCredential.oauth(OAuthCredential(providerId: "google.com", idToken: "I", accessToken: "A",
                                                                   pendingToken: "PENDING"))
        XCTAssertEqual(credential.postBody, "providerId=google.com")
        XCTAssertEqual(credential.pendingToken, "PENDING")
        let pendingOnly = FederatedCredential.oauth(.pending(providerId: "saml.acme", pendingToken: "P2"))
        XCTAssertEqual(pendingOnly.postBody, "providerId=saml.acme")
        XCTAssertEqual(pendingOnly.pendingToken, "P2")
    }

    func testEmptyOptionalTokensAreNotSent() {
        let credential = FederatedCredential.oauth(OAuthCredential(providerId: "oidc.x", idToken: "I", accessToken: "",
                                                                   secret: "", rawNonce: "", pendingToken: ""))
        XCTAssertEqual(credential.postBody, "id_token=I&providerId=oidc.x")
        XCTAssertNil(credential.pendingToken)
    }

    // MARK: - Redirects

    func testRedirectWithoutAnIdpBodySendsOnlyTheProviderId() {
        let redirect = IdpRedirect(providerId: "twitter.com", requestUri: "http://127.0.0.1:5000/cb?oauth_token=t&oauth_verifier=v",
                                   sessionId: "SESSION")
        let credential = FederatedCredential.idpRedirect(redirect)
        XCTAssertEqual(credential.postBody, "providerId=twitter.com")
        XCTAssertEqual(credential.requestUri, "http://127.0.0.1:5000/cb?oauth_token=t&oauth_verifier=v")
        XCTAssertEqual(credential.sessionId, "SESSION")
        XCTAssertNil(credential.pendingToken)
    }

    func testRedirectWithAFormPostBodySendsItVerbatimPlusTheProviderId() {
        let idpBody = "code=c%2F1&id_token=eyJ.x.y&state=s&user=%7B%7D"
        let credential = FederatedCredential.idpRedirect(IdpRedirect(providerId: "apple.com", requestUri: "http://127.0.0.1:5000/cb",
                                                                     sessionId: "S", postBody: idpBody))
        XCTAssertEqual(credential.postBody, idpBody + "&providerId=apple.com")
    }

    func testRedirectBodyThatNamesTheProviderIsNotChanged() {
        let idpBody = "providerId=apple.com&code=c"
        let credential = FederatedCredential.idpRedirect(IdpRedirect(providerId: "apple.com", requestUri: "https://a.example/cb",
                                                                     sessionId: nil, postBody: idpBody))
        XCTAssertEqual(credential.postBody, idpBody)
        XCTAssertNil(credential.sessionId)
    }

    func testManualCredentialsUseLocalhostAsRequestUri() {
        XCTAssertEqual(FederatedCredential.gitHub(token: "t").requestUri, "http://localhost")
        XCTAssertNil(FederatedCredential.gitHub(token: "t").sessionId)
    }

    // MARK: - Encoding

    func testReservedCharactersInTokensArePercentEncoded() {
        let credential = FederatedCredential.twitter(token: "a+b/c=d&e f", secret: "x%y?z#w")
        XCTAssertEqual(credential.postBody,
                       "access_token=a%2Bb%2Fc%3Dd%26e%20f&oauth_token_secret=x%25y%3Fz%23w&providerId=twitter.com")
        XCTAssertEqual(formFields(credential.postBody), ["access_token=a+b/c=d&e f", "oauth_token_secret=x%y?z#w",
                                                         "providerId=twitter.com"])
    }

    func testUnreservedCharactersStayAsTheyAre() {
        XCTAssertEqual(FederatedCredential.gitHub(token: "AZaz09-._~").postBody, "access_token=AZaz09-._~&providerId=github.com")
    }

    func testNonASCIIIsEncodedAsUTF8Bytes() {
        let credential = FederatedCredential.oauth(OAuthCredential(providerId: "oidc.example", idToken: "é✓"))
        XCTAssertEqual(credential.postBody, "id_token=%C3%A9%E2%9C%93&providerId=oidc.example")
        XCTAssertEqual(formFields(credential.postBody), ["id_token=é✓", "providerId=oidc.example"])
        let apple = FederatedCredential.apple(idToken: "T", rawNonce: "N", authorizationCode: nil,
                                              fullName: PersonName(givenName: "Zoë", familyName: nil))
        XCTAssertEqual(apple.postBody, "id_token=T&providerId=apple.com&nonce=N&user=%7B%22name%22%3A%7B%22firstName%22%3A%22Zo%C3%AB%22%7D%7D")
    }

    func testNonceWithFormCharactersSurvivesTheRoundTrip() {
        let credential = FederatedCredential.apple(idToken: "T", rawNonce: "a&b=c+d", authorizationCode: nil, fullName: nil)
        XCTAssertEqual(formFields(credential.postBody), ["id_token=T", "providerId=apple.com", "nonce=a&b=c+d"])
    }
}
