@testable import HearthAuth
@testable import HearthBackend
import XCTest

final class BackendResponseDecodingTests: XCTestCase {
    private let harness = BackendHarness()
    private let idToken = makeJWT(["sub": "uid-1", "user_id": "uid-1", "iat": 1000, "exp": 4600])

    // MARK: - Token responses

    func testSignUpResponseFromTheIOSTests() {
        // SignUpNewUserTests.testSuccessfulSignUp (client-wire-reference §5.1).
        let response = harness.decode(SignUp(email: "e", password: "p"),
                                      body: #"{"idToken":"ID_TOKEN","expiresIn":"12345","refreshToken":"REFRESH_TOKEN"}"#)
        XCTAssertEqual(response, TokenResponse(idToken: "ID_TOKEN", refreshToken: "REFRESH_TOKEN", expiresIn: 12345,
                                               localId: nil))
    }

    func testEmulatorSignUpResponse() {
        let body = """
        {"kind":"identitytoolkit#SignupNewUserResponse","localId":"uid-1","email":"a@b.c","displayName":"Ada",
         "idToken":"\(idToken)","refreshToken":"R","expiresIn":"3600"}
        """
        let response = harness.decode(SignUp(email: "a@b.c", password: "pw"), body: body)
        XCTAssertEqual(response?.localId, "uid-1")
        XCTAssertEqual(response?.email, "a@b.c")
        XCTAssertEqual(response?.displayName, "Ada")
        XCTAssertEqual(response?.expiresIn, 3600)
        XCTAssertEqual(response?.kind, "identitytoolkit#SignupNewUserResponse")
        XCTAssertEqual(response?.isNewUser, true, "the SignupNewUserResponse kind means a new user")
    }

    func testPasswordSignInResponse() {
        let body = #"""
        {"kind":"identitytoolkit#VerifyPasswordResponse","registered":true,"localId":"uid-1","email":"a@b.c",
         "idToken":"I","refreshToken":"R","expiresIn":"3600","profilePicture":"https://x/p.png"}
        """#
        let response = harness.decode(SignInWithPassword(email: "a@b.c", password: "pw"), body: body)
        XCTAssertEqual(response?.registered, true)
        XCTAssertEqual(response?.isNewUser, false)
        XCTAssertEqual(response?.photoUrl, "https://x/p.png")
        XCTAssertNil(response?.displayName)
    }

    func testExpiresInAsANumberIsAccepted() {
        let response = harness.decode(SignInWithPassword(email: "e", password: "p"),
                                      body: #"{"idToken":"I","refreshToken":"R","expiresIn":3600}"#)
        XCTAssertEqual(response?.expiresIn, 3600)
    }

    func testMissingExpiresInFallsBackToTheTokensLifetime() {
        let response = harness.decode(SignInWithPassword(email: "e", password: "p"),
                                      body: #"{"idToken":"\#(idToken)","refreshToken":"R"}"#)
        XCTAssertEqual(response?.expiresIn, 3600)
    }

    func testUnreadableExpiresInFallsBackToTheTokensLifetime() {
        let response = harness.decode(SignInWithPassword(email: "e", password: "p"),
                                      body: #"{"idToken":"\#(idToken)","refreshToken":"R","expiresIn":"soon"}"#)
        XCTAssertEqual(response?.expiresIn, 3600)
    }

    func testUnknownLifetimeIsNil() {
        let response = harness.decode(SignInWithPassword(email: "e", password: "p"),
                                      body: #"{"idToken":"not-a-jwt","refreshToken":"R"}"#)
        XCTAssertNotNil(response)
        XCTAssertNil(response?.expiresIn)
    }

    func testCustomTokenResponseTakesTheUidFromTheIdToken() {
        let body = #"""
        {"kind":"identitytoolkit#VerifyCustomTokenResponse","isNewUser":true,"idToken":"\#(idToken)","refreshToken":"R","expiresIn":"3600"}
        """#
        let response = harness.decode(SignInWithCustomToken(token: "t"), body: body)
        XCTAssertEqual(response?.localId, "uid-1")
        XCTAssertEqual(response?.isNewUser, true)
    }

    func testIsNewUserAsAStringIsAccepted() {
        let response = harness.decode(SignInWithCustomToken(token: "t"),
                                      body: #"{"isNewUser":"true","idToken":"I","refreshToken":"R"}"#)
        XCTAssertEqual(response?.isNewUser, true)
    }

    func testMissingIdTokenIsAMalformedResponse() {
        let error = harness.error(SignInWithPassword(email: "e", password: "p"), status: 200,
                                  body: #"{"refreshToken":"R","expiresIn":"3600"}"#)
        XCTAssertEqual(error?.code, .failure)
        XCTAssertTrue(error?.message.contains("malformed response") == true, error?.message ?? "")
        XCTAssertTrue(error?.message.contains("idToken") == true)
    }

    func testIdTokenOfTheWrongTypeIsAMalformedResponse() {
        let error = harness.error(SignUp.anonymous, status: 200, body: #"{"idToken":42,"refreshToken":"R"}"#)
        XCTAssertEqual(error?.code, .failure)
    }

    func testEmptyRefreshTokenIsAMalformedResponse() {
        let error = harness.error(SignUp.anonymous, status: 200, body: #"{"idToken":"I","refreshToken":""}"#)
        XCTAssertTrue(error?.message.contains("refreshToken") == true)
    }

    func testOptionalFieldsOfTheWrongTypeAreIgnored() {
        let response = harness.decode(SignUp.anonymous,
                                      body: #"{"idToken":"I","refreshToken":"R","email":7,"registered":"maybe","localId":["x"]}"#)
        XCTAssertNil(response?.email)
        XCTAssertNil(response?.registered)
        XCTAssertNil(response?.localId)
    }

    func testPrintedTokenResponseHidesTokens() {
        let response = TokenResponse(idToken: "secret-id", refreshToken: "secret-refresh", expiresIn: 1, localId: "u")
        var dumped = ""
        dump(response, to: &dumped)
        for text in [String(describing: response), String(reflecting: response), dumped] {
            XCTAssertFalse(text.contains("secret"), text)
        }
    }

    // MARK: - Lookup

    func testLookupReadsTheWholeUserRecord() {
        let body = #"""
        {"kind":"identitytoolkit#GetAccountInfoResponse","users":[{
          "localId":"uid-1","email":"a@b.c","emailVerified":true,"displayName":"Ada","photoUrl":"https://x/p.png",
          "phoneNumber":"+15555550100","passwordHash":"fakeHash:salt=s:password=pw","passwordUpdatedAt":1.7e12,
          "providerUserInfo":[
            {"providerId":"password","rawId":"a@b.c","federatedId":"a@b.c","email":"a@b.c","displayName":"Ada","photoUrl":"https://x/p.png"},
            {"providerId":"phone","rawId":"+15555550100","phoneNumber":"+15555550100"},
            {"providerId":"google.com","federatedId":"https://accounts.google.com/123","email":"a@gmail.com"}
          ],
          "createdAt":"1700000000000","lastLoginAt":"1700000123456","validSince":"1700000000",
          "mfaInfo":[
            {"mfaEnrollmentId":"e1","displayName":"phone","enrolledAt":"2024-01-01T00:00:00.000Z","phoneInfo":"+*******0100"},
            {"mfaEnrollmentId":"e2","totpInfo":{}}
          ],
          "disabled":false,"customAttributes":"{\"admin\":true}","tenantId":"t1"
        }]}
        """#
        let user = harness.decode(GetAccountInfo(idToken: "T"), body: body)
        XCTAssertEqual(user, UserRecord(
            localId: "uid-1", email: "a@b.c", emailVerified: true, displayName: "Ada", photoUrl: "https://x/p.png",
            phoneNumber: "+15555550100", hasPassword: true,
            providerUserInfo: [
                ProviderUserInfo(providerId: "password", rawId: "a@b.c", federatedId: "a@b.c", email: "a@b.c",
                                 displayName: "Ada", photoUrl: "https://x/p.png"),
                ProviderUserInfo(providerId: "phone", rawId: "+15555550100", phoneNumber: "+15555550100"),
                ProviderUserInfo(providerId: "google.com", federatedId: "https://accounts.google.com/123",
                                 email: "a@gmail.com"),
            ],
            createdAt: 1_700_000_000_000, lastLoginAt: 1_700_000_123_456,
            mfaInfo: [
                MultiFactorInfoRecord(mfaEnrollmentId: "e1", displayName: "phone", enrolledAt: "2024-01-01T00:00:00.000Z",
                                      phoneInfo: "+*******0100"),
                MultiFactorInfoRecord(mfaEnrollmentId: "e2", isTOTP: true),
            ],
            disabled: false, customAttributes: #"{"admin":true}"#, tenantId: "t1"))
        XCTAssertEqual(user?.providerUserInfo.map(\.uid), ["a@b.c", "+15555550100", "https://accounts.google.com/123"])
        XCTAssertEqual(user?.mfaInfo.map(\.factorId), ["phone", "totp"])
    }

    func testLookupOfAnAnonymousUserHasOnlyDefaults() {
        let user = harness.decode(GetAccountInfo(idToken: "T"),
                                  body: #"{"users":[{"localId":"anon","createdAt":"1","lastLoginAt":"2"}]}"#)
        XCTAssertEqual(user, UserRecord(localId: "anon", createdAt: 1, lastLoginAt: 2))
        XCTAssertEqual(user?.hasPassword, false)
        XCTAssertEqual(user?.emailVerified, false)
    }

    func testLookupTimestampsAsNumbersAreAccepted() {
        let user = harness.decode(GetAccountInfo(idToken: "T"),
                                  body: #"{"users":[{"localId":"u","createdAt":1700000000000,"lastLoginAt":1700000000001}]}"#)
        XCTAssertEqual(user?.createdAt, 1_700_000_000_000)
        XCTAssertEqual(user?.lastLoginAt, 1_700_000_000_001)
    }

    func testLookupSkipsProviderAndFactorEntriesItCannotUse() {
        let body = #"""
        {"users":[{"localId":"u","providerUserInfo":[{"rawId":"x"},"junk",{"providerId":""},{"providerId":"github.com","rawId":"9"}],
          "mfaInfo":[{"displayName":"no id"},{"mfaEnrollmentId":"e","phoneInfo":"+1"}],"emailVerified":"true","passwordHash":""}]}
        """#
        let user = harness.decode(GetAccountInfo(idToken: "T"), body: body)
        XCTAssertEqual(user?.providerUserInfo, [ProviderUserInfo(providerId: "github.com", rawId: "9")])
        XCTAssertEqual(user?.mfaInfo, [MultiFactorInfoRecord(mfaEnrollmentId: "e", phoneInfo: "+1")])
        XCTAssertEqual(user?.emailVerified, true)
        XCTAssertEqual(user?.hasPassword, false)
    }

    func testALookupAnswerWithoutTheUserIsMalformedNotAProofTheUserIsGone() {
        let error = harness.error(GetAccountInfo(idToken: "T"), status: 200,
                                  body: #"{"kind":"identitytoolkit#GetAccountInfoResponse"}"#)
        XCTAssertEqual(error?.code, .failure)
        XCTAssertEqual(harness.error(GetAccountInfo(idToken: "T"), status: 200, body: #"{"users":[]}"#)?.code, .failure)
        XCTAssertFalse(error?.isPermanentSessionFailure ?? true)
    }

    func testLookupWithTwoUsersIsMalformed() {
        let error = harness.error(GetAccountInfo(idToken: "T"), status: 200,
                                  body: #"{"users":[{"localId":"a"},{"localId":"b"}]}"#)
        XCTAssertEqual(error?.code, .failure)
    }

    func testLookupUserWithoutLocalIdIsMalformed() {
        let error = harness.error(GetAccountInfo(idToken: "T"), status: 200, body: #"{"users":[{"email":"a@b.c"}]}"#)
        XCTAssertEqual(error?.code, .failure)
        XCTAssertTrue(error?.message.contains("localId") == true)
    }

    // MARK: - Update

    func testProfileUpdateResponseWithoutNewTokens() {
        let body = #"""
        {"kind":"identitytoolkit#SetAccountInfoResponse","localId":"u","email":"a@b.c","displayName":"Ada",
         "photoUrl":"https://x/p.png","emailVerified":false,"passwordHash":"h",
         "providerUserInfo":[{"providerId":"password","rawId":"a@b.c","federatedId":"a@b.c","email":"a@b.c"}]}
        """#
        let response = harness.decode(SetAccountInfo(idToken: "T", displayName: "Ada"), body: body)
        XCTAssertEqual(response?.localId, "u")
        XCTAssertEqual(response?.displayName, "Ada")
        XCTAssertEqual(response?.photoUrl, "https://x/p.png")
        XCTAssertEqual(response?.emailVerified, false)
        XCTAssertEqual(response?.hasPassword, true)
        XCTAssertEqual(response?.providerUserInfo.map(\.providerId), ["password"])
        XCTAssertNil(response?.idToken)
        XCTAssertNil(response?.refreshToken)
        XCTAssertNil(response?.expiresIn)
    }

    func testPasswordChangeResponseCarriesNewTokens() {
        let body = #"{"localId":"u","idToken":"\#(idToken)","refreshToken":"R2","expiresIn":"3600"}"#
        let response = harness.decode(SetAccountInfo(idToken: "T", password: "new"), body: body)
        XCTAssertEqual(response?.idToken, idToken)
        XCTAssertEqual(response?.refreshToken, "R2")
        XCTAssertEqual(response?.expiresIn, 3600)
    }

    func testUnlinkResponseListsTheRemainingProviders() {
        let response = harness.decode(SetAccountInfo(idToken: "T", deleteProviders: ["password"]),
                                      body: #"{"localId":"u","providerUserInfo":[]}"#)
        XCTAssertEqual(response?.providerUserInfo, [])
        XCTAssertEqual(response?.hasPassword, false)
    }

    func testHalfATokenPairIsMalformed() {
        XCTAssertEqual(harness.error(SetAccountInfo(idToken: "T"), status: 200, body: #"{"idToken":"I"}"#)?.code, .failure)
        XCTAssertEqual(harness.error(SetAccountInfo(idToken: "T"), status: 200, body: #"{"refreshToken":"R"}"#)?.code, .failure)
    }

    // MARK: - Others

    func testDeleteAccountSucceedsOnItsKindOnlyAnswer() {
        let outcome = harness.run(DeleteAccount(idToken: "T"), status: 200, body: #"{"kind":"identitytoolkit#DeleteAccountResponse"}"#)
        guard case .success? = outcome else { return XCTFail("expected success, got \(String(describing: outcome))") }
    }

    func testSendOobCodeReturnsTheEmail() {
        let email = harness.decode(SendOobCode(.passwordReset(email: "a@b.c")),
                                   body: #"{"kind":"identitytoolkit#GetOobConfirmationCodeResponse","email":"a@b.c"}"#)
        XCTAssertEqual(email, "a@b.c")
        XCTAssertEqual(harness.decode(SendOobCode(.verifyEmail(idToken: "T")), body: "{}"), .some(nil))
    }

    func testCreateAuthUriReadsProviderLists() {
        let body = #"""
        {"kind":"identitytoolkit#CreateAuthUriResponse","registered":true,"allProviders":["password","google.com"],
         "signinMethods":["password","emailLink"],"sessionId":"abc"}
        """#
        let response = harness.decode(CreateAuthUri(identifier: "a@b.c"), body: body)
        XCTAssertEqual(response, CreateAuthUri.Response(signinMethods: ["password", "emailLink"],
                                                        allProviders: ["password", "google.com"], registered: true,
                                                        sessionId: "abc"))
    }

    func testCreateAuthUriUnderEmailEnumerationProtectionIsEmpty() {
        let response = harness.decode(CreateAuthUri(identifier: "a@b.c"), body: #"{"kind":"k","sessionId":"s"}"#)
        XCTAssertEqual(response, CreateAuthUri.Response(signinMethods: [], allProviders: [], registered: nil, sessionId: "s"))
    }

    func testTokenRefreshResponseFromTheJSTests() {
        let response = harness.decode(SecureTokenRefresh(refreshToken: "old-refresh-token"),
                                      body: #"{"access_token":"new-access-token","expires_in":"3600","refresh_token":"new-refresh-token"}"#)
        XCTAssertEqual(response?.idToken, "new-access-token")
        XCTAssertEqual(response?.accessToken, "new-access-token")
        XCTAssertEqual(response?.refreshToken, "new-refresh-token")
        XCTAssertEqual(response?.expiresIn, 3600)
        XCTAssertNil(response?.userId)
    }

    func testTokenRefreshResponseFromTheEmulator() {
        let body = #"""
        {"id_token":"\#(idToken)","access_token":"\#(idToken)","expires_in":"3600","refresh_token":"R2",
         "token_type":"Bearer","user_id":"uid-1","project_id":"12345"}
        """#
        let response = harness.decode(SecureTokenRefresh(refreshToken: "R"), body: body)
        XCTAssertEqual(response?.idToken, idToken)
        XCTAssertEqual(response?.userId, "uid-1")
        XCTAssertEqual(response?.projectId, "12345")
    }

    func testTokenRefreshTakesAccessTokenAsFirebaseDoesWhicheverComesFirst() {
        for body in [#"{"access_token":"from-access","id_token":"from-id","expires_in":"3600"}"#,
                     #"{"id_token":"from-id","access_token":"from-access","expires_in":"3600"}"#] {
            let response = harness.decode(SecureTokenRefresh(refreshToken: "R"), body: body)
            XCTAssertEqual(response?.idToken, "from-access", body)
            XCTAssertEqual(response?.accessToken, "from-access", body)
        }
        let onlyId = harness.decode(SecureTokenRefresh(refreshToken: "R"),
                                    body: #"{"access_token":"","id_token":"from-id","expires_in":"3600"}"#)
        XCTAssertEqual(onlyId?.idToken, "from-id", "an empty access_token falls back to id_token")
    }

    func testTokenRefreshWithoutExpiresInUsesTheTokensLifetime() {
        let response = harness.decode(SecureTokenRefresh(refreshToken: "R"), body: #"{"id_token":"\#(idToken)","expires_in":3600.0}"#)
        XCTAssertEqual(response?.expiresIn, 3600)
        XCTAssertNil(response?.refreshToken, "no rotated refresh token: keep the old one")
        let fallback = harness.decode(SecureTokenRefresh(refreshToken: "R"), body: #"{"access_token":"\#(idToken)"}"#)
        XCTAssertEqual(fallback?.expiresIn, 3600)
    }

    func testTokenRefreshWithoutAnyTokenIsMalformed() {
        let error = harness.error(SecureTokenRefresh(refreshToken: "R"), status: 200,
                                  body: #"{"access_token":"","expires_in":"3600"}"#)
        XCTAssertEqual(error?.code, .failure)
        XCTAssertTrue(error?.message.contains("access_token") == true)
    }
}
