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
