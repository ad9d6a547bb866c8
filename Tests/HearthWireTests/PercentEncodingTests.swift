import XCTest
@testable import HearthWire

final class PercentEncodingTests: XCTestCase {
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

    /// The bytes a browser's URLSearchParams writes: what the emulator's pages must produce.
    func testURLSearchParamsEncodingIsTheWHATWGSerializer() {
        XCTAssertEqual(FormEncoding.encodeAsURLSearchParams([("a b", "c+d"), ("e", "*-._~!'()"), ("é", "")]),
                       "a+b=c%2Bd&e=*-._%7E%21%27%28%29&%C3%A9=")
        XCTAssertEqual(FormEncoding.encodeAsURLSearchParams([]), "")
    }
}
