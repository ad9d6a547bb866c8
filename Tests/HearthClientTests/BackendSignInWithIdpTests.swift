@testable import HearthAuth
@testable import HearthBackend
import XCTest

/// accounts:signInWithIdp: exact bodies for sign-in, link and reauthentication, answer decoding, and the
/// 200-shaped errors with the credential they hand back (client-wire-reference §1.5, §4.3).
final class BackendSignInWithIdpTests: XCTestCase {
    private let harness = BackendHarness()
    private let idToken = makeJWT(["sub": "uid-1", "user_id": "uid-1", "iat": 1000, "exp": 4600])

    private func bodyText<R: BackendRPC>(_ rpc: R) -> String {
        String(decoding: BackendHarness.request(rpc).body, as: UTF8.self)
    }

    // MARK: - Requests

    func testSignInSendsLocalhostThePostBodyAndBothReturnFlags() {
        let rpc = FederatedCredential.google(idToken: "G_ID", accessToken: "G_AT").signInWithIdp()
        let request = BackendHarness.request(rpc)
        XCTAssertEqual(request.method, "POST")
        XCTAssertEqual(request.url, "https://identitytoolkit.googleapis.com/v1/accounts:signInWithIdp?key=APIKey")
        XCTAssertEqual(request.header("Content-Type"), "application/json")
        XCTAssertEqual(bodyText(rpc), #"{"requestUri":"http://localhost","#
            + #""postBody":"id_token=G_ID&access_token=G_AT&providerId=google.com","returnSecureToken":true,"returnIdpCredential":true}"#)
    }

    func testEmulatorRequestGoesToTheEmulatorWithTheSameBody() {
        let rpc = FederatedCredential.gitHub(token: "T").signInWithIdp()
        let emulator = BackendHarness.request(rpc, config: BackendHarness.emulator)
        XCTAssertEqual(emulator.url,
                       "http://127.0.0.1:9099/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp?key=fake-key")
        XCTAssertEqual(emulator.body, BackendHarness.request(rpc).body)
    }

    func testEveryCredentialKindSendsItsPostBody() {
        let expected: [(FederatedCredential, String)] = [
            (.facebook(accessToken: "FB"), "access_token=FB&providerId=facebook.com"),
            (.facebookLimitedLogin(idToken: "FBL", rawNonce: "n"), "id_token=FBL&providerId=facebook.com&nonce=n"),
            (.twitter(token: "T", secret: "S"), "access_token=T&oauth_token_secret=S&providerId=twitter.com"),
            (.gitHub(token: "GH"), "access_token=GH&providerId=github.com"),
            (.playGames(serverAuthCode: "PG"), "code=PG&providerId=playgames.google.com"),
            (.apple(idToken: "AP", rawNonce: "rn", authorizationCode: nil, fullName: nil),
             "id_token=AP&providerId=apple.com&nonce=rn"),
            (.oauth(OAuthCredential(providerId: "oidc.acme", idToken: "OI", rawNonce: "rn")),
             "id_token=OI&providerId=oidc.acme&nonce=rn"),
        ]
        for (credential, postBody) in expected {
            XCTAssertEqual(decodedJSONBody(BackendHarness.request(credential.signInWithIdp())), [
                "requestUri": "http://localhost", "postBody": .string(postBody),
                "returnSecureToken": true, "returnIdpCredential": true,
            ], "\(credential)")
        }
    }

    func testLinkSendsTheCurrentUsersIdTokenAndNoAutoCreate() {
        let rpc = FederatedCredential.facebook(accessToken: "FB").signInWithIdp(.link(idToken: "FIREBASE_ID_TOKEN"))
        XCTAssertEqual(decodedJSONBody(BackendHarness.request(rpc)), [
            "requestUri": "http://localhost", "postBody": "access_token=FB&providerId=facebook.com",
            "idToken": "FIREBASE_ID_TOKEN", "returnSecureToken": true, "returnIdpCredential": true,
        ])
    }

    func testReauthenticationSendsAutoCreateFalse() {
        let rpc = FederatedCredential.apple(idToken: "AP", rawNonce: "rn", authorizationCode: nil, fullName: nil)
            .signInWithIdp(.reauthenticate)
        XCTAssertEqual(bodyText(rpc), #"{"requestUri":"http://localhost","#
            + #""postBody":"id_token=AP&providerId=apple.com&nonce=rn","returnSecureToken":true,"returnIdpCredential":true,"autoCreate":false}"#)
    }

    func testRedirectSendsTheCallbackURLAndTheSessionId() {
        let redirect = IdpRedirect(providerId: "microsoft.com",
                                   requestUri: "http://127.0.0.1:53682/?code=M.C1&state=xyz&session_state=1",
                                   sessionId: "SESSION_FROM_CREATE_AUTH_URI")
        let rpc = FederatedCredential.idpRedirect(redirect).signInWithIdp()
        XCTAssertEqual(decodedJSONBody(BackendHarness.request(rpc)), [
            "requestUri": "http://127.0.0.1:53682/?code=M.C1&state=xyz&session_state=1",
            "sessionId": "SESSION_FROM_CREATE_AUTH_URI", "postBody": "providerId=microsoft.com",
            "returnSecureToken": true, "returnIdpCredential": true,
        ])
    }

    func testRedirectLinkAndReauthenticateCarryTheirFlagsToo() {
        let credential = FederatedCredential.idpRedirect(IdpRedirect(providerId: "github.com", requestUri: "http://127.0.0.1:1/cb?code=c",
                                                                     sessionId: "S"))
        XCTAssertEqual(decodedJSONBody(BackendHarness.request(credential.signInWithIdp(.link(idToken: "ID"))))?["idToken"], "ID")
        XCTAssertEqual(decodedJSONBody(BackendHarness.request(credential.signInWithIdp(.reauthenticate)))?["autoCreate"], false)
    }

    func testPendingTokenIsSentBesideAProviderOnlyPostBody() {
        let rpc = FederatedCredential.oauth(.pending(providerId: "saml.acme", pendingToken: "PENDING")).signInWithIdp()
        XCTAssertEqual(decodedJSONBody(BackendHarness.request(rpc)), [
            "requestUri": "http://localhost", "postBody": "providerId=saml.acme", "pendingToken": "PENDING",
            "returnSecureToken": true, "returnIdpCredential": true,
        ])
    }

    func testTheIOSVerifyAssertionRequestFieldsMapOntoV1() {
        // VerifyAssertionTests.testVerifyAssertionRequestOptionalFields (client-wire-reference §5.2): the
        // same top-level fields on v1, with the iOS postBody passed through as is. (autoCreate:false there
        // comes with a link; Hearth sends autoCreate:false only to reauthenticate.)
        let iosPostBody = "providerId=ProviderID&id_token=ProviderIDToken&access_token=testProviderAccessToken"
            + "&oauth_token_secret=testProviderOAuthTokenSecret&identifier=testInputEmail"
            + "&user=%7B%22name%22%3A%7B%22firstName%22%3A%22Paul%22%2C%22lastName%22%3A%22B%22%7D%7D"
        let rpc = SignInWithIdp(postBody: iosPostBody, pendingToken: "testPendingToken", purpose: .link(idToken: "ACCESS_TOKEN"))
        XCTAssertEqual(decodedJSONBody(BackendHarness.request(rpc)), [
            "requestUri": "http://localhost", "postBody": .string(iosPostBody), "pendingToken": "testPendingToken",
            "idToken": "ACCESS_TOKEN", "returnSecureToken": true, "returnIdpCredential": true,
        ])
    }

    func testPrintedRequestNamesOnlyTheEndpoint() {
        let rpc = FederatedCredential.twitter(token: "TW-TOKEN", secret: "TW-SECRET").signInWithIdp(.link(idToken: "FB-ID"))
        var dumped = ""
        dump(rpc, to: &dumped)
        for text in [String(describing: rpc), dumped] {
            for secret in ["TW-TOKEN", "TW-SECRET", "FB-ID"] { XCTAssertFalse(text.contains(secret), text) }
        }
    }

    // MARK: - Successful answers

    func testTheIOSVerifyAssertionResponseWithObjects() {
        // VerifyAssertionTests.testSuccessfulVerifyAssertionResponse (client-wire-reference §5.2).
        let body = #"""
        {"providerId":"ProviderID","idToken":"ID_TOKEN","expiresIn":"12345","refreshToken":"REFRESH_TOKEN",
         "verifiedProvider":["Provider"],"photoUrl":"www.example.com","username":"Joe Doe","isNewUser":true,
         "rawUserInfo":{"iss":"https://accounts.google.com\\","email":"test@email.com","given_name":"User","family_name":"Doe"}}
        """#
        guard let response = harness.decode(SignInWithIdp(postBody: "providerId=ProviderID"), body: body) else { return }
        assertIOSVerifyAssertionResponse(response)
    }

    func testTheIOSVerifyAssertionResponseWithJSONEncodedStrings() {
        // The …WithTextData variant: verifiedProvider and rawUserInfo as JSON-encoded strings.
        let body = #"""
        {"providerId":"ProviderID","idToken":"ID_TOKEN","expiresIn":"12345","refreshToken":"REFRESH_TOKEN",
         "verifiedProvider":"[\"Provider\"]","photoUrl":"www.example.com","username":"Joe Doe","isNewUser":true,
         "rawUserInfo":"{\"iss\":\"https://accounts.google.com\\\\\",\"email\":\"test@email.com\",\"given_name\":\"User\",\"family_name\":\"Doe\"}"}
        """#
        guard let response = harness.decode(SignInWithIdp(postBody: "providerId=ProviderID"), body: body) else { return }
        assertIOSVerifyAssertionResponse(response)
    }

    private func assertIOSVerifyAssertionResponse(_ response: SignInWithIdp.Response,
                                                  file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(response.tokens.idToken, "ID_TOKEN", file: file, line: line)
        XCTAssertEqual(response.tokens.refreshToken, "REFRESH_TOKEN", file: file, line: line)
        XCTAssertEqual(response.tokens.expiresIn, 12345, file: file, line: line)
        XCTAssertTrue(response.tokens.isNewUser, file: file, line: line)
        XCTAssertEqual(response.idp.providerId, "ProviderID", file: file, line: line)
        XCTAssertEqual(response.idp.verifiedProvider, ["Provider"], file: file, line: line)
        XCTAssertEqual(response.idp.photoUrl, "www.example.com", file: file, line: line)
        XCTAssertEqual(response.idp.username, "Joe Doe", file: file, line: line)
        XCTAssertEqual(response.idp.userName, "Joe Doe", file: file, line: line)
        XCTAssertTrue(response.idp.isNewUser, file: file, line: line)
        XCTAssertEqual(response.idp.rawUserInfo, ["iss": "https://accounts.google.com\\", "email": "test@email.com",
                                                  "given_name": "User", "family_name": "Doe"], file: file, line: line)
        XCTAssertNil(UpdatedCredential(response: response.idp).credential, file: file, line: line)
    }

    func testEmulatorGoogleSignInAnswer() {
        let body = #"""
        {"kind":"identitytoolkit#VerifyAssertionResponse","context":"","providerId":"google.com",
         "federatedId":"https://accounts.google.com/1234567890","localId":"uid-1","email":"ada@example.com",
         "emailVerified":true,"displayName":"Ada Lovelace","fullName":"Ada Lovelace","firstName":"Ada",
         "lastName":"Lovelace","photoUrl":"https://p.example/ada.png",
         "rawUserInfo":"{\"granted_scopes\":\"openid https://www.googleapis.com/auth/userinfo.profile https://www.googleapis.com/auth/userinfo.email\",\"id\":\"1234567890\",\"name\":\"Ada Lovelace\",\"given_name\":\"Ada\",\"family_name\":\"Lovelace\",\"verified_email\":true,\"locale\":\"en\",\"email\":\"ada@example.com\",\"picture\":\"https://p.example/ada.png\"}",
         "oauthIdToken":"{\"sub\":\"1234567890\",\"email\":\"ada@example.com\",\"email_verified\":true}",
         "oauthAccessToken":"FirebaseAuthEmulatorFakeAccessToken_google.com","isNewUser":true,
         "idToken":"\#(idToken)","refreshToken":"REFRESH","expiresIn":"3600"}
        """#
        guard let response = harness.decode(FederatedCredential.google(idToken: "x", accessToken: nil).signInWithIdp(),
                                            body: body) else { return }
        XCTAssertEqual(response.tokens.localId, "uid-1")
        XCTAssertEqual(response.tokens.expiresIn, 3600)
        XCTAssertEqual(response.idp.providerId, "google.com")
        XCTAssertEqual(response.idp.federatedId, "https://accounts.google.com/1234567890")
        XCTAssertEqual(response.idp.localId, "uid-1")
        XCTAssertEqual(response.idp.email, "ada@example.com")
        XCTAssertEqual(response.idp.emailVerified, true)
        XCTAssertEqual(response.idp.displayName, "Ada Lovelace")
        XCTAssertEqual(response.idp.fullName, "Ada Lovelace")
        XCTAssertEqual(response.idp.firstName, "Ada")
        XCTAssertEqual(response.idp.lastName, "Lovelace")
        XCTAssertEqual(response.idp.rawUserInfo?["verified_email"], true)
        XCTAssertEqual(response.idp.rawUserInfo?["locale"], "en")
        XCTAssertNil(response.idp.userName)
        XCTAssertFalse(response.idp.needConfirmation)
        XCTAssertNil(response.idp.errorMessage)
        let updated = UpdatedCredential(response: response.idp)
        XCTAssertEqual(updated.credential, .oauth(OAuthCredential(
            providerId: "google.com", idToken: #"{"sub":"1234567890","email":"ada@example.com","email_verified":true}"#,
            accessToken: "FirebaseAuthEmulatorFakeAccessToken_google.com")))
    }

    func testGitHubUserNameIsTheProfileLogin() {
        let body = #"""
        {"providerId":"github.com","idToken":"I","refreshToken":"R","screenName":"server-name",
         "rawUserInfo":"{\"login\":\"octocat\",\"id\":1}"}
        """#
        XCTAssertEqual(harness.decode(SignInWithIdp(postBody: "providerId=github.com"), body: body)?.idp.userName, "octocat")
    }

    func testTwitterUserNameIsTheProfileScreenName() {
        let body = #"""
        {"providerId":"twitter.com","idToken":"I","refreshToken":"R","oauthAccessToken":"T","oauthTokenSecret":"S",
         "rawUserInfo":{"screen_name":"jack","id_str":"12"}}
        """#
        let response = harness.decode(SignInWithIdp(postBody: "providerId=twitter.com"), body: body)
        XCTAssertEqual(response?.idp.userName, "jack")
        XCTAssertEqual(response?.idp.oauthTokenSecret, "S")
    }

    func testUserNameFallsBackToTheReportedScreenName() {
        let body = #"{"providerId":"twitter.com","idToken":"I","refreshToken":"R","screenName":"from-server"}"#
        XCTAssertEqual(harness.decode(SignInWithIdp(postBody: "providerId=twitter.com"), body: body)?.idp.userName, "from-server")
    }

    func testUnreadableRawUserInfoIsIgnored() {
        for raw in [#""not json""#, #""[1,2]""#, "42", #""""#] {
            let body = #"{"providerId":"oidc.x","idToken":"I","refreshToken":"R","rawUserInfo":"# + raw + "}"
            let response = harness.decode(SignInWithIdp(postBody: "providerId=oidc.x"), body: body)
            XCTAssertNotNil(response, raw)
            XCTAssertNil(response?.idp.rawUserInfo, raw)
        }
    }

    func testAnswerWithoutProviderIdIsMalformed() {
        let error = harness.error(SignInWithIdp(postBody: "providerId=x"), status: 200,
                                  body: #"{"idToken":"I","refreshToken":"R","providerId":""}"#)
        XCTAssertEqual(error?.code, .failure)
        XCTAssertEqual(error?.message, "The server sent a malformed response: missing providerId.")
    }

    func testAnswerWithoutTokensIsMalformed() {
        let error = harness.error(SignInWithIdp(postBody: "providerId=x"), status: 200, body: #"{"providerId":"x"}"#)
        XCTAssertEqual(error?.code, .failure)
    }

    func testPrintedAnswerHidesTokens() {
        let body = #"{"providerId":"github.com","idToken":"FIREBASE-ID","refreshToken":"FIREBASE-RT","oauthAccessToken":"GH-AT"}"#
        guard let response = harness.decode(SignInWithIdp(postBody: "providerId=github.com"), body: body) else { return }
        var dumped = ""
        dump(response, to: &dumped)
        for text in [String(describing: response), String(describing: response.idp), dumped] {
            for secret in ["FIREBASE-ID", "FIREBASE-RT", "GH-AT"] { XCTAssertFalse(text.contains(secret), text) }
        }
    }

    // MARK: - 200-shaped errors

    func testAlreadyLinkedAnswerIsCredentialAlreadyInUseWithAnUpdatedCredential() {
        // Emulator, link with returnIdpCredential (emulator-reference §5): 200, IdP fields, no tokens.
        let body = #"""
        {"kind":"identitytoolkit#VerifyAssertionResponse","context":"","providerId":"google.com",
         "federatedId":"https://accounts.google.com/42","email":"owner@example.com","emailVerified":true,
         "rawUserInfo":"{\"id\":\"42\"}","oauthIdToken":"{\"sub\":\"42\"}",
         "oauthAccessToken":"FirebaseAuthEmulatorFakeAccessToken_google.com",
         "errorMessage":"FEDERATED_USER_ID_ALREADY_LINKED"}
        """#
        let rpc = FederatedCredential.google(idToken: #"{"sub":"42"}"#, accessToken: nil).signInWithIdp(.link(idToken: "ID"))
        guard let error = harness.error(rpc, status: 200, body: body) else { return }
        XCTAssertEqual(error.code, .credentialAlreadyInUse)
        XCTAssertEqual(error.serverCode, "FEDERATED_USER_ID_ALREADY_LINKED")
        let updated = UpdatedCredential(error: error)
        XCTAssertEqual(updated?.email, "owner@example.com")
        XCTAssertEqual(updated?.credential, .oauth(OAuthCredential(
            providerId: "google.com", idToken: #"{"sub":"42"}"#, accessToken: "FirebaseAuthEmulatorFakeAccessToken_google.com")))
        XCTAssertNil(updated?.credential?.validationError)
    }

    func testAlreadyLinkedWithTheIOSColonFormIsRecognisedToo() {
        let body = #"{"providerId":"facebook.com","oauthAccessToken":"FB","errorMessage":"FEDERATED_USER_ID_ALREADY_LINKED:"}"#
        guard let error = harness.error(FederatedCredential.facebook(accessToken: "FB").signInWithIdp(.link(idToken: "I")),
                                        status: 200, body: body) else { return }
        XCTAssertEqual(error.code, .credentialAlreadyInUse)
        XCTAssertEqual(UpdatedCredential(error: error)?.credential,
                       .oauth(OAuthCredential(providerId: "facebook.com", accessToken: "FB")))
    }

    func testEmailExistsAnswerIsEmailAlreadyInUseWithTheCredentialAndEmail() {
        let body = #"""
        {"providerId":"twitter.com","email":"taken@example.com","oauthAccessToken":"TW","oauthTokenSecret":"SEC",
         "errorMessage":"EMAIL_EXISTS"}
        """#
        guard let error = harness.error(FederatedCredential.twitter(token: "TW", secret: "SEC").signInWithIdp(.link(idToken: "I")),
                                        status: 200, body: body) else { return }
        XCTAssertEqual(error.code, .emailAlreadyInUse)
        XCTAssertEqual(error.serverCode, "EMAIL_EXISTS")
        let updated = UpdatedCredential(error: error)
        XCTAssertEqual(updated?.email, "taken@example.com")
        XCTAssertEqual(updated?.credential, .oauth(OAuthCredential(providerId: "twitter.com", accessToken: "TW", secret: "SEC")))
    }

    func testNeedConfirmationIsAccountExistsWithDifferentCredentials() {
        // Emulator account resolution rule 3: unverified IdP email matching an existing account.
        let body = #"""
        {"kind":"identitytoolkit#VerifyAssertionResponse","providerId":"facebook.com","localId":"existing-uid",
         "email":"a@b.c","needConfirmation":true,"verifiedProvider":["google.com"],"oauthAccessToken":"FB_AT"}
        """#
        guard let error = harness.error(FederatedCredential.facebook(accessToken: "FB_AT").signInWithIdp(),
                                        status: 200, body: body) else { return }
        XCTAssertEqual(error.code, .accountExistsWithDifferentCredentials)
        guard case .object(let object)? = error.body else { return XCTFail("no body") }
        let idp = IdpResponse(decoding: object)
        XCTAssertTrue(idp.needConfirmation)
        XCTAssertEqual(idp.verifiedProvider, ["google.com"])
        let updated = UpdatedCredential(error: error)
        XCTAssertEqual(updated?.email, "a@b.c")
        XCTAssertEqual(updated?.credential, .oauth(OAuthCredential(providerId: "facebook.com", accessToken: "FB_AT")))
    }

    func testMfaPendingAnswerIsSecondFactorRequired() {
        let body = #"""
        {"providerId":"google.com","localId":"uid-1","email":"a@b.c","mfaPendingCredential":"PENDING_CRED",
         "mfaInfo":[{"mfaEnrollmentId":"enr-1","displayName":"phone","phoneInfo":"+*******0100","enrolledAt":"2024-01-01T00:00:00Z"}]}
        """#
        guard let error = harness.error(FederatedCredential.google(idToken: "I", accessToken: nil).signInWithIdp(),
                                        status: 200, body: body) else { return }
        XCTAssertEqual(error.code, .secondFactorRequired)
        guard case .object(let object)? = error.body else { return XCTFail("no body") }
        let idp = IdpResponse(decoding: object)
        XCTAssertEqual(idp.mfaPendingCredential, "PENDING_CRED")
        XCTAssertEqual(idp.mfaInfo, [MultiFactorInfoRecord(mfaEnrollmentId: "enr-1", displayName: "phone",
                                                           enrolledAt: "2024-01-01T00:00:00Z", phoneInfo: "+*******0100")])
    }

    func testReauthenticationAnswersMfaPendingToo() {
        let body = #"{"providerId":"google.com","mfaPendingCredential":"P","mfaInfo":[]}"#
        let rpc = FederatedCredential.google(idToken: "I", accessToken: nil).signInWithIdp(.reauthenticate)
        XCTAssertEqual(harness.error(rpc, status: 200, body: body)?.code, .secondFactorRequired)
    }

    func testEnvelopeAlreadyLinkedHasNoUpdatedCredential() {
        // Without returnIdpCredential handling on the server side the error comes as a plain 400.
        let body = #"{"error":{"code":400,"message":"FEDERATED_USER_ID_ALREADY_LINKED","errors":[{"message":"FEDERATED_USER_ID_ALREADY_LINKED","reason":"invalid","domain":"global"}]}}"#
        guard let error = harness.error(FederatedCredential.gitHub(token: "T").signInWithIdp(.link(idToken: "I")),
                                        status: 400, body: body) else { return }
        XCTAssertEqual(error.code, .credentialAlreadyInUse)
        XCTAssertNil(UpdatedCredential(error: error))
    }

    func testInvalidIdpResponseIsAnInvalidCredential() {
        let body = #"{"error":{"code":400,"message":"INVALID_IDP_RESPONSE : Unable to parse id_token: not-a-jwt ((Auth Emulator only accepts strict JSON or JWTs as fake id_tokens.))"}}"#
        let error = harness.error(FederatedCredential.google(idToken: "not-a-jwt", accessToken: nil).signInWithIdp(),
                                  status: 400, body: body)
        XCTAssertEqual(error?.code, .invalidCredential)
    }

    func testWrongNonceIsAnInvalidCredential() {
        let body = #"{"error":{"code":400,"message":"MISSING_OR_INVALID_NONCE : Duplicate credential received. Please try again with a new credential."}}"#
        let rpc = FederatedCredential.apple(idToken: "T", rawNonce: "N", authorizationCode: nil, fullName: nil).signInWithIdp()
        XCTAssertEqual(harness.error(rpc, status: 400, body: body)?.code, .invalidCredential)
    }
}
