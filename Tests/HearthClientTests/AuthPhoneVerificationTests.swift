@testable import HearthAuth
@testable import HearthBackend
@testable import HearthTransport
import HearthWire
import XCTest

/// Firebase's phone verification rules that Hearth enforces itself: E.164 up front, one SMS per
/// number while a code is fresh, a resend token that forces another, app verification off against
/// the emulator.
final class AuthPhoneVerificationTests: XCTestCase {
    var loop: EventLoop!
    var service: FakeIdentityToolkit!
    let clock = Locked<Int64>(1_700_000_000_000)

    override func setUpWithError() throws { loop = try EventLoop.makeOwned() }
    override func tearDown() { loop.shutdown() }

    private func makeAuth() -> Auth {
        let service = FakeIdentityToolkit(loop: loop, uid: "user-1")
        self.service = service
        let clock = self.clock
        let auth = Auth(configuration: AppConfiguration(apiKey: "key"), dispatcher: CallbackDispatcher(loop: loop),
                        store: MemorySessionStore(), emulator: EmulatorAddress(host: "127.0.0.1", port: 9099),
                        nowMs: { clock.current }) { _ in service }
        return auth
    }

    private func verify(_ auth: Auth, _ number: String, freshForMs: Int64 = 60_000, resend: String? = nil)
        -> Result<(id: String, token: String), AuthError> {
        var request = Auth.PhoneVerificationRequest()
        request.phoneNumber = number
        request.freshForMs = freshForMs
        request.forceResendingToken = resend
        let future = auth.verifyPhoneNumber(request)
        XCTAssertEqual(future.wait(timeoutMs: 5_000), .complete)
        switch future.result {
        case .success(.phoneVerification(let id, let token))?: return .success((id, token))
        case .failure(let error)?: return .failure(error)
        default: return .failure(AuthError(code: .failure, message: "unexpected result"))
        }
    }

    func testANumberThatIsNotE164IsRefusedBeforeAnyRequest() {
        let auth = makeAuth()
        for number in ["6505554567", "+0123456789", "+1 650 CALL NOW", "+1234567890123456"] {
            guard case .failure(let error) = verify(auth, number) else { return XCTFail("\(number) was accepted") }
            XCTAssertEqual(error.code, .invalidPhoneNumber, number)
        }
        guard case .failure(let empty) = verify(auth, "") else { return XCTFail("empty accepted") }
        XCTAssertEqual(empty.code, .missingPhoneNumber)
        XCTAssertTrue(service.sentCodes.isEmpty)
    }

    func testSeparatorsAreRemovedBeforeSending() {
        let auth = makeAuth()
        _ = verify(auth, "+1 650-555-3434")
        XCTAssertEqual(service.sentCodes.first?["phoneNumber"]?.stringValue, "+16505553434")
    }

    func testVerifyingTheSameNumberAgainWhileTheCodeIsFreshSendsNoSecondSMS() throws {
        let auth = makeAuth()
        let first = try verify(auth, "+16505554567").get()
        clock.withLock { $0 += 30_000 }
        let second = try verify(auth, "+1 650 555 4567").get()
        XCTAssertEqual(second.id, first.id)
        XCTAssertEqual(service.sentCodes.count, 1)
    }

    func testTheResendTokenSendsAnotherSMS() throws {
        let auth = makeAuth()
        let first = try verify(auth, "+16505554567").get()
        let resent = try verify(auth, "+16505554567", resend: first.token).get()
        XCTAssertNotEqual(resent.id, first.id)
        XCTAssertEqual(service.sentCodes.count, 2)
    }

    func testAfterTheTimeoutANewCodeIsSent() throws {
        let auth = makeAuth()
        let first = try verify(auth, "+16505554567", freshForMs: 10_000).get()
        clock.withLock { $0 += 10_001 }
        let later = try verify(auth, "+16505554567", freshForMs: 10_000).get()
        XCTAssertNotEqual(later.id, first.id)
    }

    func testAgainstTheEmulatorNoAppVerificationIsSent() throws {
        let auth = makeAuth()
        _ = try verify(auth, "+16505554567").get()
        XCTAssertNil(service.sentCodes.first?["recaptchaToken"])
    }

    func testWithAppVerificationButNoUIDelegateTheErrorSaysWhatIsMissing() {
        let auth = makeAuth()
        auth.setAppVerificationDisabledForTesting(false)
        guard case .failure(let error) = verify(auth, "+16505554567") else { return XCTFail("sent without reCAPTCHA") }
        XCTAssertEqual(error.code, .missingAppCredential)
        XCTAssertTrue(service.sentCodes.isEmpty)
    }
}

private extension FakeIdentityToolkit {
    /// The bodies of the SMS requests (accounts:sendVerificationCode) sent so far.
    var sentCodes: [JSONObject] { bodies(of: "accounts:sendVerificationCode") }
}

extension AuthPhoneVerificationTests {
    func testAFailedEnrollmentVerificationDoesNotBlockTheNextOneForTheSameNumber() {
        let auth = makeAuth()
        var request = Auth.PhoneVerificationRequest()
        request.phoneNumber = "+16505554567"
        request.session = .enrollment(uid: "nobody-signed-in")
        for attempt in 1...2 {
            let future = auth.verifyPhoneNumber(request)
            XCTAssertEqual(future.wait(timeoutMs: 5_000), .complete, "attempt \(attempt) completed")
            guard case .failure(let error)? = future.result else { return XCTFail("attempt \(attempt) succeeded") }
            XCTAssertEqual(error.code, .noSignedInUser)
        }
    }
}
