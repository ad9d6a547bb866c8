@testable import HearthBackend
import HearthWire
import XCTest

final class ErrorsServerErrorTableTests: XCTestCase {
    /// Every server code the table knows and the code it must give, written out so that a changed or
    /// added entry fails here until the specification is updated too.
    private let expected: [(String, AuthErrorCode)] = [
        ("EMAIL_EXISTS", .emailAlreadyInUse),
        ("EMAIL_NOT_FOUND", .userNotFound),
        ("USER_NOT_FOUND", .userNotFound),
        ("INVALID_PASSWORD", .wrongPassword),
        ("INVALID_LOGIN_CREDENTIALS", .invalidCredential),
        ("INVALID_IDP_RESPONSE", .invalidCredential),
        ("INVALID_PENDING_TOKEN", .invalidCredential),
        ("INVALID_TEMPORARY_PROOF", .invalidCredential),
        ("MISSING_OR_INVALID_NONCE", .invalidCredential),
        ("USER_DISABLED", .userDisabled),
        ("FEDERATED_USER_ID_ALREADY_LINKED", .credentialAlreadyInUse),
        ("PHONE_NUMBER_EXISTS", .credentialAlreadyInUse),
        ("CREDENTIAL_TOO_OLD_LOGIN_AGAIN", .requiresRecentLogin),
        ("TOKEN_EXPIRED", .userTokenExpired),
        ("INVALID_ID_TOKEN", .invalidUserToken),
        ("OPERATION_NOT_ALLOWED", .operationNotAllowed),
        ("PASSWORD_LOGIN_DISABLED", .operationNotAllowed),
        ("ADMIN_ONLY_OPERATION", .adminRestrictedOperation),
        ("INVALID_EMAIL", .invalidEmail),
        ("INVALID_IDENTIFIER", .invalidEmail),
        ("MISSING_EMAIL", .missingEmail),
        ("MISSING_PASSWORD", .missingPassword),
        ("WEAK_PASSWORD", .weakPassword),
        ("PASSWORD_DOES_NOT_MEET_REQUIREMENTS", .weakPassword),
        ("TOO_MANY_ATTEMPTS_TRY_LATER", .tooManyRequests),
        ("RESET_PASSWORD_EXCEED_LIMIT", .tooManyRequests),
        ("QUOTA_EXCEEDED", .quotaExceeded),
        ("TENANT_ID_MISMATCH", .tenantIdMismatch),
        ("UNSUPPORTED_TENANT_OPERATION", .unsupportedTenantOperation),
        ("INVALID_TENANT_ID", .invalidTenantId),
        ("INVALID_PROVIDER_ID", .invalidProviderId),
        ("INVALID_CUSTOM_TOKEN", .invalidCustomToken),
        ("CREDENTIAL_MISMATCH", .customTokenMismatch),
        ("MISSING_CUSTOM_TOKEN", .invalidCustomToken),
        ("INVALID_REFRESH_TOKEN", .invalidUserToken),
        ("MISSING_REFRESH_TOKEN", .invalidUserToken),
        ("PROJECT_NUMBER_MISMATCH", .invalidUserToken),
        ("INVALID_GRANT_TYPE", .failure),
        ("MISSING_GRANT_TYPE", .failure),
        ("EXPIRED_OOB_CODE", .expiredActionCode),
        ("INVALID_OOB_CODE", .invalidActionCode),
        ("MISSING_OOB_CODE", .invalidActionCode),
        ("MISSING_REQ_TYPE", .failure),
        ("INVALID_REQ_TYPE", .failure),
        ("INVALID_MESSAGE_PAYLOAD", .invalidMessagePayload),
        ("INVALID_SENDER", .invalidSender),
        ("INVALID_RECIPIENT_EMAIL", .invalidRecipientEmail),
        ("MISSING_CONTINUE_URI", .missingContinueUri),
        ("INVALID_CONTINUE_URI", .invalidContinueUri),
        ("UNAUTHORIZED_DOMAIN", .unauthorizedDomain),
        ("MISSING_IOS_BUNDLE_ID", .missingIosBundleId),
        ("MISSING_ANDROID_PACKAGE_NAME", .failure),
        ("INVALID_HOSTING_LINK_DOMAIN", .invalidLinkDomain),
        ("EMAIL_CHANGE_NEEDS_VERIFICATION", .emailChangeNeedsVerification),
        ("INVALID_PHONE_NUMBER", .invalidPhoneNumber),
        ("MISSING_PHONE_NUMBER", .missingPhoneNumber),
        ("INVALID_CODE", .invalidVerificationCode),
        ("INVALID_SESSION_INFO", .invalidVerificationId),
        ("SESSION_EXPIRED", .sessionExpired),
        ("MISSING_CODE", .missingVerificationCode),
        ("MISSING_SESSION_INFO", .missingVerificationId),
        ("APP_NOT_VERIFIED", .appNotVerified),
        ("CAPTCHA_CHECK_FAILED", .captchaCheckFailed),
        ("INVALID_APP_CREDENTIAL", .invalidAppCredential),
        ("MISSING_APP_CREDENTIAL", .missingAppCredential),
        ("MISSING_IOS_APP_TOKEN", .missingAppToken),
        ("MISSING_CLIENT_IDENTIFIER", .missingClientIdentifier),
        ("INVALID_OAUTH_CLIENT_ID", .invalidClientId),
        ("INVALID_RECAPTCHA_TOKEN", .captchaCheckFailed),
        ("MISSING_RECAPTCHA_TOKEN", .missingAppCredential),
        ("RECAPTCHA_NOT_ENABLED", .failure),
        ("INVALID_RECAPTCHA_ACTION", .failure),
        ("MISSING_CLIENT_TYPE", .failure),
        ("MISSING_RECAPTCHA_VERSION", .failure),
        ("INVALID_RECAPTCHA_VERSION", .failure),
        ("INVALID_MFA_PENDING_CREDENTIAL", .invalidMultiFactorSession),
        ("MISSING_MFA_PENDING_CREDENTIAL", .missingMultiFactorSession),
        ("MISSING_MFA_ENROLLMENT_ID", .missingMultiFactorInfo),
        ("MFA_ENROLLMENT_NOT_FOUND", .multiFactorInfoNotFound),
        ("SECOND_FACTOR_EXISTS", .secondFactorAlreadyEnrolled),
        ("SECOND_FACTOR_LIMIT_EXCEEDED", .maximumSecondFactorCountExceeded),
        ("UNSUPPORTED_FIRST_FACTOR", .unsupportedFirstFactor),
        ("UNVERIFIED_EMAIL", .unverifiedEmail),
        ("BLOCKING_FUNCTION_ERROR_RESPONSE", .failure),
    ]

