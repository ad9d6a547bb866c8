import XCTest
@testable import HearthWire

/// Base64 in both alphabets: RFC 4648's vectors, and the leniency tokens from different issuers need.
final class Base64Tests: XCTestCase {
    // RFC 4648 §10 test vectors, in the url alphabet without padding.
    private let vectors: [(String, String)] = [
        ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"),
        ("foobar", "Zm9vYmFy"),
    ]

    func testURLEncodesRFC4648VectorsWithoutPadding() {
        for (plain, encoded) in vectors {
            XCTAssertEqual(Base64.urlEncoded(Array(plain.utf8)), encoded, plain)
        }
    }

    func testURLDecodesRFC4648VectorsWithAndWithoutPadding() {
        for (plain, encoded) in vectors {
            XCTAssertEqual(Base64.decode(encoded), Array(plain.utf8), encoded)
            let padded = encoded + String(repeating: "=", count: (4 - encoded.count % 4) % 4)
            XCTAssertEqual(Base64.decode(padded), Array(plain.utf8), padded)
        }
    }

    func testURLUsesDashAndUnderscoreAndAcceptsTheStandardAlphabet() {
        let bytes: [UInt8] = [0xFB, 0xFF, 0xBF]
        XCTAssertEqual(Base64.urlEncoded(bytes), "-_-_")
        XCTAssertEqual(Base64.decode("-_-_"), bytes)
        XCTAssertEqual(Base64.decode("+/+/"), bytes)
    }

    func testURLRoundTripsEveryLengthAndByteValue() {
        var generator = SystemRandomNumberGenerator()
        for length in 0...67 {
            let bytes = (0..<length).map { index in length == 67 ? UInt8(index * 4 % 256) : UInt8.random(in: 0...255, using: &generator) }
            let encoded = Base64.urlEncoded(bytes)
            XCTAssertEqual(Base64.decode(encoded), bytes, encoded)
            XCTAssertEqual(Base64.decode(encoded + "=="), bytes, encoded)
            XCTAssertEqual(Base64.decode(Substring(encoded)), bytes, encoded)
        }
        let everyByte = (0...255).map { UInt8($0) }
        XCTAssertEqual(Base64.decode(Base64.urlEncoded(everyByte)), everyByte)
    }

    func testURLRejectsAForeignCharacterInAnyPosition() {
        let encoded: [UInt8] = Array(Base64.urlEncoded(Array("a payload of some length".utf8)).utf8)
        for position in encoded.indices {
            for foreign in ["*", ".", "=", " ", "\u{0}"] {
                var broken = encoded
                broken[position] = Array(foreign.utf8)[0]
                let text = String(decoding: broken, as: UTF8.self)
                // '=' is allowed only as trailing padding.
                if foreign == "=" && position == encoded.count - 1 { continue }
                XCTAssertNil(Base64.decode(text), text)
            }
        }
    }

    func testURLRejectsForeignCharactersAndImpossibleLengths() {
        XCTAssertNil(Base64.decode("Zm9v*"))
        XCTAssertNil(Base64.decode("Zm 9v"))
        XCTAssertNil(Base64.decode("Z"))
        XCTAssertNil(Base64.decode("Zm9vY"))
        XCTAssertNil(Base64.decode("Zg==Zg"))
        XCTAssertNil(Base64.decode("é"))
    }

    func testURLRoundTripsEveryByteValue() {
        let bytes = (0...255).map { UInt8($0) }
        XCTAssertEqual(Base64.decode(Base64.urlEncoded(bytes)), bytes)
    }

    func testStandardEncodingIsPaddedAndUsesPlusAndSlash() {
        let vectors: [(String, String)] = [
            ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ]
        for (plain, encoded) in vectors {
            XCTAssertEqual(Base64.standardEncoded(Array(plain.utf8)), encoded, plain)
            XCTAssertEqual(Base64.decode(encoded), Array(plain.utf8), encoded)
        }
        XCTAssertEqual(Base64.standardEncoded([0xFB, 0xFF, 0xBF]), "+/+/")
    }

    func testEncodingIntoABufferWritesTheUnpaddedURLForm() {
        for length in 0...10 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 * 37 + 200) }
            var buffer = [UInt8](repeating: 0, count: Base64.unpaddedLength(of: length))
            let written = buffer.withUnsafeMutableBufferPointer { Base64.urlEncode(bytes, into: $0) }
            XCTAssertEqual(written, buffer.count)
            XCTAssertEqual(String(decoding: buffer, as: UTF8.self), Base64.urlEncoded(bytes))
        }
    }
}
