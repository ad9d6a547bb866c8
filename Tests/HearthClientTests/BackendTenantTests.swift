@testable import HearthBackend
import XCTest

/// Which requests name the Auth's tenant (`BackendConfig.tenantId`), as Firebase's JS SDK adds it
/// (`_addTidIfNecessary`): sign-up, every sign-in (email links too), the email actions (sending, applying,
/// checking and resetting), createAuthUri, phone codes and the second-factor steps do; lookup, update,
/// delete, linking an email and password and the token refresh do not.
final class BackendTenantTests: XCTestCase {
    private let tenant = BackendConfig(apiKey: "APIKey", tenantId: "tenant-a1b2c")

    private func sentTenant<R: BackendRPC>(_ rpc: R, config: BackendConfig? = nil,
                                           file: StaticString = #filePath, line: UInt = #line) -> String?? {
        let request = BackendHarness.request(rpc, config: config ?? tenant)
        if request.body.isEmpty { return .none }
        if request.headers.contains(where: { $0.name == "Content-Type" && $0.value.hasPrefix("application/x-www") }) {
            // The token refresh is a form: it must not mention a tenant at all.
            XCTAssertFalse(String(decoding: request.body, as: UTF8.self).contains("tenant"), file: file, line: line)
            return .some(nil)
        }
        guard case .object(let body)? = decodedJSONBody(request, file: file, line: line) else {
            XCTFail("not a JSON object", file: file, line: line)
            return .none
        }
        return .some(body["tenantId"]?.stringValue)
    }

    func testTheRequestsFirebasesClientsScopeToATenantCarryIt() {
        let scoped: [(String, String??)] = [
            ("signUp anonymous", sentTenant(SignUp.anonymous)),
            ("signUp email", sentTenant(SignUp(email: "a@example.com", password: "pw"))),
            ("signInWithPassword", sentTenant(SignInWithPassword(email: "a@example.com", password: "pw"))),
            ("signInWithCustomToken", sentTenant(SignInWithCustomToken(token: "t"))),
            ("signInWithIdp sign in", sentTenant(SignInWithIdp(postBody: "providerId=google.com&id_token=x"))),
            ("signInWithIdp link", sentTenant(SignInWithIdp(postBody: "p", purpose: .link(idToken: "id")))),
            ("signInWithIdp reauthenticate", sentTenant(SignInWithIdp(postBody: "p", purpose: .reauthenticate))),
            ("signInWithPhoneNumber", sentTenant(SignInWithPhoneNumber(proof: .code(sessionInfo: "s", code: "1")))),
            ("signInWithPhoneNumber link", sentTenant(SignInWithPhoneNumber(
                proof: .code(sessionInfo: "s", code: "1"), purpose: .link(idToken: "id")))),
            ("sendVerificationCode", sentTenant(SendVerificationCode(phoneNumber: "+15555550100"))),
            ("sendOobCode reset", sentTenant(SendOobCode(.passwordReset(email: "a@example.com")))),
            ("sendOobCode verify", sentTenant(SendOobCode(.verifyEmail(idToken: "id")))),
            ("sendOobCode change", sentTenant(SendOobCode(.verifyAndChangeEmail(idToken: "id", newEmail: "b@e.com")))),
            ("sendOobCode sign-in link", sentTenant(SendOobCode(.emailSignIn(email: "a@example.com")))),
            ("signInWithEmailLink", sentTenant(SignInWithEmailLink(email: "a@example.com", oobCode: "c"))),
            ("signInWithEmailLink linking", sentTenant(SignInWithEmailLink(email: "a@example.com", oobCode: "c",
                                                                           idToken: "id"))),
            ("applyActionCode", sentTenant(ApplyActionCode(oobCode: "c"))),
            ("resetPassword check", sentTenant(ResetPassword(oobCode: "c"))),
            ("resetPassword confirm", sentTenant(ResetPassword(oobCode: "c", newPassword: "pw-2"))),
            ("createAuthUri", sentTenant(CreateAuthUri(identifier: "a@example.com"))),
            ("createAuthUri provider", sentTenant(CreateAuthUriForProvider(providerId: "apple.com",
                                                                           continueUri: "http://127.0.0.1:1/"))),
            ("mfaEnrollment:start", sentTenant(StartMfaEnrollment(idToken: "id", factor: .totp))),
            ("mfaEnrollment:finalize", sentTenant(FinalizeMfaEnrollment(
                idToken: "id", verification: .totp(sessionInfo: "s", verificationCode: "123456")))),
            ("mfaEnrollment:withdraw", sentTenant(WithdrawMfa(idToken: "id", mfaEnrollmentId: "e"))),
            ("mfaSignIn:start", sentTenant(StartMfaSignIn(mfaPendingCredential: "p", mfaEnrollmentId: "e"))),
            ("mfaSignIn:finalize", sentTenant(FinalizeMfaSignIn(
                mfaPendingCredential: "p", verification: .totp(mfaEnrollmentId: "e", verificationCode: "123456")))),
        ]
        for (name, sent) in scoped {
            XCTAssertEqual(sent, .some("tenant-a1b2c"), name)
        }
    }