    func testTheTableHoldsExactlyTheSpecifiedEntries() {
        XCTAssertEqual(Set(ServerErrorTable.entries.keys), Set(expected.map(\.0)))
        XCTAssertEqual(expected.count, Set(expected.map(\.0)).count, "duplicate code in the specification")
    }

    func testEveryServerCodeMapsToItsSpecifiedCode() {
        for (serverCode, code) in expected {
            XCTAssertEqual(ServerErrorTable.code(forServerCode: serverCode), code, serverCode)
        }
    }

    func testEveryServerCodeMapsTheSameWayThroughAnErrorMessage() {
        for (serverCode, code) in expected {
            let bare = ServerErrorTable.error(serverMessage: serverCode)
            XCTAssertEqual(bare.code, code, serverCode)
            XCTAssertEqual(bare.serverCode, serverCode)
            let detailed = ServerErrorTable.error(serverMessage: "\(serverCode) : some detail")
            XCTAssertEqual(detailed.code, code, serverCode)
            XCTAssertEqual(detailed.serverCode, serverCode)
        }
    }

    // MARK: - The references' specific cases

    func testInvalidLoginCredentialsIsInvalidCredential() {
        XCTAssertEqual(ServerErrorTable.error(serverMessage: "INVALID_LOGIN_CREDENTIALS").code, .invalidCredential)
    }

    func testUnsupportedProviderIdMessageMeansNoSuchProvider() {
        let error = ServerErrorTable.error(serverMessage: "INVALID_PROVIDER_ID : Provider Id is not supported.")
        XCTAssertEqual(error.code, .noSuchProvider)
        XCTAssertEqual(error.message, "Provider Id is not supported.")
        XCTAssertEqual(ServerErrorTable.error(serverMessage: "INVALID_PROVIDER_ID : Other.").code, .invalidProviderId)
        XCTAssertEqual(ServerErrorTable.exactMessages.count, 1)
    }

    // MARK: - Messages

    func testDetailBecomesTheMessage() {
        let error = ServerErrorTable.error(serverMessage: "WEAK_PASSWORD : Password should be at least 6 characters")
        XCTAssertEqual(error.code, .weakPassword)
        XCTAssertEqual(error.message, "Password should be at least 6 characters")
        XCTAssertEqual(error.serverCode, "WEAK_PASSWORD")
    }

    func testKnownCodeWithoutDetailGetsTheDefaultSentence() {
        let error = ServerErrorTable.error(serverMessage: "EMAIL_EXISTS")
        XCTAssertEqual(error.message, AuthErrorCode.emailAlreadyInUse.defaultMessage)
        let colonOnly = ServerErrorTable.error(serverMessage: "FEDERATED_USER_ID_ALREADY_LINKED:")
        XCTAssertEqual(colonOnly.code, .credentialAlreadyInUse)
        XCTAssertEqual(colonOnly.message, AuthErrorCode.credentialAlreadyInUse.defaultMessage)
    }

    func testUnknownCodeIsFailureCarryingTheWholeServerText() {
        let error = ServerErrorTable.error(serverMessage: "SOMETHING_NEW : with a detail")
        XCTAssertEqual(error.code, .failure)
        XCTAssertEqual(error.message, "SOMETHING_NEW : with a detail")
        XCTAssertEqual(error.serverCode, "SOMETHING_NEW")
    }

