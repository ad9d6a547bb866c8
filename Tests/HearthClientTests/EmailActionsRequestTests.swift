@testable import HearthAuth
@testable import HearthBackend
@testable import HearthTransport
import HearthWire
import XCTest

/// The email-action RPCs on the wire: sendOobCode with action code settings, signInWithEmailLink,
/// resetPassword and applyActionCode's accounts:update, and what their answers mean.
final class EmailActionsRequestTests: XCTestCase {
    private let harness = BackendHarness()

    private func body<R: BackendRPC>(_ rpc: R, file: StaticString = #filePath, line: UInt = #line) -> JSONValue? {
        let request = BackendHarness.request(rpc)
        XCTAssertEqual(request.method, "POST", file: file, line: line)
        return decodedJSONBody(request, file: file, line: line)
    }

    private func url<R: BackendRPC>(_ rpc: R) -> String { BackendHarness.request(rpc).url }

    func testEverySettingIsSentUnderTheNameFirebasesIOSSDKAndTheRESTAPIUse() {
        var settings = ActionCodeSettings(url: "https://app.example.com/finish")
        settings.handleCodeInApp = true
        settings.iOSBundleId = "com.example.ios"
        settings.androidPackageName = "com.example.android"
        settings.androidInstallApp = true
        settings.androidMinimumVersion = "12"
        settings.linkDomain = "example.page.link"
        settings.dynamicLinkDomain = "example.page.link"
        XCTAssertEqual(body(SendOobCode(.emailSignIn(email: "a@b.c"), settings: settings)), [
            "requestType": "EMAIL_SIGNIN", "email": "a@b.c", "continueUrl": "https://app.example.com/finish",
            "canHandleCodeInApp": true, "iOSBundleId": "com.example.ios", "androidPackageName": "com.example.android",
            "androidInstallApp": true, "androidMinimumVersion": "12", "linkDomain": "example.page.link",
            "dynamicLinkDomain": "example.page.link",
        ])
        XCTAssertEqual(url(SendOobCode(.emailSignIn(email: "a@b.c"))),
                       "https://identitytoolkit.googleapis.com/v1/accounts:sendOobCode?key=APIKey")
    }

    func testUnsetSettingsAndFalseFlagsAreLeftOut() {
        let settings = ActionCodeSettings(url: "com.example.app:/finish")
        XCTAssertEqual(body(SendOobCode(.passwordReset(email: "a@b.c"), settings: settings)),
                       ["requestType": "PASSWORD_RESET", "email": "a@b.c", "continueUrl": "com.example.app:/finish"])
        XCTAssertEqual(body(SendOobCode(.verifyEmail(idToken: "T"), settings: settings)),
                       ["requestType": "VERIFY_EMAIL", "idToken": "T", "continueUrl": "com.example.app:/finish"])
        XCTAssertEqual(body(SendOobCode(.verifyAndChangeEmail(idToken: "T", newEmail: "n@b.c"), settings: settings)),
                       ["requestType": "VERIFY_AND_CHANGE_EMAIL", "idToken": "T", "newEmail": "n@b.c",
                        "continueUrl": "com.example.app:/finish"])
        XCTAssertEqual(body(SendOobCode(.emailSignIn(email: "a@b.c"))), ["requestType": "EMAIL_SIGNIN", "email": "a@b.c"])
    }

    func testSettingsAreCheckedAsFirebasesJSSDKChecksThem() {
        XCTAssertEqual(ActionCodeSettings(url: nil).validationError?.code, .invalidContinueUri)
        XCTAssertEqual(ActionCodeSettings(url: "").validationError?.code, .invalidContinueUri)
        var settings = ActionCodeSettings(url: "https://a.example")
        XCTAssertNil(settings.validationError)
        settings.dynamicLinkDomain = ""
        XCTAssertEqual(settings.validationError?.code, .invalidLinkDomain)
        settings = ActionCodeSettings(url: "https://a.example")
        settings.linkDomain = ""
        XCTAssertEqual(settings.validationError?.code, .invalidLinkDomain)
        settings = ActionCodeSettings(url: "https://a.example")
        settings.iOSBundleId = ""
        XCTAssertEqual(settings.validationError?.code, .missingIosBundleId)
        for android in [{ (s: inout ActionCodeSettings) in s.androidPackageName = "" },
                        { (s: inout ActionCodeSettings) in s.androidInstallApp = true },
                        { (s: inout ActionCodeSettings) in s.androidMinimumVersion = "3" }] {
            settings = ActionCodeSettings(url: "https://a.example")
            android(&settings)
            XCTAssertEqual(settings.validationError?.code, .invalidArgument)
        }
        settings = ActionCodeSettings(url: "https://a.example")
        settings.androidPackageName = "com.example"
        settings.androidInstallApp = true
        XCTAssertNil(settings.validationError)
    }

