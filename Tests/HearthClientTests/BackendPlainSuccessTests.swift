@testable import HearthBackend
@testable import HearthTransport
import HearthWire
import XCTest

/// The answers every sign-in and token refresh gets are read straight from their bytes
/// (`decode(plainSuccess:)`): that reading must give exactly what parsing the tree and decoding it gives,
/// and must hand anything that needs a closer look (success-shaped errors, broken JSON) to the tree path.
final class BackendPlainSuccessTests: XCTestCase {
    private let idToken = makeJWT(["sub": "uid-1", "user_id": "uid-1", "iat": 1000, "exp": 4600,
                                   "firebase": ["sign_in_provider": "password", "identities": ["email": ["a@b.c"]]]])

    private var tokenAnswers: [String] {
        [
            #"{"idToken":"\#(idToken)","refreshToken":"R","expiresIn":"3600","localId":"uid-1"}"#,
            #"{"kind":"identitytoolkit#SignupNewUserResponse","idToken":"\#(idToken)","refreshToken":"R","expiresIn":3600}"#,
            #"{"kind":"identitytoolkit#VerifyPasswordResponse","registered":true,"localId":"uid-1","email":"a@b.c","#
                + #""displayName":"Ada \"Lovelace\" \u00e9","idToken":"I","refreshToken":"R","expiresIn":"3600","#
                + #""profilePicture":"https://x/p.png","unknown":{"nested":[1,{"x":null}]}}"#,
            #"{"idToken":"\#(idToken)","refreshToken":"R"}"#,
            #"{"idToken":"\#(idToken)","refreshToken":"R","expiresIn":"soon","isNewUser":"true","registered":"maybe"}"#,
            #"{"idToken":42,"refreshToken":"R"}"#,
            #"{"idToken":"I","refreshToken":""}"#,
            #"{"refreshToken":"R","expiresIn":"3600"}"#,
            #"{"idToken":"I","refreshToken":"R","email":7,"localId":["x"],"photoUrl":null,"photoUrl":"later wins"}"#,
            #"{"idToken":"first","refreshToken":"R","idToken":"second"}"#,
            #"{"id\u0054oken":"escaped key","refreshToken":"R"}"#,
            "{}",
        ]
    }

    private var lookupAnswers: [String] {
        [
            #"{"kind":"identitytoolkit#GetAccountInfoResponse","users":[{"localId":"uid-1","email":"a@b.c","#
                + #""emailVerified":false,"passwordHash":"UkVEQUNURUQ=","passwordUpdatedAt":1795312159262,"#
                + #""providerUserInfo":[{"providerId":"password","federatedId":"a@b.c","email":"a@b.c","rawId":"a@b.c"}],"#
                + #""validSince":"1795312159","lastLoginAt":"1795312159267","createdAt":"1795312159262","#
                + #""lastRefreshAt":"2026-11-22T01:49:19.268Z"}]}"#,
            #"{"users":[{"localId":"u","displayName":"Ada","photoUrl":"https://x","phoneNumber":"+15555550100","#
                + #""disabled":true,"customAttributes":"{\"admin\":true}","tenantId":"t1","createdAt":1700000000000,"#
                + #""mfaInfo":[{"mfaEnrollmentId":"e1","phoneInfo":"+1***","displayName":"phone","enrolledAt":"2024-01-01T00:00:00Z"},"#
                + #"{"mfaEnrollmentId":"e2","totpInfo":{}},{"displayName":"no id"},"junk"]}]}"#,
            #"{"users":[{"localId":"u","providerUserInfo":[{"rawId":"x"},"junk",{"providerId":""},{"providerId":"github.com","rawId":"9"}],"#
                + #""emailVerified":"true","passwordHash":""}]}"#,
            #"{"users":[{"localId":"u","providerUserInfo":{"providerId":"not a list"},"mfaInfo":"nope","createdAt":"-1"}]}"#,
            #"{"users":[]}"#,
            #"{"users":[{"localId":"a"},{"localId":"b"}]}"#,
            #"{"users":[{"email":"a@b.c"}]}"#,
            #"{"users":"nobody"}"#,
            #"{"kind":"identitytoolkit#GetAccountInfoResponse"}"#,
        ]
    }

    private var refreshAnswers: [String] {
        [
            #"{"access_token":"new-access","expires_in":"3600","refresh_token":"new-refresh"}"#,
            #"{"id_token":"\#(idToken)","access_token":"\#(idToken)","expires_in":"3600","refresh_token":"R2","#
                + #""token_type":"Bearer","user_id":"uid-1","project_id":"12345"}"#,
            #"{"id_token":"\#(idToken)","expires_in":3600.0}"#,
            #"{"access_token":"\#(idToken)"}"#,
            #"{"access_token":"","expires_in":"3600"}"#,
            #"{"access_token":"A","id_token":"B","expires_in":"3600"}"#,
            #"{"id_token":"B","access_token":"A","expires_in":"3600"}"#,
            #"{"access_token":"","id_token":"B","expires_in":"3600"}"#,
        ]
    }

