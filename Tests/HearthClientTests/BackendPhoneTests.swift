@testable import HearthAuth
@testable import HearthBackend
import HearthWire
import XCTest

/// accounts:sendVerificationCode and accounts:signInWithPhoneNumber: exact requests in production and
/// emulator mode, answers, the temporaryProof conflict, and server errors (client-wire-reference §1.7,
/// §1.8, §5 example 3).
final class BackendPhoneTests: XCTestCase {
    private let harness = BackendHarness()
    private let idToken = makeJWT(["sub": "uid-1", "user_id": "uid-1", "iat": 1000, "exp": 4600])

    private func bodyText<R: BackendRPC>(_ rpc: R) -> String {
        String(decoding: BackendHarness.request(rpc).body, as: UTF8.self)
    }

    private func envelope(_ message: String) -> String {
        let value: JSONValue = ["error": ["code": 400, "message": .string(message)]]
        return value.jsonText
    }

    private func assertServerError<R: BackendRPC>(_ rpc: R, _ expected: [(String, AuthErrorCode)],
                                                  file: StaticString = #filePath, line: UInt = #line) {
        for (message, code) in expected {
            let error = harness.error(rpc, status: 400, body: envelope(message), file: file, line: line)
            XCTAssertEqual(error?.code, code, message, file: file, line: line)
        }
    }

    private let signInWithCode = SignInWithPhoneNumber(proof: .code(sessionInfo: "VERIFICATION_ID", code: "123456"))

    // MARK: - sendVerificationCode

