import HearthCrypto
import XCTest

/// Base32 (RFC 4648 §6): the RFC's test vectors, round trips of every length, and the lenient and strict
/// sides of decoding.
final class Base32Tests: XCTestCase {
    private let vectors: [(String, String)] = [
        ("", ""), ("f", "MY======"), ("fo", "MZXQ===="), ("foo", "MZXW6==="), ("foob", "MZXW6YQ="),
        ("fooba", "MZXW6YTB"), ("foobar", "MZXW6YTBOI======"),
    ]

    func testEncodingMatchesRFC4648Section10() {
        for (plain, encoded) in vectors {
            XCTAssertEqual(Base32.encode(Array(plain.utf8)), encoded, plain)
        }
    }

    func testDecodingMatchesRFC4648Section10() {
        for (plain, encoded) in vectors {
            XCTAssertEqual(Base32.decode(encoded), Array(plain.utf8), encoded)
        }
    }

    func testUnpaddedEncodingDropsOnlyThePadding() {
        XCTAssertEqual(Base32.encode(Array("f".utf8), padding: false), "MY")
        XCTAssertEqual(Base32.encode(Array("foobar".utf8), padding: false), "MZXW6YTBOI")
        XCTAssertEqual(Base32.encode(Array("fooba".utf8), padding: false), "MZXW6YTB")
    }

    func testEveryLengthRoundTripsWithAndWithoutPadding() {
        for length in 0...64 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11 &+ length) }
            XCTAssertEqual(Base32.decode(Base32.encode(bytes)), bytes, "length \(length)")
            XCTAssertEqual(Base32.decode(Base32.encode(bytes, padding: false)), bytes, "length \(length), unpadded")
        }
        let allValues = (0...255).map { UInt8($0) }
        XCTAssertEqual(Base32.decode(Base32.encode(allValues)), allValues)
    }

    func testDecodingAcceptsLowerCaseAndGroupSeparators() {
        XCTAssertEqual(Base32.decode("mzxw6ytboi"), Array("foobar".utf8))
        XCTAssertEqual(Base32.decode("MZXW 6YTB OI"), Array("foobar".utf8))
        XCTAssertEqual(Base32.decode("MZXW-6YTB-OI======"), Array("foobar".utf8))
    }

    func testDecodingRejectsTextThatIsNotBase32() {
        XCTAssertNil(Base32.decode("MZXW1YTB"), "'1' is not in the alphabet")
        XCTAssertNil(Base32.decode("MZXW8YTB"), "'8' is not in the alphabet")
        XCTAssertNil(Base32.decode("MZXW6YT!"))
        XCTAssertNil(Base32.decode("MY==MZXQ"), "data after padding")
        XCTAssertNil(Base32.decode("MZXW6YTBé"))
    }

    func testDecodingRejectsLengthsNoByteCountEncodesTo() {
        XCTAssertNil(Base32.decode("M"))
        XCTAssertNil(Base32.decode("MZX"))
        XCTAssertNil(Base32.decode("MZXW6Y"))
        XCTAssertNil(Base32.decode("MZXW6YTBO"))
        XCTAssertNotNil(Base32.decode("MZ"))
        XCTAssertNotNil(Base32.decode("MZXW"))
        XCTAssertNotNil(Base32.decode("MZXW6"))
        XCTAssertNotNil(Base32.decode("MZXW6YT"))
    }
}
