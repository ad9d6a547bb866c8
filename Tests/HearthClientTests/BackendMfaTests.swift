@testable import HearthAuth
@testable import HearthBackend
import HearthWire
import XCTest

/// The v2 MFA RPCs: exact requests in production and emulator mode, answers (TOTP session fields,
/// numbers as strings, token lifetimes from the JWT), and server errors (client-wire-reference §1.14,
/// §5 example 4; emulator-reference §1b, §4).
final class BackendMfaTests: XCTestCase {
    private let harness = BackendHarness()
    /// An ID token valid for 3600 s, as MFA finalize answers carry without `expiresIn`.
    private let idToken = makeJWT(["sub": "uid-1", "user_id": "uid-1", "iat": 1000, "exp": 4600,
                                   "firebase": ["sign_in_provider": "password", "sign_in_second_factor": "phone"]])

    private func bodyText<R: BackendRPC>(_ rpc: R) -> String {
        String(decoding: BackendHarness.request(rpc).body, as: UTF8.self)
    }

    private func envelope(_ message: String) -> String {
        let value: JSONValue = ["error": ["code": 400, "message": .string(message), "status": "INVALID_ARGUMENT"]]
        return value.jsonText
    }

    private func assertServerError<R: BackendRPC>(_ rpc: R, _ expected: [(String, AuthErrorCode)],
                                                  file: StaticString = #filePath, line: UInt = #line) {
        for (message, code) in expected {
            let error = harness.error(rpc, status: 400, body: envelope(message), file: file, line: line)
            XCTAssertEqual(error?.code, code, message, file: file, line: line)
        }
    }

    private func assertEndpoint<R: BackendRPC>(_ rpc: R, _ path: String, file: StaticString = #filePath,
                                               line: UInt = #line) {
        let production = BackendHarness.request(rpc)
        XCTAssertEqual(production.method, "POST", file: file, line: line)
        XCTAssertEqual(production.url, "https://identitytoolkit.googleapis.com/v2/\(path)?key=APIKey", file: file, line: line)
        XCTAssertEqual(production.header("Content-Type"), "application/json", file: file, line: line)
        let emulator = BackendHarness.request(rpc, config: BackendHarness.emulator)
        XCTAssertEqual(emulator.url, "http://127.0.0.1:9099/identitytoolkit.googleapis.com/v2/\(path)?key=fake-key",
                       file: file, line: line)
        XCTAssertEqual(emulator.body, production.body, file: file, line: line)
    }

    private let totpSessionBody = #"{"totpSessionInfo":{"sharedSecretKey":"GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ","#
        + #""verificationCodeLength":6,"hashingAlgorithm":"SHA1","periodSec":30,"sessionInfo":"TOTP_SESSION","#
        + #""finalizeEnrollmentTime":"2024-05-01T12:34:56.789Z"}}"#

    // MARK: - mfaEnrollment:start

