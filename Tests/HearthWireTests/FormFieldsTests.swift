import XCTest
@testable import HearthWire

/// Queries, fragments and form bodies as the client's redirect receivers and the emulator's routes read
/// them (the WHATWG `application/x-www-form-urlencoded` parser, with '+' a space only in form bodies).
final class FormFieldsTests: XCTestCase {
    func testPairsKeepTheirOrderAndDuplicates() {
        let fields = FormFields(parsing: "b=2&a=1&b=3", plusIsSpace: true)
        XCTAssertEqual(fields.pairs.map(\.name), ["b", "a", "b"])
        XCTAssertEqual(fields.values(of: "b"), ["2", "3"])
        XCTAssertEqual(fields.first("b"), "2")
        XCTAssertNil(fields.first("c"))
    }

    func testEmptySegmentsAreSkippedAndANameWithoutEqualsHasAnEmptyValue() {
        let fields = FormFields(parsing: "&&a&b=&=c&d==e&", plusIsSpace: true)
        XCTAssertEqual(fields.pairs.map { "\($0.name)|\($0.value)" }, ["a|", "b|", "|c", "d|=e"])
        XCTAssertEqual(FormFields(parsing: "", plusIsSpace: true).fields, [])
    }

    func testPlusIsASpaceOnlyInFormBodies() {
        XCTAssertEqual(FormFields(parsing: "t=a+b%2Bc", plusIsSpace: true).first("t"), "a b+c")
        XCTAssertEqual(FormFields(parsing: "t=a+b%2Bc", plusIsSpace: false).first("t"), "a+b+c",
                       "a token's base64 '+' survives a query")
    }

    func testEscapesDecodeInEitherCaseAndMalformedOnesStayLiteral() {
        let fields = FormFields(parsing: "a=%C3%a9&b=%&c=%4&d=%zz&e=100%25&%41=x", plusIsSpace: true)
        XCTAssertEqual(fields.pairs.map { "\($0.name)|\($0.value)" }, ["a|é", "b|%", "c|%4", "d|%zz", "e|100%", "A|x"])
    }

    func testBytesThatAreNotUTF8BecomeTheReplacementCharacter() {
        XCTAssertEqual(FormFields(parsing: "a=%FF%C3&b=ok", plusIsSpace: true).pairs.map(\.value), ["\u{FFFD}\u{FFFD}", "ok"])
    }

    func testSplittingIsByBytesSoACombiningMarkAfterAnAmpersandStillSplits() {
        // As a Character, "&\u{301}" is one grapheme; the WHATWG parser splits on the '&' byte regardless.
        let fields = FormFields(parsing: Substring("a=1&\u{301}b=2"), plusIsSpace: true)
        XCTAssertEqual(fields.pairs.map(\.name), ["a", "\u{301}b"])
    }

    func testTextWithNothingToDecodeComesBackAsIs() {
        XCTAssertEqual(PercentDecoding.decode("key=fake-api-key".utf8, plusIsSpace: true), "key=fake-api-key")
        XCTAssertEqual(PercentDecoding.decode("a+b".utf8, plusIsSpace: false), "a+b")
        XCTAssertEqual(PercentDecoding.decode("a+b".utf8, plusIsSpace: true), "a b")
        XCTAssertEqual(PercentDecoding.decode([0x61, 0xFF], plusIsSpace: true), "a\u{FFFD}")
    }
}