    func testASignInLinkMustBeHandledInTheApp() {
        XCTAssertEqual(Auth.checkSignInLinkRequest(email: "a@b.c", settings: nil)?.code, .invalidArgument)
        XCTAssertEqual(Auth.checkSignInLinkRequest(email: "a@b.c", settings: ActionCodeSettings(url: "https://a.example"))?.code,
                       .invalidArgument)
        var settings = ActionCodeSettings(url: "https://a.example")
        settings.handleCodeInApp = true
        XCTAssertNil(Auth.checkSignInLinkRequest(email: "a@b.c", settings: settings))
        XCTAssertEqual(Auth.checkSignInLinkRequest(email: "", settings: settings)?.code, .missingEmail)
        settings.url = ""
        XCTAssertEqual(Auth.checkSignInLinkRequest(email: "a@b.c", settings: settings)?.code, .invalidContinueUri)
    }

    func testSignInWithEmailLinkSendsTheAddressAndCodeAndTheIdTokenToLink() {
        XCTAssertEqual(body(SignInWithEmailLink(email: "a@b.c", oobCode: "C")), ["email": "a@b.c", "oobCode": "C"])
        XCTAssertEqual(body(SignInWithEmailLink(email: "a@b.c", oobCode: "C", idToken: "T")),
                       ["email": "a@b.c", "oobCode": "C", "idToken": "T"])
        XCTAssertEqual(url(SignInWithEmailLink(email: "a", oobCode: "C")),
                       "https://identitytoolkit.googleapis.com/v1/accounts:signInWithEmailLink?key=APIKey")
        XCTAssertEqual(body(EmailLinkCredential(email: "a@b.c", oobCode: "C").signInWithEmailLink(idToken: "T")),
                       ["email": "a@b.c", "oobCode": "C", "idToken": "T"])
    }

    func testAnEmailLinkSignInAnswerGivesTokensAndWhetherTheAccountIsNew() {
        let token = makeJWT(["sub": "uid-1", "user_id": "uid-1", "exp": 4600])
        let answer = """
        {"kind":"identitytoolkit#EmailLinkSigninResponse","email":"a@b.c","localId":"uid-1","isNewUser":true,
         "idToken":"\(token)","refreshToken":"R","expiresIn":"3600"}
        """
        let response = harness.decode(SignInWithEmailLink(email: "a@b.c", oobCode: "C"), body: answer)
        XCTAssertEqual(response?.localId, "uid-1")
        XCTAssertEqual(response?.isNewUser, true)
        XCTAssertEqual(response?.refreshToken, "R")
    }

    func testAnEmailLinkSignInThatNeedsASecondFactorIsAnError() {
        let answer = #"{"email":"a@b.c","localId":"uid-1","mfaPendingCredential":"P","mfaInfo":[{"mfaEnrollmentId":"e","totpInfo":{}}]}"#
        let error = harness.error(SignInWithEmailLink(email: "a@b.c", oobCode: "C"), status: 200, body: answer)
        XCTAssertEqual(error?.code, .secondFactorRequired)
    }

    func testServerErrorsOfEmailActionsMapToFirebasesCodes() {
        let cases: [(String, AuthErrorCode)] = [
            ("INVALID_OOB_CODE", .invalidActionCode), ("EXPIRED_OOB_CODE", .expiredActionCode),
            ("INVALID_EMAIL : The email provided does not match the sign-in email address.", .invalidEmail),
            ("USER_DISABLED", .userDisabled), ("WEAK_PASSWORD : Password should be at least 6 characters", .weakPassword),
            ("EMAIL_EXISTS", .emailAlreadyInUse), ("OPERATION_NOT_ALLOWED", .operationNotAllowed),
            ("MISSING_OOB_CODE", .invalidActionCode), ("INVALID_CONTINUE_URI", .invalidContinueUri),
            ("UNAUTHORIZED_DOMAIN", .unauthorizedDomain), ("INVALID_HOSTING_LINK_DOMAIN", .invalidLinkDomain),
        ]
        for (message, code) in cases {
            let envelope = #"{"error":{"code":400,"message":"\#(message)","errors":[]}}"#
            XCTAssertEqual(harness.error(ResetPassword(oobCode: "C"), status: 400, body: envelope)?.code, code, message)
            XCTAssertEqual(harness.error(SignInWithEmailLink(email: "a", oobCode: "C"), status: 400, body: envelope)?.code,
                           code, message)
            XCTAssertEqual(harness.error(ApplyActionCode(oobCode: "C"), status: 400, body: envelope)?.code, code, message)
        }
    }

