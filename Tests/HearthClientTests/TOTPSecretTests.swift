@testable import HearthAuth
@testable import HearthBackend
import XCTest

/// A TOTP enrollment's secret read from `totpSessionInfo`: parameters, defaults, deadline, QR URI, and
/// answers no authenticator could use.
final class TOTPSecretTests: XCTestCase {
    private func session(_ algorithm: String? = "SHA1", length: Int? = 6, period: Int? = 30,
                         key: String = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ") -> TotpEnrollmentSession {
        TotpEnrollmentSession(sharedSecretKey: key, sessionInfo: "TOTP_SESSION", verificationCodeLength: length,
                              hashingAlgorithm: algorithm, periodSec: period,
                              finalizeEnrollmentTime: "2024-05-01T12:34:56.789Z")
    }

    func testTheSecretGeneratesTheCodesTheServerExpects() throws {
        let secret = try TOTPSecret(session: session(length: 8))
        XCTAssertEqual(secret.generator.secret, Array("12345678901234567890".utf8))
        XCTAssertEqual(secret.generator.code(atUnixTime: 1_111_111_109), "07081804")
        XCTAssertEqual(secret.sessionInfo, "TOTP_SESSION")
        XCTAssertEqual(secret.sharedSecretKey, "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ")
        XCTAssertEqual(secret.finalizeEnrollmentTimeMs, 1_714_566_896_789)
    }

    func testTheQRCodeURIUsesTheServersParameters() throws {
        let secret = try TOTPSecret(session: session("SHA256", length: 8, period: 60))
        XCTAssertEqual(secret.qrCodeURI(accountName: "ada@example.com", issuer: "Hearth Test"),
                       "otpauth://totp/Hearth%20Test:ada%40example.com?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
                       + "&issuer=Hearth%20Test&algorithm=SHA256&digits=8&period=60")
    }

    func testParametersTheServerLeavesOutTakeTheRFCDefaults() throws {
        let secret = try TOTPSecret(session: session(nil, length: nil, period: nil))
        XCTAssertEqual(secret.generator.algorithm, .sha1)
        XCTAssertEqual(secret.generator.digits, 6)
        XCTAssertEqual(secret.generator.periodSeconds, 30)
    }

    func testUnusableAnswersAreMalformedResponses() {
        let unusable = [
            session("MD5"),
            session(length: 4),
            session(period: 0),
            session(key: "not base32!"),
        ]
        for answer in unusable {
            do {
                _ = try TOTPSecret(session: answer)
                XCTFail("accepted \(answer)")
            } catch {
                XCTAssertEqual(error.code, .failure)
                XCTAssertTrue(error.message.hasPrefix("The server sent a malformed response"), error.message)
            }
        }
    }

    func testTheSecretPrintsWithoutTheKeyOrTheSession() throws {
        let secret = try TOTPSecret(session: session())
        var dumped = ""
        dump(secret, to: &dumped)
        for text in [String(describing: secret), String(reflecting: secret), dumped] {
            XCTAssertFalse(text.contains("GEZDGNBV"), text)
            XCTAssertFalse(text.contains("TOTP_SESSION"), text)
        }
    }
}