    func testStartingAPhoneEnrollmentSendsTheNumber() {
        let rpc = StartMfaEnrollment(idToken: "ID_TOKEN", factor: .phone(phoneNumber: "+16505554567", recaptchaToken: nil))
        assertEndpoint(rpc, "accounts/mfaEnrollment:start")
        XCTAssertEqual(bodyText(rpc), #"{"idToken":"ID_TOKEN","phoneEnrollmentInfo":{"phoneNumber":"+16505554567"}}"#)
    }

    func testStartingAPhoneEnrollmentSendsTheRecaptchaTokenInsideTheEnrollmentInfo() {
        let rpc = StartMfaEnrollment(idToken: "ID_TOKEN",
                                     factor: .phone(phoneNumber: "+16505554567", recaptchaToken: "RECAPTCHA"))
        XCTAssertEqual(bodyText(rpc), #"{"idToken":"ID_TOKEN","phoneEnrollmentInfo":"#
            + #"{"phoneNumber":"+16505554567","recaptchaToken":"RECAPTCHA"}}"#)
    }

    func testStartingATOTPEnrollmentSendsAnEmptyEnrollmentInfo() {
        // StartMFAEnrollmentRequestTests (TOTP).
        let rpc = StartMfaEnrollment(idToken: "idToken", factor: .totp)
        assertEndpoint(rpc, "accounts/mfaEnrollment:start")
        XCTAssertEqual(bodyText(rpc), #"{"idToken":"idToken","totpEnrollmentInfo":{}}"#)
    }

    func testAPhoneEnrollmentAnswersWithItsSession() {
        let rpc = StartMfaEnrollment(idToken: "T", factor: .phone(phoneNumber: "+16505554567", recaptchaToken: nil))
        XCTAssertEqual(harness.decode(rpc, body: #"{"phoneSessionInfo":{"sessionInfo":"PHONE_SESSION"}}"#),
                       .phone(PhoneSessionInfo(sessionInfo: "PHONE_SESSION")))
    }

    func testAPhoneEnrollmentAnswerWithoutTheSessionIsMalformed() {
        let rpc = StartMfaEnrollment(idToken: "T", factor: .phone(phoneNumber: "+16505554567", recaptchaToken: nil))
        for body in [#"{}"#, #"{"phoneSessionInfo":{}}"#, #"{"phoneSessionInfo":"S"}"#, totpSessionBody] {
            let error = harness.error(rpc, status: 200, body: body)
            XCTAssertEqual(error?.code, .failure, body)
            XCTAssertEqual(error?.message, "The server sent a malformed response: missing phoneSessionInfo.sessionInfo.")
        }
    }

    func testATOTPEnrollmentAnswersWithTheSharedSecretAndItsParameters() {
        let response = harness.decode(StartMfaEnrollment(idToken: "T", factor: .totp), body: totpSessionBody)
        XCTAssertEqual(response, .totp(TotpEnrollmentSession(
            sharedSecretKey: "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ", sessionInfo: "TOTP_SESSION", verificationCodeLength: 6,
            hashingAlgorithm: "SHA1", periodSec: 30, finalizeEnrollmentTime: "2024-05-01T12:34:56.789Z")))
    }

    func testTOTPNumbersSentAsStringsAreRead() {
        let body = #"{"totpSessionInfo":{"sharedSecretKey":"GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ","#
            + #""verificationCodeLength":"8","hashingAlgorithm":"SHA256","periodSec":"60","sessionInfo":"S"}}"#
        guard case .totp(let session)? = harness.decode(StartMfaEnrollment(idToken: "T", factor: .totp), body: body) else {
            return XCTFail("expected a TOTP session")
        }
        XCTAssertEqual(session.verificationCodeLength, 8)
        XCTAssertEqual(session.periodSec, 60)
        XCTAssertEqual(session.hashingAlgorithm, "SHA256")
        XCTAssertNil(session.finalizeEnrollmentTime)
    }

    func testATOTPAnswerWithoutTheSecretOrTheSessionIsMalformed() {
        let bodies = [
            (#"{"phoneSessionInfo":{"sessionInfo":"S"}}"#, "missing totpSessionInfo"),
            (#"{"totpSessionInfo":{"sessionInfo":"S"}}"#, "missing totpSessionInfo.sharedSecretKey"),
            (#"{"totpSessionInfo":{"sharedSecretKey":"GEZDGNBV"}}"#, "missing totpSessionInfo.sessionInfo"),
        ]
        for (body, what) in bodies {
            let error = harness.error(StartMfaEnrollment(idToken: "T", factor: .totp), status: 200, body: body)
            XCTAssertEqual(error?.code, .failure, body)
            XCTAssertEqual(error?.message, "The server sent a malformed response: \(what).")
        }
    }

    func testTheTOTPSessionFinalizesWithACodeGeneratedFromItsSecret() throws {
        guard case .totp(let session)? = harness.decode(StartMfaEnrollment(idToken: "T", factor: .totp),
                                                        body: totpSessionBody) else {
            return XCTFail("expected a TOTP session")
        }
        let secret = try TOTPSecret(session: session)
        let code = secret.generator.code(atUnixTime: 1_714_566_800)
        XCTAssertEqual(code.count, 6)
        let finalize = FinalizeMfaEnrollment(idToken: "ID_TOKEN", displayName: "Authenticator",
                                             verification: .totp(sessionInfo: secret.sessionInfo, verificationCode: code))
        XCTAssertEqual(decodedJSONBody(BackendHarness.request(finalize)), [
            "idToken": "ID_TOKEN", "displayName": "Authenticator",
            "totpVerificationInfo": ["sessionInfo": "TOTP_SESSION", "verificationCode": .string(code)],
        ])
    }

    func testStartEnrollmentErrorsMapThroughTheServerTable() {
        assertServerError(StartMfaEnrollment(idToken: "T", factor: .phone(phoneNumber: "+1", recaptchaToken: nil)), [
            ("UNVERIFIED_EMAIL : Need to verify email first before enrolling second factors.", .unverifiedEmail),
            ("UNSUPPORTED_FIRST_FACTOR : MFA is not available for the given first factor.", .unsupportedFirstFactor),
            ("SECOND_FACTOR_EXISTS : Phone number already enrolled as second factor for this account.",
             .secondFactorAlreadyEnrolled),
            ("SECOND_FACTOR_LIMIT_EXCEEDED", .maximumSecondFactorCountExceeded),
            ("INVALID_PHONE_NUMBER : Invalid format.", .invalidPhoneNumber),
            ("MISSING_PHONE_NUMBER", .missingPhoneNumber),
            ("INVALID_ID_TOKEN", .invalidUserToken),
            ("TOO_MANY_ATTEMPTS_TRY_LATER", .tooManyRequests),
            ("OPERATION_NOT_ALLOWED : SMS based MFA not enabled.", .operationNotAllowed),
            ("CAPTCHA_CHECK_FAILED", .captchaCheckFailed),
        ])
    }

    func testTheServersDetailIsKeptAsTheMessage() {
        let rpc = StartMfaEnrollment(idToken: "T", factor: .totp)
        let error = harness.error(rpc, status: 400,
                                  body: envelope("UNVERIFIED_EMAIL : Need to verify email first before enrolling second factors."))
        XCTAssertEqual(error?.code, .unverifiedEmail)
        XCTAssertEqual(error?.message, "Need to verify email first before enrolling second factors.")
        XCTAssertEqual(error?.serverCode, "UNVERIFIED_EMAIL")
    }

    // MARK: - mfaEnrollment:finalize

    func testFinalizingAPhoneEnrollmentSendsTheSessionCodeAndName() {
        let rpc = FinalizeMfaEnrollment(idToken: "ID_TOKEN", displayName: "Work phone",
                                        verification: .phone(sessionInfo: "PHONE_SESSION", code: "123456"))
        assertEndpoint(rpc, "accounts/mfaEnrollment:finalize")
        XCTAssertEqual(bodyText(rpc), #"{"idToken":"ID_TOKEN","displayName":"Work phone","#
            + #""phoneVerificationInfo":{"sessionInfo":"PHONE_SESSION","code":"123456"}}"#)
    }

    func testFinalizingWithoutANameLeavesItOut() {
        let rpc = FinalizeMfaEnrollment(idToken: "ID_TOKEN",
                                        verification: .totp(sessionInfo: "TOTP_SESSION", verificationCode: "CODE"))
        XCTAssertEqual(bodyText(rpc),
                       #"{"idToken":"ID_TOKEN","totpVerificationInfo":{"sessionInfo":"TOTP_SESSION","verificationCode":"CODE"}}"#)
    }

    func testTheFinalizeAnswersTokensTakeTheirLifetimeFromTheIdToken() {
        let rpc = FinalizeMfaEnrollment(idToken: "T", verification: .phone(sessionInfo: "S", code: "1"))
        let tokens = harness.decode(rpc, body: #"{"idToken":"\#(idToken)","refreshToken":"NEW_REFRESH"}"#)
        XCTAssertEqual(tokens?.idToken, idToken)
        XCTAssertEqual(tokens?.refreshToken, "NEW_REFRESH")
        XCTAssertEqual(tokens?.expiresIn, 3600)
        XCTAssertEqual(tokens?.localId, "uid-1")
    }

    func testAFinalizeAnswerWithoutTokensIsMalformed() {
        let rpc = FinalizeMfaEnrollment(idToken: "T", verification: .phone(sessionInfo: "S", code: "1"))
        XCTAssertEqual(harness.error(rpc, status: 200, body: #"{"idToken":"\#(idToken)"}"#)?.code, .failure)
        XCTAssertEqual(harness.error(rpc, status: 200, body: #"{"phoneAuthInfo":{}}"#)?.code, .failure)
    }

    func testFinalizeEnrollmentErrorsMapThroughTheServerTable() {
        assertServerError(FinalizeMfaEnrollment(idToken: "T", verification: .phone(sessionInfo: "S", code: "1")), [
            ("INVALID_CODE", .invalidVerificationCode),
            ("INVALID_SESSION_INFO", .invalidVerificationId),
            ("SESSION_EXPIRED", .sessionExpired),
            ("MISSING_CODE", .missingVerificationCode),
            ("MISSING_SESSION_INFO", .missingVerificationId),
            ("SECOND_FACTOR_EXISTS", .secondFactorAlreadyEnrolled),
            ("SECOND_FACTOR_LIMIT_EXCEEDED", .maximumSecondFactorCountExceeded),
            ("TOKEN_EXPIRED", .userTokenExpired),
        ])
    }

    // MARK: - mfaEnrollment:withdraw

    func testWithdrawingSendsTheEnrollmentId() {
        let rpc = WithdrawMfa(idToken: "ID_TOKEN", mfaEnrollmentId: "ENROLLMENT_ID")
        assertEndpoint(rpc, "accounts/mfaEnrollment:withdraw")
        XCTAssertEqual(bodyText(rpc), #"{"idToken":"ID_TOKEN","mfaEnrollmentId":"ENROLLMENT_ID"}"#)
    }

    func testTheWithdrawAnswerReplacesTheTokens() {
        let rpc = WithdrawMfa(idToken: "T", mfaEnrollmentId: "E")
        // Production sends no expiresIn; the emulator sends one.
        XCTAssertEqual(harness.decode(rpc, body: #"{"idToken":"\#(idToken)","refreshToken":"R"}"#)?.expiresIn, 3600)
        let emulator = harness.decode(rpc, body: #"{"idToken":"\#(idToken)","refreshToken":"R","expiresIn":"1800"}"#)
        XCTAssertEqual(emulator?.expiresIn, 1800)
        XCTAssertEqual(emulator?.refreshToken, "R")
    }

    func testWithdrawErrorsMapThroughTheServerTable() {
        assertServerError(WithdrawMfa(idToken: "T", mfaEnrollmentId: "E"), [
            ("MFA_ENROLLMENT_NOT_FOUND", .multiFactorInfoNotFound),
            ("MISSING_MFA_ENROLLMENT_ID", .missingMultiFactorInfo),
            ("INVALID_ID_TOKEN", .invalidUserToken),
            ("CREDENTIAL_TOO_OLD_LOGIN_AGAIN", .requiresRecentLogin),
            ("USER_NOT_FOUND", .userNotFound),
        ])
    }

    // MARK: - mfaSignIn:start

    func testStartingAPhoneSignInSendsThePendingCredentialAndTheFactor() {
        let rpc = StartMfaSignIn(mfaPendingCredential: "PENDING", mfaEnrollmentId: "ENROLLMENT_ID")
        assertEndpoint(rpc, "accounts/mfaSignIn:start")
        XCTAssertEqual(bodyText(rpc),
                       #"{"mfaPendingCredential":"PENDING","mfaEnrollmentId":"ENROLLMENT_ID","phoneSignInInfo":{}}"#)
    }

    func testStartingAPhoneSignInSendsTheMaskedNumberAndTokenWhenGiven() {
        let rpc = StartMfaSignIn(mfaPendingCredential: "PENDING", mfaEnrollmentId: "ENROLLMENT_ID",
                                 phoneNumber: "+*******0100", recaptchaToken: "RECAPTCHA")
        XCTAssertEqual(bodyText(rpc), #"{"mfaPendingCredential":"PENDING","mfaEnrollmentId":"ENROLLMENT_ID","#
            + #""phoneSignInInfo":{"phoneNumber":"+*******0100","recaptchaToken":"RECAPTCHA"}}"#)
    }

    func testThePhoneSignInAnswersWithItsSession() {
        let rpc = StartMfaSignIn(mfaPendingCredential: "P", mfaEnrollmentId: "E")
        XCTAssertEqual(harness.decode(rpc, body: #"{"phoneResponseInfo":{"sessionInfo":"SIGN_IN_SESSION"}}"#),
                       PhoneSessionInfo(sessionInfo: "SIGN_IN_SESSION"))
        let error = harness.error(rpc, status: 200, body: #"{"phoneSessionInfo":{"sessionInfo":"S"}}"#)
        XCTAssertEqual(error?.message, "The server sent a malformed response: missing phoneResponseInfo.sessionInfo.")
    }

    func testStartSignInErrorsMapThroughTheServerTable() {
        assertServerError(StartMfaSignIn(mfaPendingCredential: "P", mfaEnrollmentId: "E"), [
            ("MISSING_MFA_PENDING_CREDENTIAL : Request does not have MFA pending credential.", .missingMultiFactorSession),
            ("INVALID_MFA_PENDING_CREDENTIAL", .invalidMultiFactorSession),
            ("MISSING_MFA_ENROLLMENT_ID : No second factor identifier is provided.", .missingMultiFactorInfo),
            ("MFA_ENROLLMENT_NOT_FOUND", .multiFactorInfoNotFound),
            ("TOO_MANY_ATTEMPTS_TRY_LATER", .tooManyRequests),
            ("INVALID_APP_CREDENTIAL", .invalidAppCredential),
            ("QUOTA_EXCEEDED", .quotaExceeded),
        ])
    }

    // MARK: - mfaSignIn:finalize

    func testFinishingAPhoneSignInSendsTheSessionAndCode() {
        let rpc = FinalizeMfaSignIn(mfaPendingCredential: "PENDING",
                                    verification: .phone(sessionInfo: "SIGN_IN_SESSION", code: "123456"))
        assertEndpoint(rpc, "accounts/mfaSignIn:finalize")
        XCTAssertEqual(bodyText(rpc), #"{"mfaPendingCredential":"PENDING","#
            + #""phoneVerificationInfo":{"sessionInfo":"SIGN_IN_SESSION","code":"123456"}}"#)
    }

    func testFinishingATOTPSignInSendsTheEnrollmentIdAndCode() {
        // FinalizeMFASignInRequestTests (TOTP): no phoneVerificationInfo.
        let rpc = FinalizeMfaSignIn(mfaPendingCredential: "mfaPendingCredential",
                                    verification: .totp(mfaEnrollmentId: "mfaEnrollmentId",
                                                        verificationCode: "verificationCode"))
        XCTAssertEqual(bodyText(rpc), #"{"mfaPendingCredential":"mfaPendingCredential","mfaEnrollmentId":"mfaEnrollmentId","#
            + #""totpVerificationInfo":{"verificationCode":"verificationCode"}}"#)
    }

    func testTheSignInAnswersTokensTakeTheirLifetimeFromTheIdToken() {
        let rpc = FinalizeMfaSignIn(mfaPendingCredential: "P", verification: .phone(sessionInfo: "S", code: "1"))
        let tokens = harness.decode(rpc, body: #"{"idToken":"\#(idToken)","refreshToken":"R"}"#)
        XCTAssertEqual(tokens?.expiresIn, 3600)
        XCTAssertEqual(tokens?.localId, "uid-1")
        XCTAssertEqual(tokens.flatMap { try? JWTClaims(token: $0.idToken) }?["firebase"]?["sign_in_second_factor"], "phone")
    }

    func testFinalizeSignInErrorsMapThroughTheServerTable() {
        assertServerError(FinalizeMfaSignIn(mfaPendingCredential: "P", verification: .phone(sessionInfo: "S", code: "1")), [
            ("INVALID_CODE", .invalidVerificationCode),
            ("INVALID_SESSION_INFO", .invalidVerificationId),
            ("SESSION_EXPIRED", .sessionExpired),
            ("INVALID_MFA_PENDING_CREDENTIAL", .invalidMultiFactorSession),
            ("MISSING_MFA_PENDING_CREDENTIAL", .missingMultiFactorSession),
            ("MFA_ENROLLMENT_NOT_FOUND", .multiFactorInfoNotFound),
            ("UNSUPPORTED_FIRST_FACTOR", .unsupportedFirstFactor),
            ("USER_DISABLED", .userDisabled),
        ])
    }

    // MARK: - Printing

    func testPrintedMfaRequestsAndAnswersHoldNoSecrets() throws {
        let rpcs: [any BackendRPC] = [
            StartMfaEnrollment(idToken: "ID_TOKEN", factor: .phone(phoneNumber: "+16505554567", recaptchaToken: "RECAPTCHA")),
            FinalizeMfaEnrollment(idToken: "ID_TOKEN", verification: .totp(sessionInfo: "SESSION", verificationCode: "424242")),
            WithdrawMfa(idToken: "ID_TOKEN", mfaEnrollmentId: "ENROLLMENT"),
            StartMfaSignIn(mfaPendingCredential: "PENDING", mfaEnrollmentId: "ENROLLMENT"),
            FinalizeMfaSignIn(mfaPendingCredential: "PENDING", verification: .phone(sessionInfo: "SESSION", code: "424242")),
        ]
        for rpc in rpcs {
            let text = String(describing: rpc) + String(reflecting: rpc)
            for secret in ["ID_TOKEN", "RECAPTCHA", "SESSION", "424242", "PENDING", "6505554567"] {
                XCTAssertFalse(text.contains(secret), text)
            }
        }
        let answer = try XCTUnwrap(harness.decode(StartMfaEnrollment(idToken: "T", factor: .totp), body: totpSessionBody))
        var dumped = ""
        dump(answer, to: &dumped)
        for text in [String(describing: answer), dumped] {
            XCTAssertFalse(text.contains("GEZDGNBV"), text)
            XCTAssertFalse(text.contains("TOTP_SESSION"), text)
        }
    }
}