    func testRequestsOfASignedInUserThatFirebaseSendsWithoutATenantStayWithoutOne() {
        let unscoped: [(String, String??)] = [
            ("lookup", sentTenant(GetAccountInfo(idToken: "id"))),
            ("update", sentTenant(SetAccountInfo(idToken: "id", displayName: "n"))),
            ("delete", sentTenant(DeleteAccount(idToken: "id"))),
            ("signUp linking an email", sentTenant(SignUp.link(idToken: "id", email: "a@example.com", password: "pw"))),
            ("token refresh", sentTenant(SecureTokenRefresh(refreshToken: "r"))),
        ]
        for (name, sent) in unscoped {
            XCTAssertEqual(sent, .some(nil), name)
        }
    }

    func testWithoutATenantNoRequestNamesOne() {
        let project = BackendHarness.production
        XCTAssertEqual(sentTenant(SignUp.anonymous, config: project), .some(nil))
        XCTAssertEqual(sentTenant(SignInWithPassword(email: "a@example.com", password: "pw"), config: project), .some(nil))
        XCTAssertEqual(sentTenant(SendOobCode(.passwordReset(email: "a@example.com")), config: project), .some(nil))
        // And a tenant-free body is byte for byte what it was before tenants (the bench's canned bodies).
        let body = String(decoding: BackendHarness.request(SignInWithPassword(email: "a@example.com", password: "pw"),
                                                           config: project).body, as: UTF8.self)
        XCTAssertEqual(body, #"{"email":"a@example.com","password":"pw","returnSecureToken":true}"#)
    }

    func testATenantTheRequestNamesItselfWinsOverTheAuths() {
        XCTAssertEqual(sentTenant(SignInWithPassword(email: "a@example.com", password: "pw", tenantId: "own-tenant")),
                       .some("own-tenant"))
        XCTAssertEqual(sentTenant(SignInWithIdp(postBody: "p", tenantId: "event-tenant")), .some("event-tenant"))
    }

    func testThePasswordSignInBodyNamesTheTenantLast() {
        let body = String(decoding: BackendHarness.request(SignInWithPassword(email: "a@example.com", password: "pw"),
                                                           config: tenant).body, as: UTF8.self)
        XCTAssertEqual(body, #"{"email":"a@example.com","password":"pw","returnSecureToken":true,"tenantId":"tenant-a1b2c"}"#)
    }

    func testPerformSendsTheTenantToo() {
        let harness = BackendHarness()
        _ = harness.run(SignUp.anonymous, config: tenant) { transport in
            transport.reply(status: 400, body: #"{"error":{"code":400,"message":"ADMIN_ONLY_OPERATION"}}"#)
        }
        guard case .object(let body)? = decodedJSONBody(harness.transport.requests[0]) else {
            return XCTFail("no JSON body")
        }
        XCTAssertEqual(body["tenantId"]?.stringValue, "tenant-a1b2c")
    }

    func testTheServersTenantErrorsMapToTheirCodes() {
        let cases: [(String, AuthErrorCode)] = [
            ("TENANT_ID_MISMATCH", .tenantIdMismatch),
            ("INVALID_TENANT_ID", .invalidTenantId),
            ("UNSUPPORTED_TENANT_OPERATION", .unsupportedTenantOperation),
            ("ADMIN_ONLY_OPERATION", .adminRestrictedOperation),
            ("PASSWORD_LOGIN_DISABLED", .operationNotAllowed),
        ]
        for (server, code) in cases {
            let error = BackendHarness().error(SignInWithPassword(email: "a@example.com", password: "pw"), status: 400,
                                               body: #"{"error":{"code":400,"message":"\#(server)"}}"#)
            XCTAssertEqual(error?.code, code, server)
        }
    }
}