    func testTokenAnswersReadTheSameFromBytesAsFromTheTree() {
        for body in tokenAnswers {
            assertSameBothWays(SignInWithPassword(email: "a@b.c", password: "pw"), body)
            assertSameBothWays(SignUp.anonymous, body)
            assertSameBothWays(SignUp(email: "a@b.c", password: "pw"), body)
            assertSameBothWays(SignInWithCustomToken(token: "custom"), body)
        }
    }

    func testLookupAnswersReadTheSameFromBytesAsFromTheTree() {
        for body in lookupAnswers {
            assertSameBothWays(GetAccountInfo(idToken: "T"), body)
        }
    }

    func testTokenRefreshAnswersReadTheSameFromBytesAsFromTheTree() {
        for body in refreshAnswers {
            assertSameBothWays(SecureTokenRefresh(refreshToken: "R"), body)
        }
    }

    func testAnswersASuccessShapedErrorCheckLooksAtGoToTheTree() {
        let flagged = [
            #"{"idToken":"I","refreshToken":"R","needConfirmation":true}"#,
            #"{"idToken":"I","refreshToken":"R","needConfirmation":false}"#,
            #"{"errorMessage":"EMAIL_EXISTS"}"#,
            #"{"mfaPendingCredential":"pending","mfaInfo":[{"mfaEnrollmentId":"e","phoneInfo":"+1"}]}"#,
            #"{"temporaryProof":"proof","phoneNumber":"+15555550100"}"#,
        ]
        for body in flagged {
            XCTAssertNil(SignInWithPassword(email: "e", password: "p").decode(plainSuccess: Array(body.utf8)), body)
            XCTAssertNil(GetAccountInfo(idToken: "T").decode(plainSuccess: Array(body.utf8)), body)
            assertSameBothWays(SignInWithPassword(email: "e", password: "p"), body)
        }
        let harness = BackendHarness()
        XCTAssertEqual(harness.error(SignInWithPassword(email: "e", password: "p"), status: 200, body: flagged[3])?.code,
                       .secondFactorRequired)
        XCTAssertEqual(harness.error(SignInWithPassword(email: "e", password: "p"), status: 200, body: flagged[0])?.code,
                       .accountExistsWithDifferentCredentials)
        XCTAssertEqual(harness.decode(SignInWithPassword(email: "e", password: "p"), body: flagged[1])?.idToken, "I")
    }

    func testBodiesThatAreNotOneJSONObjectGoToTheTree() {
        for body in ["", "[]", "null", #""text""#, "{", #"{"idToken":"I","refreshToken":"R"} trailing"#,
                     "<html>502 Bad Gateway</html>", #"{"idToken":"I\u12","refreshToken":"R"}"#] {
            XCTAssertNil(SignInWithPassword(email: "e", password: "p").decode(plainSuccess: Array(body.utf8)), body)
            let error = BackendHarness().error(SignInWithPassword(email: "e", password: "p"), status: 200, body: body)
            XCTAssertEqual(error?.code, .failure, body)
        }
    }

    func testRPCsThatDoNotReadFromBytesSaySo() {
        XCTAssertNil(DeleteAccount(idToken: "T").decode(plainSuccess: Array("{}".utf8)))
    }

    func testTheSignInProviderClaimReadsAsTheClaimsSayIt() throws {
        let tokens: [(String, String?)] = [
            (idToken, "password"),
            (makeJWT(["firebase": ["identities": [:], "sign_in_provider": "anonymous"], "sub": "u"]), "anonymous"),
            (makeJWT(["firebase": ["sign_in_provider": ""]]), nil),
            (makeJWT(["firebase": "password"]), nil),
            (makeJWT(["sign_in_provider": "password"]), nil),
            (makeJWT(["firebase": ["sign_in_provider": 7]]), nil),
            ("not.a.jwt.at all", nil),
            ("header..", nil),
            ("", nil),
        ]
        for (token, expected) in tokens {
            XCTAssertEqual(JWTClaims.signInProvider(of: token), expected, token)
            XCTAssertEqual((try? JWTClaims(token: token))?.signInProvider, expected, token)
        }
    }

    // MARK: - Helpers

    private func assertSameBothWays<R: BackendRPC>(_ rpc: R, _ body: String, file: StaticString = #filePath,
                                                   line: UInt = #line) where R.Response: Equatable {
        let bytes = Array(body.utf8)
        let response = HTTPResponse(status: 200, body: bytes, contentType: "application/json")
        let fromTree = ResponseClassifier.classify(response, checks: rpc.successShapedErrors).flatMap { object in
            Result { () throws(AuthError) -> R.Response in try rpc.decode(object) }
        }
        let fromBytes = rpc.decode(plainSuccess: bytes)
        if let fromBytes {
            XCTAssertEqual(fromBytes, fromTree, "\(rpc): \(body)", file: file, line: line)
        }
        let harness = BackendHarness()
        XCTAssertEqual(harness.run(rpc, status: 200, body: body), fromTree, "through Backend: \(body)", file: file, line: line)
    }
}
