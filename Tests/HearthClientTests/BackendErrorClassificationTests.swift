@testable import HearthAuth
@testable import HearthBackend
@testable import HearthTransport
import XCTest

/// How every kind of unsuccessful answer becomes an AuthError.
final class BackendErrorClassificationTests: XCTestCase {
    private let harness = BackendHarness()
    private let signIn = SignInWithPassword(email: "a@b.c", password: "pw")

    // MARK: - Error envelopes

    func testEnvelopeCodeGoesThroughTheTable() {
        let body = #"{"error":{"code":400,"message":"EMAIL_EXISTS","errors":[{"message":"EMAIL_EXISTS","reason":"invalid","domain":"global"}]}}"#
        let error = harness.error(SignUp(email: "a@b.c", password: "pw"), status: 400, body: body)
        XCTAssertEqual(error?.code, .emailAlreadyInUse)
        XCTAssertEqual(error?.serverCode, "EMAIL_EXISTS")
        XCTAssertEqual(error?.message, AuthErrorCode.emailAlreadyInUse.defaultMessage)
        XCTAssertEqual(error?.body?["error"]?["message"], "EMAIL_EXISTS")
    }

    func testEnvelopeDetailBecomesTheMessage() {
        // SignUpNewUserTests weak password case (client-wire-reference §5.1).
        let body = #"{"error":{"message":"WEAK_PASSWORD : Password should be at least 6 characters"}}"#
        let error = harness.error(SignUp(email: "a@b.c", password: "pw"), status: 400, body: body)
        XCTAssertEqual(error?.code, .weakPassword)
        XCTAssertEqual(error?.message, "Password should be at least 6 characters")
    }

