@testable import HearthAuth
import XCTest

/// Credentials that cannot work are refused before any request.
final class CredentialsValidationTests: XCTestCase {
    private func assertInvalidCredential(_ credential: FederatedCredential, file: StaticString = #filePath,
                                         line: UInt = #line) {
        XCTAssertEqual(credential.validationError?.code, .invalidCredential, "\(credential)", file: file, line: line)
    }

    func testCompleteCredentialsOfEveryKindAreValid() {
        let credentials: [FederatedCredential] = [
            .google(idToken: "I", accessToken: nil),
            .google(idToken: nil, accessToken: "A"),
            .facebook(accessToken: "A"),
            .facebookLimitedLogin(idToken: "I", rawNonce: "N"),
            .twitter(token: "T", secret: "S"),
            .gitHub(token: "T"),
            .playGames(serverAuthCode: "C"),
            .apple(idToken: "I", rawNonce: "N", authorizationCode: nil, fullName: nil),
            .oauth(OAuthCredential(providerId: "microsoft.com", accessToken: "A")),
            .oauth(OAuthCredential(providerId: "oidc.acme", idToken: "I", rawNonce: "N")),
            .oauth(.pending(providerId: "saml.acme", pendingToken: "P")),
            .idpRedirect(IdpRedirect(providerId: "twitter.com", requestUri: "http://127.0.0.1:1234/cb?x=1", sessionId: "S")),
            .idpRedirect(IdpRedirect(providerId: "apple.com", requestUri: "com.example.app:/oauth", sessionId: nil)),
        ]
        for credential in credentials {
            XCTAssertNil(credential.validationError, "\(credential)")
        }
    }

    func testGoogleWithoutAnyTokenIsAnInvalidCredential() {
        assertInvalidCredential(.google(idToken: nil, accessToken: nil))
        assertInvalidCredential(.google(idToken: "", accessToken: ""))
    }

    func testEmptyRequiredTokensAreInvalidCredentials() {
        assertInvalidCredential(.facebook(accessToken: ""))
        assertInvalidCredential(.facebookLimitedLogin(idToken: "", rawNonce: "N"))
        assertInvalidCredential(.gitHub(token: ""))
        assertInvalidCredential(.playGames(serverAuthCode: ""))
        assertInvalidCredential(.apple(idToken: "", rawNonce: "N", authorizationCode: "code", fullName: nil))
    }

    func testTwitterNeedsBothTokenAndSecret() {
        assertInvalidCredential(.twitter(token: "", secret: "S"))
        assertInvalidCredential(.twitter(token: "T", secret: ""))
        XCTAssertEqual(FederatedCredential.twitter(token: "T", secret: "").validationError?.message,
                       "A Twitter credential needs the token secret.")
    }

    func testNonceFlowsWithoutTheRawNonceAreInvalidCredentials() {
        // The server requires the nonce for Apple and Limited Login (MISSING_OR_INVALID_NONCE).
        assertInvalidCredential(.apple(idToken: "I", rawNonce: "", authorizationCode: nil, fullName: nil))
        assertInvalidCredential(.facebookLimitedLogin(idToken: "I", rawNonce: ""))
    }

    func testGenericCredentialWithoutTokensIsAnInvalidCredential() {
        assertInvalidCredential(.oauth(OAuthCredential(providerId: "oidc.acme")))
        assertInvalidCredential(.oauth(OAuthCredential(providerId: "oidc.acme", rawNonce: "N")))
    }

    func testTokenSecretWithoutItsAccessTokenIsAnInvalidCredential() {
        assertInvalidCredential(.oauth(OAuthCredential(providerId: "twitter.com", idToken: "I", secret: "S")))
    }

    func testGenericCredentialWithoutAProviderIdIsAnInvalidProviderId() {
        let error = FederatedCredential.oauth(OAuthCredential(providerId: "", idToken: "I")).validationError
        XCTAssertEqual(error?.code, .invalidProviderId)
        XCTAssertEqual(error?.message, "A provider id is required.")
    }

    func testProviderIdWithSpacesOrControlCharactersIsAnInvalidProviderId() {
        for providerId in ["oidc.a b", "oidc.a\nb", "oidc.\u{7F}", "oidc.é"] {
            let credential = FederatedCredential.oauth(OAuthCredential(providerId: providerId, idToken: "I"))
            XCTAssertEqual(credential.validationError?.code, .invalidProviderId, providerId.debugDescription)
        }
    }

    func testSignInMethodsThatAreNotIdentityProvidersAreRefused() {
        for providerId in ["password", "phone", "gc.apple.com", "anonymous"] {
            let credential = FederatedCredential.oauth(OAuthCredential(providerId: providerId, accessToken: "A"))
            XCTAssertEqual(credential.validationError?.code, .invalidProviderId, providerId)
        }
    }

    func testRedirectMustBeAnAbsoluteURL() {
        for uri in ["", "/cb?code=1", "127.0.0.1:80/cb", "http://a b/", ":nothing", "http:"] {
            let credential = FederatedCredential.idpRedirect(IdpRedirect(providerId: "github.com", requestUri: uri, sessionId: "S"))
            XCTAssertEqual(credential.validationError?.code, .invalidCredential, uri.debugDescription)
        }
    }

    func testRedirectWithoutAProviderIdIsAnInvalidProviderId() {
        let credential = FederatedCredential.idpRedirect(IdpRedirect(providerId: "", requestUri: "http://127.0.0.1/cb", sessionId: "S"))
        XCTAssertEqual(credential.validationError?.code, .invalidProviderId)
    }

    func testCredentialsPrintWithoutTheirSecrets() {
        let credentials: [(FederatedCredential, [String])] = [
            (.twitter(token: "TWITTER-TOKEN", secret: "TWITTER-SECRET"), ["TWITTER-TOKEN", "TWITTER-SECRET"]),
            (.apple(idToken: "APPLE-ID-TOKEN", rawNonce: "RAW-NONCE", authorizationCode: "AUTH-CODE", fullName: nil),
             ["APPLE-ID-TOKEN", "RAW-NONCE", "AUTH-CODE"]),
            (.oauth(OAuthCredential(providerId: "oidc.x", idToken: "OIDC-ID", pendingToken: "PENDING-T")), ["OIDC-ID", "PENDING-T"]),
            (.idpRedirect(IdpRedirect(providerId: "github.com", requestUri: "http://h/cb?code=REDIRECT-CODE",
                                      sessionId: "SESSION-ID")), ["REDIRECT-CODE", "SESSION-ID"]),
        ]
        for (credential, secrets) in credentials {
            var dumped = ""
            dump(credential, to: &dumped)
            for text in [String(describing: credential), String(reflecting: credential), dumped] {
                XCTAssertTrue(text.contains(credential.providerId), text)
                for secret in secrets { XCTAssertFalse(text.contains(secret), text) }
            }
        }
        let oauth = OAuthCredential(providerId: "oidc.x", idToken: "OIDC-ID")
        XCTAssertFalse(String(describing: oauth).contains("OIDC-ID"))
        let email = Credential.emailPassword(email: "a@b.c", password: "hunter2")
        XCTAssertFalse(String(describing: email).contains("hunter2"))
        XCTAssertEqual(email.providerId, "password")
    }
}
