@testable import HearthAuth
@testable import HearthBackend
import HearthCrypto
import XCTest

/// HOTP and TOTP codes against RFC 4226 Appendix D and RFC 6238 Appendix B, and the generator's checks.
final class TOTPTests: XCTestCase {
    /// RFC 6238 Appendix B seeds: the ASCII digits repeated to the hash's output length.
    private let sha1Seed = Array("12345678901234567890".utf8)
    private let sha256Seed = Array("12345678901234567890123456789012".utf8)
    private let sha512Seed = Array("1234567890123456789012345678901234567890123456789012345678901234".utf8)

    /// (time, SHA-1, SHA-256, SHA-512) from RFC 6238 Appendix B (8 digits, 30 s, T0 = 0).
    private let appendixB: [(UInt64, String, String, String)] = [
        (59, "94287082", "46119246", "90693936"),
        (1_111_111_109, "07081804", "68084774", "25091201"),
        (1_111_111_111, "14050471", "67062674", "99943326"),
        (1_234_567_890, "89005924", "91819424", "93441116"),
        (2_000_000_000, "69279037", "90698825", "38618901"),
        (20_000_000_000, "65353130", "77737706", "47863826"),
    ]

    func testTOTPMatchesRFC6238AppendixBForSHA1() throws {
        let generator = try TOTPGenerator(secret: sha1Seed, algorithm: .sha1, digits: 8)
        for (time, sha1, _, _) in appendixB {
            XCTAssertEqual(generator.code(atUnixTime: time), sha1, "T=\(time)")
        }
    }

    func testTOTPMatchesRFC6238AppendixBForSHA256() throws {
        let generator = try TOTPGenerator(secret: sha256Seed, algorithm: .sha256, digits: 8)
        for (time, _, sha256, _) in appendixB {
            XCTAssertEqual(generator.code(atUnixTime: time), sha256, "T=\(time)")
        }
    }

    func testTOTPMatchesRFC6238AppendixBForSHA512() throws {
        let generator = try TOTPGenerator(secret: sha512Seed, algorithm: .sha512, digits: 8)
        for (time, _, _, sha512) in appendixB {
            XCTAssertEqual(generator.code(atUnixTime: time), sha512, "T=\(time)")
        }
    }

    func testSixDigitCodesAreTheLastSixDigitsOfTheEightDigitOnes() throws {
        let generator = try TOTPGenerator(secret: sha1Seed)
        XCTAssertEqual(generator.digits, 6)
        XCTAssertEqual(generator.periodSeconds, 30)
        XCTAssertEqual(generator.algorithm, .sha1)
        for (time, sha1, _, _) in appendixB {
            XCTAssertEqual(generator.code(atUnixTime: time), String(sha1.suffix(6)), "T=\(time)")
        }
    }

    func testHOTPMatchesRFC4226AppendixD() throws {
        let expected = ["755224", "287082", "359152", "969429", "338314",
                        "254676", "287922", "162583", "399871", "520489"]
        let generator = try TOTPGenerator(secret: sha1Seed)
        for (counter, code) in expected.enumerated() {
            XCTAssertEqual(generator.code(counter: UInt64(counter)), code, "counter \(counter)")
        }
    }

    func testTheTimeStepAndTheSecondsLeftFollowThePeriod() throws {
        let generator = try TOTPGenerator(secret: sha1Seed, periodSeconds: 60)
        XCTAssertEqual(generator.counter(atUnixTime: 59), 0)
        XCTAssertEqual(generator.counter(atUnixTime: 60), 1)
        XCTAssertEqual(generator.secondsRemaining(atUnixTime: 60), 60)
        XCTAssertEqual(generator.secondsRemaining(atUnixTime: 119), 1)
        XCTAssertEqual(generator.code(atUnixTime: 60), generator.code(atUnixTime: 119))
        XCTAssertNotEqual(generator.code(atUnixTime: 119), generator.code(atUnixTime: 120))
    }

    func testABase32SecretGivesTheSameCodesAsItsBytes() throws {
        // base32 of the RFC 6238 SHA-1 seed.
        let fromText = try TOTPGenerator(base32Secret: "gezd gnbv gy3t qojq gezd gnbv gy3t qojq", digits: 8)
        XCTAssertEqual(fromText.secret, sha1Seed)
        XCTAssertEqual(fromText.code(atUnixTime: 59), "94287082")
    }

    func testUnusableParametersAreInvalidArguments() {
        func code(of build: () throws(AuthError) -> TOTPGenerator) -> AuthErrorCode? {
            do {
                _ = try build()
                return nil
            } catch {
                return error.code
            }
        }
        XCTAssertEqual(code { () throws(AuthError) in try TOTPGenerator(secret: []) }, .invalidArgument)
        XCTAssertEqual(code { () throws(AuthError) in try TOTPGenerator(secret: sha1Seed, digits: 5) }, .invalidArgument)
        XCTAssertEqual(code { () throws(AuthError) in try TOTPGenerator(secret: sha1Seed, digits: 11) }, .invalidArgument)
        XCTAssertEqual(code { () throws(AuthError) in try TOTPGenerator(secret: sha1Seed, periodSeconds: 0) }, .invalidArgument)
        XCTAssertEqual(code { () throws(AuthError) in try TOTPGenerator(base32Secret: "not base32!") }, .invalidArgument)
        XCTAssertEqual(code { () throws(AuthError) in try TOTPGenerator(base32Secret: "") }, .invalidArgument)
        XCTAssertNil(code { () throws(AuthError) in try TOTPGenerator(secret: sha1Seed, digits: 10) })
    }

    func testTenDigitCodesKeepLeadingZeros() throws {
        let generator = try TOTPGenerator(secret: sha1Seed, digits: 10)
        for (time, sha1, _, _) in appendixB {
            let code = generator.code(atUnixTime: time)
            XCTAssertEqual(code.count, 10)
            XCTAssertTrue(code.hasSuffix(sha1), "T=\(time): \(code)")
        }
    }

    func testAlgorithmNamesAreReadInTheirCommonSpellings() {
        XCTAssertEqual(TOTPAlgorithm(name: "SHA1"), .sha1)
        XCTAssertEqual(TOTPAlgorithm(name: "sha-1"), .sha1)
        XCTAssertEqual(TOTPAlgorithm(name: "HMAC_SHA256"), .sha256)
        XCTAssertEqual(TOTPAlgorithm(name: "SHA-512"), .sha512)
        XCTAssertNil(TOTPAlgorithm(name: "MD5"))
        XCTAssertNil(TOTPAlgorithm(name: ""))
        XCTAssertEqual(TOTPAlgorithm.allCases.map(\.rawValue), ["SHA1", "SHA256", "SHA512"])
    }

    func testAGeneratorPrintsWithoutItsSecret() throws {
        let generator = try TOTPGenerator(secret: Array("SECRETSECRET".utf8), algorithm: .sha256)
        var dumped = ""
        dump(generator, to: &dumped)
        for text in [String(describing: generator), String(reflecting: generator), dumped] {
            XCTAssertFalse(text.contains("SECRET"), text)
            XCTAssertFalse(text.contains("secret"), text)
        }
        XCTAssertEqual(String(describing: generator), "TOTPGenerator(algorithm: SHA256, digits: 6, period: 30)")
    }
}