    func testInvalidLoginCredentialsEnvelopeIsInvalidCredential() {
        let error = harness.error(signIn, status: 400, body: #"{"error":{"code":400,"message":"INVALID_LOGIN_CREDENTIALS"}}"#)
        XCTAssertEqual(error?.code, .invalidCredential)
    }

    func testRefreshErrorsGoThroughTheTable() {
        let error = harness.error(SecureTokenRefresh(refreshToken: "R"), status: 400,
                                  body: #"{"error":{"code":400,"message":"TOKEN_EXPIRED","status":"INVALID_ARGUMENT"}}"#)
        XCTAssertEqual(error?.code, .userTokenExpired)
    }

    func testUnknownEnvelopeCodeIsFailureWithTheServerText() {
        let error = harness.error(signIn, status: 400, body: #"{"error":{"message":"BRAND_NEW_ERROR : details here"}}"#)
        XCTAssertEqual(error?.code, .failure)
        XCTAssertEqual(error?.message, "BRAND_NEW_ERROR : details here")
        XCTAssertEqual(error?.serverCode, "BRAND_NEW_ERROR")
    }

    func testInvalidApiKeyIsRecognisedFromErrorInfoDetails() {
        let body = #"""
        {"error":{"code":400,"message":"API key not valid. Please pass a valid API key.",
          "errors":[{"message":"API key not valid. Please pass a valid API key.","domain":"global","reason":"badRequest"}],
          "status":"INVALID_ARGUMENT",
          "details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"API_KEY_INVALID","domain":"googleapis.com",
                      "metadata":{"service":"identitytoolkit.googleapis.com"}}]}}
        """#
        let error = harness.error(signIn, status: 400, body: body)
        XCTAssertEqual(error?.code, .invalidApiKey)
        XCTAssertEqual(error?.message, "API key not valid. Please pass a valid API key.")
    }

    func testInvalidApiKeyIsRecognisedFromLegacyReason() {
        let body = #"{"error":{"code":400,"message":"Bad Request","errors":[{"reason":"keyInvalid","domain":"usageLimits"}]}}"#
        XCTAssertEqual(harness.error(signIn, status: 400, body: body)?.code, .invalidApiKey)
    }

    func testIpRefererBlockedIsAppNotAuthorized() {
        let body = #"{"error":{"code":403,"message":"There is a per-IP or per-Referer restriction configured on your API key.","errors":[{"domain":"usageLimits","reason":"ipRefererBlocked"}]}}"#
        XCTAssertEqual(harness.error(signIn, status: 403, body: body)?.code, .appNotAuthorized)
    }

    func testReferrerBlockedDetailIsAppNotAuthorized() {
        let body = #"{"error":{"code":403,"message":"Requests from referer <empty> are blocked.","errors":[{"reason":"forbidden"}],"status":"PERMISSION_DENIED","details":[{"reason":"API_KEY_HTTP_REFERRER_BLOCKED"}]}}"#
        XCTAssertEqual(harness.error(signIn, status: 403, body: body)?.code, .appNotAuthorized)
    }

    func testEnvelopeWithoutMessageButWithAKnownReason() {
        let body = #"{"error":{"code":400,"errors":[{"reason":"keyInvalid"}]}}"#
        let error = harness.error(signIn, status: 400, body: body)
        XCTAssertEqual(error?.code, .invalidApiKey)
        XCTAssertEqual(error?.message, AuthErrorCode.invalidApiKey.defaultMessage)
    }

    func testEnvelopeWithoutMessageOrReasonFallsBackToTheStatus() {
        let error = harness.error(signIn, status: 500, body: #"{"error":{"code":500,"status":"INTERNAL"}}"#)
        XCTAssertEqual(error?.code, .failure)
        XCTAssertTrue(error?.message.contains("HTTP 500") == true)
    }

    // MARK: - Answers without an error description

    func testHTMLBadGatewayIsFailureNamingTheStatus() {
        let error = harness.error(signIn, status: 502, body: "<html><body>502 Bad Gateway</body></html>")
        XCTAssertEqual(error?.code, .failure)
        XCTAssertTrue(error?.message.contains("HTTP 502") == true, error?.message ?? "")
        XCTAssertNil(error?.serverCode)
        XCTAssertNil(error?.body)
    }

    func testServiceUnavailableIsFailureNamingTheStatus() {
        XCTAssertTrue(harness.error(signIn, status: 503, body: "Service Unavailable")?.message.contains("HTTP 503") == true)
    }

    func testEmptyInternalServerErrorIsFailureNamingTheStatus() {
        let error = harness.error(signIn, status: 500, body: "")
        XCTAssertEqual(error?.code, .failure)
        XCTAssertTrue(error?.message.contains("HTTP 500") == true)
    }

    func testNonEnvelopeJSONErrorIsFailureNamingTheStatus() {
        let error = harness.error(signIn, status: 404, body: #"{"message":"Not Found"}"#)
        XCTAssertEqual(error?.code, .failure)
        XCTAssertTrue(error?.message.contains("HTTP 404") == true)
        XCTAssertEqual(error?.body, ["message": "Not Found"])
    }

    func testBare429IsTooManyRequests() {
        XCTAssertEqual(harness.error(signIn, status: 429, body: "Too Many Requests")?.code, .tooManyRequests)
    }

    func test429WithAnUnknownEnvelopeCodeIsTooManyRequests() {
        let body = #"{"error":{"code":429,"message":"RESOURCE_EXHAUSTED","status":"RESOURCE_EXHAUSTED"}}"#
        XCTAssertEqual(harness.error(signIn, status: 429, body: body)?.code, .tooManyRequests)
    }

    func test429WithAKnownEnvelopeCodeKeepsThatCode() {
        let body = #"{"error":{"code":429,"message":"QUOTA_EXCEEDED : Exceeded quota for email lookup."}}"#
        let error = harness.error(signIn, status: 429, body: body)
        XCTAssertEqual(error?.code, .quotaExceeded)
        XCTAssertEqual(error?.message, "Exceeded quota for email lookup.")
    }

    // MARK: - Malformed successes

    func testNonJSONSuccessIsMalformed() {
        let error = harness.error(signIn, status: 200, body: "<html>captive portal</html>")
        XCTAssertEqual(error?.code, .failure)
        XCTAssertTrue(error?.message.contains("malformed response") == true, error?.message ?? "")
    }

    func testEmptySuccessIsMalformed() {
        XCTAssertTrue(harness.error(signIn, status: 200, body: "")?.message.contains("malformed response") == true)
    }

    func testJSONArraySuccessIsMalformed() {
        XCTAssertTrue(harness.error(signIn, status: 200, body: "[]")?.message.contains("malformed response") == true)
    }

    func testInvalidUTF8SuccessIsMalformed() {
        let outcome = harness.run(signIn) { transport in
            transport.reply(status: 200, bytes: Array(#"{"idToken":""#.utf8) + [0xFF, 0xFE] + Array(#"","refreshToken":"R"}"#.utf8))
        }
        guard case .failure(let error)? = outcome else { return XCTFail("expected an error") }
        XCTAssertEqual(error.code, .failure)
    }

    // MARK: - 200-shaped errors

    func testErrorMessageInA200BodyIsAnErrorKeepingTheBody() {
        let body = #"""
        {"kind":"identitytoolkit#VerifyAssertionResponse","errorMessage":"FEDERATED_USER_ID_ALREADY_LINKED",
         "providerId":"google.com","email":"a@gmail.com","oauthIdToken":"google-id-token","oauthAccessToken":"ya29.x"}
        """#
        let error = harness.error(signIn, status: 200, body: body)
        XCTAssertEqual(error?.code, .credentialAlreadyInUse)
        XCTAssertEqual(error?.serverCode, "FEDERATED_USER_ID_ALREADY_LINKED")
        XCTAssertEqual(error?.body?["oauthIdToken"], "google-id-token")
        XCTAssertEqual(error?.body?["email"], "a@gmail.com")
    }

    func testEmailExistsInA200BodyIsEmailAlreadyInUse() {
        let error = harness.error(signIn, status: 200, body: #"{"errorMessage":"EMAIL_EXISTS","email":"a@b.c"}"#)
        XCTAssertEqual(error?.code, .emailAlreadyInUse)
        XCTAssertEqual(error?.body?["email"], "a@b.c")
    }

    func testNeedConfirmationIsAccountExistsWithDifferentCredentials() {
        let body = #"{"needConfirmation":true,"email":"a@b.c","verifiedProvider":["password"],"providerId":"facebook.com"}"#
        let error = harness.error(signIn, status: 200, body: body)
        XCTAssertEqual(error?.code, .accountExistsWithDifferentCredentials)
        XCTAssertEqual(error?.body?["email"], "a@b.c")
        XCTAssertNil(error?.serverCode)
    }

    func testNeedConfirmationFalseIsNotAnError() {
        let response = harness.decode(signIn, body: #"{"needConfirmation":false,"idToken":"I","refreshToken":"R"}"#)
        XCTAssertEqual(response?.idToken, "I")
    }

    func testPendingSecondFactorOnSignInIsSecondFactorRequired() {
        let body = #"""
        {"localId":"u","email":"a@b.c","mfaPendingCredential":"pending-cred",
         "mfaInfo":[{"mfaEnrollmentId":"e1","displayName":"phone","enrolledAt":"2024-01-01T00:00:00Z","phoneInfo":"+*******0100"}]}
        """#
        for rpc in [signIn as any BackendRPC, SignInWithCustomToken(token: "t"), SignUp(email: "a@b.c", password: "pw")] {
            let error = harness.error(rpc, status: 200, body: body)
            XCTAssertEqual(error?.code, .secondFactorRequired, "\(rpc)")
            XCTAssertEqual(error?.body?["mfaPendingCredential"], "pending-cred")
            XCTAssertEqual(error?.body?["mfaInfo"]?[0]?["mfaEnrollmentId"], "e1")
        }
    }

    func testEmptyPendingCredentialIsNotASecondFactorChallenge() {
        let response = harness.decode(signIn, body: #"{"mfaPendingCredential":"","idToken":"I","refreshToken":"R"}"#)
        XCTAssertEqual(response?.refreshToken, "R")
    }

    func testSecondFactorCheckDoesNotApplyToLinkingOrAccountCalls() {
        XCTAssertFalse(SignUp.link(idToken: "T", email: "e", password: "p").successShapedErrors.contains(.secondFactor))
        XCTAssertFalse(GetAccountInfo(idToken: "T").successShapedErrors.contains(.secondFactor))
        XCTAssertFalse(SetAccountInfo(idToken: "T").successShapedErrors.contains(.secondFactor))
        XCTAssertFalse(SecureTokenRefresh(refreshToken: "R").successShapedErrors.contains(.secondFactor))
        XCTAssertTrue(SignUp.anonymous.successShapedErrors.contains(.secondFactor))
    }

    func testPhoneTemporaryProofWithoutIdTokenIsCredentialAlreadyInUse() {
        // VerifyPhoneNumberTests temporary-proof answer (client-wire-reference §5.3).
        let response = HTTPResponse(status: 200, body: Array(#"{"temporaryProof":"12345658","phoneNumber":"4155551234"}"#.utf8))
        let outcome = ResponseClassifier.classify(.success(response), checks: [.errorMessage, .phoneTemporaryProof])
        guard case .failure(let error) = outcome else { return XCTFail("expected an error") }
        XCTAssertEqual(error.code, .credentialAlreadyInUse)
        XCTAssertEqual(error.body?["temporaryProof"], "12345658")
        XCTAssertEqual(error.body?["phoneNumber"], "4155551234")
    }

    func testPhoneTemporaryProofWithIdTokenIsASuccess() {
        let response = HTTPResponse(status: 200, body: Array(#"{"temporaryProof":"p","phoneNumber":"+1","idToken":"I","refreshToken":"R"}"#.utf8))
        guard case .success = ResponseClassifier.classify(.success(response), checks: [.phoneTemporaryProof]) else {
            return XCTFail("expected success")
        }
    }

    func testTemporaryProofIsIgnoredByNonPhoneRPCs() {
        let response = harness.decode(signIn, body: #"{"temporaryProof":"p","idToken":"I","refreshToken":"R"}"#)
        XCTAssertNotNil(response)
        XCTAssertFalse(signIn.successShapedErrors.contains(.phoneTemporaryProof))
    }

    // MARK: - Transport failures

    func testNetworkFailureIsNetworkRequestFailedWithTheTransportText() {
        let outcome = harness.run(signIn) { $0.fail(.network("Couldn't connect to server")) }
        guard case .failure(let error)? = outcome else { return XCTFail("expected an error") }
        XCTAssertEqual(error.code, .networkRequestFailed)
        XCTAssertTrue(error.message.contains("Couldn't connect to server"), error.message)
    }

    func testNetworkFailureWithoutTextStillHasAMessage() {
        let outcome = harness.run(signIn) { $0.fail(.network("")) }
        guard case .failure(let error)? = outcome else { return XCTFail("expected an error") }
        XCTAssertEqual(error.message, AuthErrorCode.networkRequestFailed.defaultMessage)
    }

    func testTimeoutIsNetworkRequestFailed() {
        let outcome = harness.run(signIn) { $0.fail(.timedOut("Operation timed out after 30000 milliseconds")) }
        guard case .failure(let error)? = outcome else { return XCTFail("expected an error") }
        XCTAssertEqual(error.code, .networkRequestFailed)
        XCTAssertTrue(error.message.contains("timed out after 30000"), error.message)
    }

    func testCancelledRequestIsCancelled() {
        var outcome: Result<TokenResponse, AuthError>?
        let id = harness.backend.perform(signIn, config: BackendHarness.production) { outcome = $0 }
        harness.backend.cancel(id)
        XCTAssertEqual(harness.transport.cancelledIDs, [id])
        XCTAssertNil(outcome, "the cancellation completes later, not inside cancel")
        harness.transport.deliverCancellations()
        guard case .failure(let error)? = outcome else { return XCTFail("expected an error") }
        XCTAssertEqual(error.code, .cancelled)
    }

    func testConcurrentRequestsCompleteIndependently() {
        var first: Result<TokenResponse, AuthError>?
        var second: Result<UserRecord, AuthError>?
        harness.backend.perform(signIn, config: BackendHarness.production) { first = $0 }
        harness.backend.perform(GetAccountInfo(idToken: "T"), config: BackendHarness.production) { second = $0 }
        XCTAssertEqual(harness.transport.pendingCount, 2)
        harness.transport.reply(status: 200, body: #"{"idToken":"I","refreshToken":"R"}"#)
        harness.transport.reply(status: 400, body: #"{"error":{"message":"USER_NOT_FOUND"}}"#)
        guard case .success(let tokens)? = first, case .failure(let error)? = second else {
            return XCTFail("unexpected outcomes \(String(describing: first)) \(String(describing: second))")
        }
        XCTAssertEqual(tokens.idToken, "I")
        XCTAssertEqual(error.code, .userNotFound)
    }
}
