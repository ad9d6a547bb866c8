import XCTest
@testable import HearthCore

final class SupportEncodingTests: XCTestCase {
    // RFC 4648 §10 test vectors, in the url alphabet without padding.
    private let vectors: [(String, String)] = [
        ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"),
        ("foobar", "Zm9vYmFy"),
    ]

    func testBase64URLEncodesRFC4648VectorsWithoutPadding() {
        for (plain, encoded) in vectors {
            XCTAssertEqual(Base64URL.encode(Array(plain.utf8)), encoded, plain)
        }
    }

    func testBase64URLDecodesRFC4648VectorsWithAndWithoutPadding() {
        for (plain, encoded) in vectors {
            XCTAssertEqual(Base64URL.decode(encoded), Array(plain.utf8), encoded)
            let padded = encoded + String(repeating: "=", count: (4 - encoded.count % 4) % 4)
            XCTAssertEqual(Base64URL.decode(padded), Array(plain.utf8), padded)
        }
    }

    func testBase64URLUsesDashAndUnderscoreAndAcceptsTheStandardAlphabet() {
        let bytes: [UInt8] = [0xFB, 0xFF, 0xBF]
        XCTAssertEqual(Base64URL.encode(bytes), "-_-_")
        XCTAssertEqual(Base64URL.decode("-_-_"), bytes)
        XCTAssertEqual(Base64URL.decode("+/+/"), bytes)
    }

    func testBase64URLRoundTripsEveryLengthAndByteValue() {
        var generator = SystemRandomNumberGenerator()
        for length in 0...67 {
            let bytes = (0..<length).map { index in length == 67 ? UInt8(index * 4 % 256) : UInt8.random(in: 0...255, using: &generator) }
            let encoded = Base64URL.encode(bytes)
            XCTAssertEqual(Base64URL.decode(encoded), bytes, encoded)
            XCTAssertEqual(Base64URL.decode(encoded + "=="), bytes, encoded)
            XCTAssertEqual(Base64URL.decode(Substring(encoded)), bytes, encoded)
        }
        let everyByte = (0...255).map { UInt8($0) }
        XCTAssertEqual(Base64URL.decode(Base64URL.encode(everyByte)), everyByte)
    }

    func testBase64URLRejectsAForeignCharacterInAnyPosition() {
        let encoded: [UInt8] = Array(Base64URL.encode(Array("a payload of some length".utf8)).utf8)
        for position in encoded.indices {
            for foreign in ["*", ".", "=", " ", "\u{0}"] {
                var broken = encoded
                broken[position] = Array(foreign.utf8)[0]
                let text = String(decoding: broken, as: UTF8.self)
                // '=' is allowed only as trailing padding.
                if foreign == "=" && position == encoded.count - 1 { continue }
                XCTAssertNil(Base64URL.decode(text), text)
            }
        }
    }

    func testBase64URLRejectsForeignCharactersAndImpossibleLengths() {
        XCTAssertNil(Base64URL.decode("Zm9v*"))
        XCTAssertNil(Base64URL.decode("Zm 9v"))
        XCTAssertNil(Base64URL.decode("Z"))
        XCTAssertNil(Base64URL.decode("Zm9vY"))
        XCTAssertNil(Base64URL.decode("Zg==Zg"))
        XCTAssertNil(Base64URL.decode("é"))
    }

    func testBase64URLRoundTripsEveryByteValue() {
        let bytes = (0...255).map { UInt8($0) }
        XCTAssertEqual(Base64URL.decode(Base64URL.encode(bytes)), bytes)
    }

    func testPercentEncodingKeepsOnlyTheUnreservedSet() {
        XCTAssertEqual(PercentEncoding.encode("AZaz09-._~"), "AZaz09-._~")
        XCTAssertEqual(PercentEncoding.encode("a b+c/d?e&f=g#h%"), "a%20b%2Bc%2Fd%3Fe%26f%3Dg%23h%25")
        XCTAssertEqual(PercentEncoding.encode("é😀"), "%C3%A9%F0%9F%98%80")
        XCTAssertEqual(PercentEncoding.encode("\n\""), "%0A%22")
        XCTAssertEqual(PercentEncoding.encode(""), "")
    }

    func testPercentEncodingOfLongTextFollowsTheByteRuleAtEveryOffset() {
        // Text longer than 16 bytes is scanned 16 bytes at a time: every ASCII byte and multi-byte
        // characters, shifted through every position of a 16-byte chunk, come out as the rule says.
        let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
        let hex = Array("0123456789ABCDEF")
        func byByte(_ text: String) -> String {
            var out = ""
            for byte in text.utf8 {
                if unreserved.contains(byte) {
                    out.unicodeScalars.append(Unicode.Scalar(byte))
                } else {
                    out += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 0x0F)])
                }
            }
            return out
        }
        let everyASCII = String(decoding: (1...127).map { UInt8($0) }, as: UTF8.self)
        let body = everyASCII + "é😀" + String(repeating: "AMf-vBz_9.~", count: 20) + "+/="
        for offset in 0...17 {
            let text = String(repeating: "k", count: offset) + body + String(repeating: "z", count: offset)
            XCTAssertEqual(PercentEncoding.encode(text), byByte(text), "offset \(offset)")
        }
        let refreshToken = String(repeating: "AMf-vBxyz0123456789_", count: 15)
        XCTAssertEqual(PercentEncoding.encode(refreshToken), refreshToken)
    }

    func testFormEncodingJoinsPairsInOrderAndEncodesBothSides() {
        XCTAssertEqual(FormEncoding.encode([("grant_type", "refresh_token"), ("refresh_token", "a+b/c=")]),
                       "grant_type=refresh_token&refresh_token=a%2Bb%2Fc%3D")
        XCTAssertEqual(FormEncoding.encode([("id_token", "x.y.z"), ("providerId", "google.com"), ("k y", "")]),
                       "id_token=x.y.z&providerId=google.com&k%20y=")
        XCTAssertEqual(FormEncoding.encode([]), "")
    }
}
