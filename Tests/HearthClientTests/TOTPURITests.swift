@testable import HearthAuth
import XCTest

/// The `otpauth://totp/` URI for QR codes: exact strings, percent-encoding of names, unpadded secrets.
final class TOTPURITests: XCTestCase {
    private let secret = Array("12345678901234567890".utf8) // base32 GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ

    func testTheURICarriesEveryParameter() {
        XCTAssertEqual(OTPAuthURI.totp(secret: secret, accountName: "ada@example.com", issuer: "Hearth",
                                       algorithm: .sha1, digits: 6, periodSeconds: 30),
                       "otpauth://totp/Hearth:ada%40example.com?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
                       + "&issuer=Hearth&algorithm=SHA1&digits=6&period=30")
    }

    func testSpacesColonsAndNonASCIINamesArePercentEncoded() {
        XCTAssertEqual(OTPAuthURI.totp(secret: secret, accountName: "José: Work", issuer: "Acme Co & Sons",
                                       algorithm: .sha512, digits: 8, periodSeconds: 60),
                       "otpauth://totp/Acme%20Co%20%26%20Sons:Jos%C3%A9%3A%20Work"
                       + "?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=Acme%20Co%20%26%20Sons"
                       + "&algorithm=SHA512&digits=8&period=60")
    }

    func testTheSecretIsWrittenWithoutPadding() {
        XCTAssertEqual(OTPAuthURI.totp(secret: Array("foobar".utf8), accountName: "a", issuer: "I",
                                       algorithm: .sha256, digits: 6, periodSeconds: 30),
                       "otpauth://totp/I:a?secret=MZXW6YTBOI&issuer=I&algorithm=SHA256&digits=6&period=30")
    }

    func testWithoutAnIssuerTheLabelIsTheAccountAlone() {
        XCTAssertEqual(OTPAuthURI.totp(secret: secret, accountName: "ada", issuer: "", algorithm: .sha1, digits: 6,
                                       periodSeconds: 30),
                       "otpauth://totp/ada?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&algorithm=SHA1&digits=6&period=30")
    }

    func testAGeneratorsURIUsesItsParameters() throws {
        let generator = try TOTPGenerator(secret: secret, algorithm: .sha256, digits: 7, periodSeconds: 45)
        XCTAssertEqual(OTPAuthURI.totp(generator, accountName: "ada", issuer: "Hearth"),
                       "otpauth://totp/Hearth:ada?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=Hearth"
                       + "&algorithm=SHA256&digits=7&period=45")
    }
}