    func testSendVerificationCodeSendsTheNumber() {
        let rpc = SendVerificationCode(phoneNumber: "+16505554567")
        let request = BackendHarness.request(rpc)
        XCTAssertEqual(request.method, "POST")
        XCTAssertEqual(request.url, "https://identitytoolkit.googleapis.com/v1/accounts:sendVerificationCode?key=APIKey")
        XCTAssertEqual(request.header("Content-Type"), "application/json")
        XCTAssertEqual(bodyText(rpc), #"{"phoneNumber":"+16505554567"}"#)
    }

    func testSendVerificationCodeSendsTheRecaptchaTokenWhenThereIsOne() {
        XCTAssertEqual(bodyText(SendVerificationCode(phoneNumber: "+16505554567", recaptchaToken: "RECAPTCHA")),
                       #"{"phoneNumber":"+16505554567","recaptchaToken":"RECAPTCHA"}"#)
    }

    func testSendVerificationCodeGoesToTheEmulatorWithTheSameBody() {
        let rpc = SendVerificationCode(phoneNumber: "+15555550100")
        let request = BackendHarness.request(rpc, config: BackendHarness.emulator)
        XCTAssertEqual(request.url,
                       "http://127.0.0.1:9099/identitytoolkit.googleapis.com/v1/accounts:sendVerificationCode?key=fake-key")
        XCTAssertEqual(request.body, BackendHarness.request(rpc).body)
    }

    func testTheLanguageCodeLocalizesTheSMS() {
        let config = BackendConfig(apiKey: "APIKey", languageCode: "fr")
        let request = BackendHarness.request(SendVerificationCode(phoneNumber: "+33612345678"), config: config)
        XCTAssertEqual(request.header("X-Firebase-Locale"), "fr")
    }

    func testTheSessionInfoIsTheVerificationId() {
        XCTAssertEqual(harness.decode(SendVerificationCode(phoneNumber: "+16505554567"), body: #"{"sessionInfo":"SESSION"}"#),
                       PhoneSessionInfo(sessionInfo: "SESSION"))
    }

    func testAnAnswerWithoutSessionInfoIsMalformed() {
        for body in [#"{}"#, #"{"sessionInfo":""}"#, #"{"sessionInfo":5}"#] {
            let error = harness.error(SendVerificationCode(phoneNumber: "+16505554567"), status: 200, body: body)
            XCTAssertEqual(error?.code, .failure, body)
            XCTAssertEqual(error?.message, "The server sent a malformed response: missing sessionInfo.", body)
        }
    }

    func testSendVerificationCodeErrorsMapThroughTheServerTable() {
        assertServerError(SendVerificationCode(phoneNumber: "+1"), [
            ("INVALID_PHONE_NUMBER : Invalid format.", .invalidPhoneNumber),
            ("MISSING_PHONE_NUMBER", .missingPhoneNumber),
            ("TOO_MANY_ATTEMPTS_TRY_LATER", .tooManyRequests),
            ("QUOTA_EXCEEDED", .quotaExceeded),
            ("CAPTCHA_CHECK_FAILED", .captchaCheckFailed),
            ("INVALID_APP_CREDENTIAL", .invalidAppCredential),
            ("MISSING_APP_CREDENTIAL", .missingAppCredential),
            ("UNSUPPORTED_FIRST_FACTOR : A phone number cannot be set as a first factor on an SMS based MFA user.",
             .unsupportedFirstFactor),
            ("UNSUPPORTED_TENANT_OPERATION", .unsupportedTenantOperation),
        ])
    }

    func testTheServersDetailBecomesTheMessage() {
        let error = harness.error(SendVerificationCode(phoneNumber: "5555550100"), status: 400,
                                  body: envelope("INVALID_PHONE_NUMBER : Invalid format."))
        XCTAssertEqual(error?.message, "Invalid format.")
        XCTAssertEqual(error?.serverCode, "INVALID_PHONE_NUMBER")
    }

    // MARK: - signInWithPhoneNumber requests

    func testSignInSendsSessionInfoCodeAndSignUpOrIn() {
        let request = BackendHarness.request(signInWithCode)
        XCTAssertEqual(request.url, "https://identitytoolkit.googleapis.com/v1/accounts:signInWithPhoneNumber?key=APIKey")
        XCTAssertEqual(bodyText(signInWithCode),
                       #"{"operation":"SIGN_UP_OR_IN","sessionInfo":"VERIFICATION_ID","code":"123456"}"#)
    }

    func testSignInGoesToTheEmulatorWithTheSameBody() {
        let request = BackendHarness.request(signInWithCode, config: BackendHarness.emulator)
        XCTAssertEqual(request.url,
                       "http://127.0.0.1:9099/identitytoolkit.googleapis.com/v1/accounts:signInWithPhoneNumber?key=fake-key")
        XCTAssertEqual(request.body, BackendHarness.request(signInWithCode).body)
    }

    func testLinkSendsTheUsersIdTokenAndLink() {
        let rpc = SignInWithPhoneNumber(proof: .code(sessionInfo: "55432", code: "12345678"),
                                        purpose: .link(idToken: "accessToken"))
        XCTAssertEqual(bodyText(rpc),
                       #"{"operation":"LINK","sessionInfo":"55432","code":"12345678","idToken":"accessToken"}"#)
    }

    func testUpdatingThePhoneNumberSendsTheUsersIdTokenAndUpdate() {
        let rpc = SignInWithPhoneNumber(proof: .code(sessionInfo: "55432", code: "12345678"),
                                        purpose: .updatePhoneNumber(idToken: "accessToken"))
        XCTAssertEqual(bodyText(rpc),
                       #"{"operation":"UPDATE","sessionInfo":"55432","code":"12345678","idToken":"accessToken"}"#)
    }

    func testReauthenticationSendsReauthAndNoIdToken() {
        let rpc = SignInWithPhoneNumber(proof: .code(sessionInfo: "55432", code: "12345678"), purpose: .reauthenticate)
        XCTAssertEqual(bodyText(rpc), #"{"operation":"REAUTH","sessionInfo":"55432","code":"12345678"}"#)
    }

    func testATemporaryProofIsSentWithItsPhoneNumberInsteadOfACode() {
        let rpc = SignInWithPhoneNumber(proof: .temporaryProof(phoneNumber: "4155551234", temporaryProof: "12345658"))
        XCTAssertEqual(bodyText(rpc), #"{"operation":"SIGN_UP_OR_IN","phoneNumber":"4155551234","temporaryProof":"12345658"}"#)
        let link = SignInWithPhoneNumber(proof: .temporaryProof(phoneNumber: "4155551234", temporaryProof: "12345658"),
                                         purpose: .link(idToken: "accessToken"))
        XCTAssertEqual(decodedJSONBody(BackendHarness.request(link)), [
            "temporaryProof": "12345658", "phoneNumber": "4155551234", "idToken": "accessToken", "operation": "LINK",
        ])
    }

    func testPrintedPhoneRequestsNameOnlyTheEndpoint() {
        let rpcs: [any BackendRPC] = [
            signInWithCode,
            SignInWithPhoneNumber(proof: .temporaryProof(phoneNumber: "+16505554567", temporaryProof: "PROOF"),
                                  purpose: .link(idToken: "ID_TOKEN")),
            SendVerificationCode(phoneNumber: "+16505554567", recaptchaToken: "RECAPTCHA"),
        ]
        for rpc in rpcs {
            var dumped = ""
            dump(rpc, to: &dumped)
            for text in [String(describing: rpc), String(reflecting: rpc), dumped] {
                for secret in ["VERIFICATION_ID", "123456", "PROOF", "ID_TOKEN", "RECAPTCHA", "6505554567"] {
                    XCTAssertFalse(text.contains(secret), text)
                }
            }
        }
    }

    // MARK: - signInWithPhoneNumber answers

    func testTheIOSVerifyPhoneNumberAnswerDecodes() {
        let body = #"{"idToken":"ID_TOKEN","refreshToken":"REFRESH_TOKEN","localId":"testLocalId","expiresIn":"12345","isNewUser":true}"#
        let response = harness.decode(signInWithCode, body: body)
        XCTAssertEqual(response?.tokens.idToken, "ID_TOKEN")
        XCTAssertEqual(response?.tokens.refreshToken, "REFRESH_TOKEN")
        XCTAssertEqual(response?.tokens.localId, "testLocalId")
        XCTAssertEqual(response?.tokens.expiresIn, 12345)
        XCTAssertEqual(response?.tokens.isNewUser, true)
        XCTAssertNil(response?.phoneNumber)
    }

    func testTheEmulatorsAnswerDecodesWithThePhoneNumber() {
        let body = #"{"isNewUser":false,"phoneNumber":"+15555550100","localId":"uid-1","idToken":"\#(idToken)","#
            + #""refreshToken":"REFRESH","expiresIn":"3600"}"#
        let response = harness.decode(signInWithCode, body: body)
        XCTAssertEqual(response?.phoneNumber, "+15555550100")
        XCTAssertEqual(response?.tokens.localId, "uid-1")
        XCTAssertEqual(response?.tokens.isNewUser, false)
        XCTAssertEqual(response?.tokens.expiresIn, 3600)
    }

    func testExpiresInAsANumberAndAbsentAreBothRead() {
        let number = harness.decode(signInWithCode, body: #"{"idToken":"\#(idToken)","refreshToken":"R","expiresIn":1800}"#)
        XCTAssertEqual(number?.tokens.expiresIn, 1800)
        let absent = harness.decode(signInWithCode, body: #"{"idToken":"\#(idToken)","refreshToken":"R"}"#)
        XCTAssertEqual(absent?.tokens.expiresIn, 3600, "exp - iat of the ID token")
        XCTAssertEqual(absent?.tokens.localId, "uid-1", "the ID token's user_id")
    }

    func testAnAnswerWithoutTokensIsMalformed() {
        let error = harness.error(signInWithCode, status: 200, body: #"{"phoneNumber":"+15555550100","localId":"uid-1"}"#)
        XCTAssertEqual(error?.code, .failure)
    }

    // MARK: - The temporaryProof conflict

    func testLinkingANumberOwnedByAnotherAccountFailsWithItsUpdatedCredential() throws {
        let rpc = SignInWithPhoneNumber(proof: .code(sessionInfo: "55432", code: "12345678"),
                                        purpose: .link(idToken: "accessToken"))
        let error = try XCTUnwrap(harness.error(rpc, status: 200,
                                                body: #"{"temporaryProof":"12345658","phoneNumber":"4155551234"}"#))
        XCTAssertEqual(error.code, .credentialAlreadyInUse)
        XCTAssertEqual(error.body, ["temporaryProof": "12345658", "phoneNumber": "4155551234"])
        XCTAssertEqual(PhoneCredentialValue(updatedCredentialFrom: error),
                       .temporaryProof(phoneNumber: "4155551234", temporaryProof: "12345658"))
    }

    func testUpdatingToANumberOwnedByAnotherAccountFailsTheSameWay() throws {
        let rpc = SignInWithPhoneNumber(proof: .code(sessionInfo: "S", code: "1"), purpose: .updatePhoneNumber(idToken: "T"))
        let body = #"{"temporaryProof":"PROOF","temporaryProofExpiresIn":"3600","phoneNumber":"+15555550101"}"#
        let error = try XCTUnwrap(harness.error(rpc, status: 200, body: body))
        XCTAssertEqual(error.code, .credentialAlreadyInUse)
        XCTAssertEqual(PhoneCredentialValue(updatedCredentialFrom: error),
                       .temporaryProof(phoneNumber: "+15555550101", temporaryProof: "PROOF"))
    }

    func testATemporaryProofWithoutTokensIsAConflictForEveryPurpose() {
        let body = #"{"temporaryProof":"PROOF","phoneNumber":"+15555550101"}"#
        for purpose in [SignInWithPhoneNumber.Purpose.signIn, .reauthenticate] {
            let rpc = SignInWithPhoneNumber(proof: .code(sessionInfo: "S", code: "1"), purpose: purpose)
            XCTAssertEqual(harness.error(rpc, status: 200, body: body)?.code, .credentialAlreadyInUse, "\(purpose)")
        }
    }

    func testATemporaryProofBesideTokensIsASuccess() {
        let body = #"{"idToken":"\#(idToken)","refreshToken":"R","temporaryProof":"PROOF","phoneNumber":"+15555550101"}"#
        let rpc = SignInWithPhoneNumber(proof: .code(sessionInfo: "S", code: "1"), purpose: .link(idToken: "T"))
        XCTAssertEqual(harness.decode(rpc, body: body)?.phoneNumber, "+15555550101")
    }

    func testUsingTheProofAgainAfterTheConflictIsCredentialAlreadyInUse() {
        let rpc = SignInWithPhoneNumber(proof: .temporaryProof(phoneNumber: "+15555550101", temporaryProof: "PROOF"),
                                        purpose: .link(idToken: "T"))
        XCTAssertEqual(harness.error(rpc, status: 400, body: envelope("PHONE_NUMBER_EXISTS"))?.code, .credentialAlreadyInUse)
    }

    func testASecondFactorAnswerIsSecondFactorRequired() {
        let body = #"{"mfaPendingCredential":"PENDING","mfaInfo":[{"mfaEnrollmentId":"E","phoneInfo":"+*******0100"}]}"#
        let error = harness.error(signInWithCode, status: 200, body: body)
        XCTAssertEqual(error?.code, .secondFactorRequired)
        XCTAssertEqual(error.flatMap(MultiFactorPending.init(from:))?.pendingCredential, "PENDING")
    }

    func testSignInErrorsMapThroughTheServerTable() {
        assertServerError(signInWithCode, [
            ("INVALID_CODE", .invalidVerificationCode),
            ("INVALID_SESSION_INFO", .invalidVerificationId),
            ("SESSION_EXPIRED", .sessionExpired),
            ("MISSING_CODE", .missingVerificationCode),
            ("MISSING_SESSION_INFO", .missingVerificationId),
            ("INVALID_TEMPORARY_PROOF", .invalidCredential),
            ("MISSING_PHONE_NUMBER", .missingPhoneNumber),
            ("INVALID_PHONE_NUMBER", .invalidPhoneNumber),
            ("USER_DISABLED", .userDisabled),
            ("USER_NOT_FOUND", .userNotFound),
            ("UNSUPPORTED_FIRST_FACTOR", .unsupportedFirstFactor),
            ("TOO_MANY_ATTEMPTS_TRY_LATER : Too many attempts", .tooManyRequests),
            ("INVALID_ID_TOKEN", .invalidUserToken),
            ("TOKEN_EXPIRED", .userTokenExpired),
            ("CREDENTIAL_TOO_OLD_LOGIN_AGAIN", .requiresRecentLogin),
        ])
    }
}