    func testCodesMappedToFailureKeepTheWholeServerText() {
        let error = ServerErrorTable.error(serverMessage: "INVALID_REQ_TYPE : Unsupported request parameters.")
        XCTAssertEqual(error.code, .failure)
        XCTAssertEqual(error.message, "INVALID_REQ_TYPE : Unsupported request parameters.")
    }

    func testBlockingFunctionErrorUsesTheFunctionsOwnMessage() {
        let text = #"BLOCKING_FUNCTION_ERROR_RESPONSE : HTTP Cloud Function returned an error: {"error":{"message":"Only company accounts may sign up.","status":"PERMISSION_DENIED"}}"#
        let error = ServerErrorTable.error(serverMessage: text)
        XCTAssertEqual(error.code, .failure)
        XCTAssertEqual(error.message, "Only company accounts may sign up.")
        XCTAssertEqual(error.serverCode, "BLOCKING_FUNCTION_ERROR_RESPONSE")
    }

    func testBlockingFunctionErrorWithoutEmbeddedJSONKeepsTheDetail() {
        let error = ServerErrorTable.error(serverMessage: "BLOCKING_FUNCTION_ERROR_RESPONSE : {not json}")
        XCTAssertEqual(error.message, "{not json}")
    }

    // MARK: - Parsing

    func testMessageSplitsAtTheFirstColonAndTrims() {
        let parsed = ServerErrorMessage("  TOO_MANY_ATTEMPTS_TRY_LATER :  Access disabled: try later  ")
        XCTAssertEqual(parsed.code, "TOO_MANY_ATTEMPTS_TRY_LATER")
        XCTAssertEqual(parsed.detail, "Access disabled: try later")
        XCTAssertEqual(parsed.text, "TOO_MANY_ATTEMPTS_TRY_LATER :  Access disabled: try later")
    }

    func testMessageWithoutColonIsAllCode() {
        let parsed = ServerErrorMessage("API key not valid. Please pass a valid API key.")
        XCTAssertEqual(parsed.code, "API key not valid. Please pass a valid API key.")
        XCTAssertNil(parsed.detail)
    }

    func testEmptyMessageParsesToEmptyCode() {
        XCTAssertEqual(ServerErrorMessage("").code, "")
        XCTAssertNil(ServerErrorMessage(" : ").detail)
        let error = ServerErrorTable.error(serverMessage: "")
        XCTAssertEqual(error.code, .failure)
        XCTAssertNil(error.serverCode)
        XCTAssertFalse(error.message.isEmpty)
    }

    // MARK: - Reasons and status

    func testApiKeyInvalidDetailReasonIsInvalidApiKey() {
        let error = ServerErrorTable.error(serverMessage: "API key not valid. Please pass a valid API key.",
                                           reasons: ["badRequest", "API_KEY_INVALID"])
        XCTAssertEqual(error.code, .invalidApiKey)
        XCTAssertEqual(error.message, "API key not valid. Please pass a valid API key.")
    }

    func testLegacyKeyInvalidReasonIsInvalidApiKey() {
        XCTAssertEqual(ServerErrorTable.error(serverMessage: "Bad Request", reasons: ["keyInvalid"]).code, .invalidApiKey)
    }

    func testIpRefererBlockedReasonIsAppNotAuthorized() {
        XCTAssertEqual(ServerErrorTable.error(serverMessage: "There is a per-IP or per-Referer restriction",
                                              reasons: ["ipRefererBlocked"]).code, .appNotAuthorized)
    }

    func testApiKeyRestrictionDetailReasonsAreAppNotAuthorized() {
        for reason in ["API_KEY_HTTP_REFERRER_BLOCKED", "API_KEY_IP_ADDRESS_BLOCKED", "API_KEY_ANDROID_APP_BLOCKED",
                       "API_KEY_IOS_APP_BLOCKED", "API_KEY_SERVICE_BLOCKED"] {
            XCTAssertEqual(ServerErrorTable.error(serverMessage: "Requests are blocked.", reasons: ["forbidden", reason]).code,
                           .appNotAuthorized, reason)
        }
    }

    func testAKnownCodeWinsOverReasons() {
        XCTAssertEqual(ServerErrorTable.error(serverMessage: "EMAIL_EXISTS", reasons: ["keyInvalid"]).code,
                       .emailAlreadyInUse)
    }

    func testUnknownCodeWithStatus429IsTooManyRequests() {
        let error = ServerErrorTable.error(serverMessage: "RESOURCE_EXHAUSTED", httpStatus: 429)
        XCTAssertEqual(error.code, .tooManyRequests)
        XCTAssertEqual(error.message, "RESOURCE_EXHAUSTED")
        XCTAssertEqual(ServerErrorTable.error(serverMessage: "QUOTA_EXCEEDED", httpStatus: 429).code, .quotaExceeded)
    }

    func testBodyIsKeptOnTheError() {
        let body: JSONValue = ["error": ["message": "EMAIL_EXISTS"]]
        XCTAssertEqual(ServerErrorTable.error(serverMessage: "EMAIL_EXISTS", body: body).body, body)
    }
}