    func testResetPasswordChecksWithTheCodeAloneAndResetsWithANewPassword() {
        XCTAssertEqual(body(ResetPassword(oobCode: "C")), ["oobCode": "C"])
        XCTAssertEqual(body(ResetPassword(oobCode: "C", newPassword: "pw")), ["oobCode": "C", "newPassword": "pw"])
        XCTAssertEqual(url(ResetPassword(oobCode: "C")),
                       "https://identitytoolkit.googleapis.com/v1/accounts:resetPassword?key=APIKey")
    }

    func testApplyActionCodeSendsOnlyTheCodeToAccountsUpdate() {
        XCTAssertEqual(body(ApplyActionCode(oobCode: "C")), ["oobCode": "C"])
        XCTAssertEqual(url(ApplyActionCode(oobCode: "C")), "https://identitytoolkit.googleapis.com/v1/accounts:update?key=APIKey")
        let answer = #"{"kind":"identitytoolkit#SetAccountInfoResponse","localId":"u","email":"a@b.c","emailVerified":true}"#
        XCTAssertNotNil(harness.decode(ApplyActionCode(oobCode: "C"), body: answer))
    }

    func testCheckingACodeTellsItsOperationAndAddressesAsFirebaseDoes() throws {
        func info(_ answer: String) throws -> ActionCodeInfo {
            let response = try XCTUnwrap(harness.decode(ResetPassword(oobCode: "C"), body: answer))
            return try response.actionCodeInfo()
        }
        XCTAssertEqual(try info(#"{"requestType":"PASSWORD_RESET","email":"a@b.c"}"#),
                       ActionCodeInfo(operation: .passwordReset, email: "a@b.c"))
        XCTAssertEqual(try info(#"{"requestType":"VERIFY_EMAIL","email":"a@b.c"}"#),
                       ActionCodeInfo(operation: .verifyEmail, email: "a@b.c"))
        // Verify-and-change: the new address is the email, the old one the previous email.
        XCTAssertEqual(try info(#"{"requestType":"VERIFY_AND_CHANGE_EMAIL","email":"old@b.c","newEmail":"new@b.c"}"#),
                       ActionCodeInfo(operation: .verifyAndChangeEmail, email: "new@b.c", previousEmail: "old@b.c"))
        // Recover: the address to go back to, and the one it had changed to.
        XCTAssertEqual(try info(#"{"requestType":"RECOVER_EMAIL","email":"old@b.c","newEmail":"new@b.c"}"#),
                       ActionCodeInfo(operation: .recoverEmail, email: "old@b.c", previousEmail: "new@b.c"))
        XCTAssertEqual(try info(#"{"requestType":"EMAIL_SIGNIN"}"#), ActionCodeInfo(operation: .emailSignIn))
        XCTAssertEqual(try info(#"{"requestType":"SOMETHING_NEW","email":"a@b.c"}"#),
                       ActionCodeInfo(operation: .unknown, email: "a@b.c"))
    }

    func testACheckAnswerWithoutWhatItsOperationNeedsIsMalformed() throws {
        for answer in [#"{"email":"a@b.c"}"#, #"{"requestType":"PASSWORD_RESET"}"#,
                       #"{"requestType":"VERIFY_AND_CHANGE_EMAIL","email":"old@b.c"}"#,
                       #"{"requestType":"VERIFY_EMAIL","email":""}"#, #"{"requestType":7,"email":"a@b.c"}"#] {
            let response = try XCTUnwrap(harness.decode(ResetPassword(oobCode: "C"), body: answer))
            XCTAssertThrowsError(try response.actionCodeInfo(), answer) { error in
                XCTAssertEqual((error as? AuthError)?.code, .failure)
            }
        }
    }

    func testEmailActionCodesAreLoggedAsCredentials() {
        for operation in [Operation.signInWithEmailLink, .applyActionCode, .checkActionCode, .verifyPasswordResetCode,
                          .confirmPasswordReset] {
            XCTAssertTrue(operation.carriesCredential, "\(operation)")
        }
        XCTAssertFalse(Operation.sendSignInLinkToEmail.carriesCredential)
        let scrubbed = LogRedaction.scrub(#"INVALID_OOB_CODE : oobCode=abc123 {"oobCode":"abc123"}"#)
        XCTAssertFalse(scrubbed.contains("abc123"), scrubbed)
        XCTAssertFalse(LogRedaction.url("http://h/emulator/action?mode=signIn&oobCode=abc123").contains("abc123"))
    }
}
