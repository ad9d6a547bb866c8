import XCTest
@testable import HearthWire

final class JSONValueTests: XCTestCase {
    func testParsingReadsEveryKindOfValue() throws {
        let value = try JSONValue.parse(#"{"s":"text","n":3600,"f":1.5,"t":true,"F":false,"z":null,"a":[1,"two",{"k":[]}],"o":{}}"#)
        let expected: JSONValue = [
            "s": "text", "n": 3600, "f": 1.5, "t": true, "F": false, "z": .null,
            "a": [1, "two", ["k": []]], "o": [:],
        ]
        XCTAssertEqual(value, expected)
    }

    func testParsingKeepsBooleansAndNumbersApart() throws {
        XCTAssertEqual(try JSONValue.parse("[true,1,0,false]"), [true, 1, 0, false])
    }

    func testParsingDecodesEscapesAndUnicode() throws {
        let value = try JSONValue.parse(#"["a\"b\\c\n\u00e9\ud83d\ude00/"]"#)
        XCTAssertEqual(value, ["a\"b\\c\né😀/"])
    }

    func testParsingRejectsSyntaxErrors() {
        for text in ["{", "{\"a\":}", "[1 2]", "nul", "{'a':1}", "<html>502</html>", "   "] {
            XCTAssertThrowsError(try JSONValue.parse(text), "accepted \(text)")
        }
    }

    func testParsingRejectsEmptyInput() {
        XCTAssertThrowsError(try JSONValue.parse([UInt8]()))
    }

    func testParsingRejectsInvalidUTF8() {
        let bytes: [UInt8] = Array(#"{"a":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
        XCTAssertThrowsError(try JSONValue.parse(bytes))
    }

    func testParsingAbsurdlyDeepNestingFailsCleanly() {
        let text = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        XCTAssertThrowsError(try JSONValue.parse(text))
    }

    func testSubscriptsReturnNilForMissingOrMistypedAccess() {
        let value: JSONValue = ["list": [1, 2], "name": "x"]
        XCTAssertEqual(value["name"], "x")
        XCTAssertNil(value["missing"])
        XCTAssertEqual(value["list"]?[1], 2)
        XCTAssertNil(value["list"]?[2])
        XCTAssertNil(value["list"]?[-1])
        XCTAssertNil(value["name"]?["inner"])
        XCTAssertNil(value[0])
    }

    func testTypedAccessorsOnlyMatchTheirKind() {
        let text: JSONValue = "3600"
        XCTAssertEqual(text.stringValue, "3600")
        XCTAssertNil(text.doubleValue)
        XCTAssertNil(text.boolValue)
        XCTAssertNil(JSONValue.number(1).boolValue)
        XCTAssertTrue(JSONValue.null.isNull)
        XCTAssertFalse(JSONValue.bool(false).isNull)
        XCTAssertEqual(JSONValue.array([1]).arrayValue, [1])
        XCTAssertEqual(JSONValue.object(["a": 1]).objectValue, ["a": 1])
    }

    // MARK: - Serialization

    func testSerializationIsCompactInEachObjectsOwnOrder() {
        let value: JSONValue = ["b": 1, "a": [true, .null], "c": ["y": "z", "x": 2.5]]
        XCTAssertEqual(value.jsonText, #"{"b":1,"a":[true,null],"c":{"y":"z","x":2.5}}"#)
    }

    func testSerializationEscapesQuotesBackslashesAndControlCharacters() {
        let value: JSONValue = .string("q\"b\\n\nr\rt\tb\u{08}f\u{0C}c\u{01}\u{1F}")
        XCTAssertEqual(value.jsonText, #""q\"b\\n\nr\rt\tb\bf\fc\u0001\u001f""#)
    }

    func testSerializationEscapesAtEveryPositionOfALongString() {
        // The scan for bytes to escape goes sixteen bytes at a time: every offset in and after a block.
        for prefix in ["", "é"] {
            for position in 0..<40 {
                let before = prefix + String(repeating: "a", count: position)
                let after = String(repeating: "b", count: 40 - position)
                for (raw, escaped) in [("\"", #"\""#), ("\\", #"\\"#), ("\u{01}", #"\u0001"#), ("\u{7F}", "\u{7F}"),
                                       ("ü", "ü")] {
                    XCTAssertEqual(JSONValue.string(before + raw + after).jsonText, "\"\(before)\(escaped)\(after)\"",
                                   "\(escaped) at \(position)")
                }
            }
        }
    }

    func testSerializationKeepsNonASCIIAndSlashesLiteral() {
        let value: JSONValue = "é 😀 https://example.com/a"
        XCTAssertEqual(value.jsonText, "\"é 😀 https://example.com/a\"")
    }

    func testSerializationWritesIntegralNumbersWithoutFraction() {
        XCTAssertEqual(JSONValue.number(3600).jsonText, "3600")
        XCTAssertEqual(JSONValue.number(-42).jsonText, "-42")
        XCTAssertEqual(JSONValue.number(-0.0).jsonText, "0")
        XCTAssertEqual(JSONValue.number(1_700_000_000_000).jsonText, "1700000000000")
        XCTAssertEqual(JSONValue.number(9_007_199_254_740_992).jsonText, "9007199254740992")
        XCTAssertEqual(JSONValue.number(1e16).jsonText, "10000000000000000", "as JavaScript prints it")
        XCTAssertEqual(JSONValue.number(-9_223_372_036_854_775_808).jsonText, "-9223372036854775808")
        XCTAssertEqual(JSONValue.number(9_223_372_036_854_775_808).jsonText, "9.223372036854776e+18", "beyond Int64")
        XCTAssertEqual(JSONValue.number(0.1).jsonText, "0.1")
        XCTAssertEqual(JSONValue.number(1e300).jsonText, "1e+300")
    }

    func testSerializationWritesNonFiniteNumbersAsNull() {
        XCTAssertEqual(JSONValue.number(.infinity).jsonText, "null")
        XCTAssertEqual(JSONValue.number(.nan).jsonText, "null")
    }

    func testSerializedTextParsesBackToTheSameValue() throws {
        let value: JSONValue = [
            "s": "line\nbreak \"quoted\" \u{7F} é", "n": -12.75, "big": 9_007_199_254_740_993.0,
            "nested": [["a": [.null, false]], "x"], "empty": [:], "list": [],
        ]
        XCTAssertEqual(try JSONValue.parse(value.serialized()), value)
        XCTAssertEqual(try JSONDecoder().decode(JSONValue.self, from: Data(value.serialized())), value)
    }

    func testCodableRoundTripThroughJSONEncoder() throws {
        let value: JSONValue = ["a": [1, "b", true, .null], "c": ["d": 0.5]]
        let data = try JSONEncoder().encode(value)
        XCTAssertEqual(try JSONDecoder().decode(JSONValue.self, from: data), value)
    }

    // MARK: - Lenient readings

    func testIntegersAreReadFromStringsAndNumbers() {
        XCTAssertEqual(JSONValue.string("3600").int64Value, 3600)
        XCTAssertEqual(JSONValue.string(" 42 ").int64Value, 42)
        XCTAssertEqual(JSONValue.string("-5").int64Value, -5)
        XCTAssertEqual(JSONValue.number(3600).int64Value, 3600)
        XCTAssertNil(JSONValue.string("3.5").int64Value)
        XCTAssertNil(JSONValue.number(3.5).int64Value)
        XCTAssertNil(JSONValue.string("abc").int64Value)
        XCTAssertNil(JSONValue.string("").int64Value)
        XCTAssertNil(JSONValue.string("-").int64Value)
        XCTAssertNil(JSONValue.string("+5").int64Value)
        XCTAssertNil(JSONValue.string("99999999999999999999").int64Value)
        XCTAssertNil(JSONValue.number(1e30).int64Value)
        XCTAssertNil(JSONValue.bool(true).int64Value)
        XCTAssertNil(JSONValue.null.int64Value)
    }

    func testTimestampsAreReadAsUnsignedFromStringsAndNumbers() {
        XCTAssertEqual(JSONValue.string("1700000000123").uint64Value, 1_700_000_000_123)
        XCTAssertEqual(JSONValue.number(1_700_000_000_123).uint64Value, 1_700_000_000_123)
        XCTAssertNil(JSONValue.string("-1").uint64Value)
        XCTAssertNil(JSONValue.number(-1).uint64Value)
        XCTAssertNil(JSONValue.string("12x").uint64Value)
    }

    /// Plain digit strings take a fast path; at its edges it must read exactly as Swift's integer
    /// parsing of the trimmed text does.
    func testIntegerStringsReadTheSameOnTheFastPathAndOffIt() {
        let texts = ["0", "-0", "007", "9", "1795312159262", "9223372036854775807", "9223372036854775808",
                     "-9223372036854775808", "-9223372036854775809", "9999999999999999999", "18446744073709551615",
                     "18446744073709551616", "00000000000000000001", "-", "--1", "1-", " 1", "1 ", "\t12\n", "1\r\n",
                     "\r\n1", "１", "1.0", "1e3", "+1", ""]
        for text in texts {
            let trimmed = text.trimmingASCIIWhitespace()
            let expectedSigned: Int64? = {
                var digits = Substring(trimmed)
                if digits.first == "-" { digits = digits.dropFirst() }
                guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
                return Int64(trimmed)
            }()
            let expectedUnsigned: UInt64? = !trimmed.isEmpty && trimmed.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
                ? UInt64(trimmed) : nil
            XCTAssertEqual(JSONValue.string(text).int64Value, expectedSigned, text.debugDescription)
            XCTAssertEqual(JSONValue.string(text).uint64Value, expectedUnsigned, text.debugDescription)
        }
        XCTAssertEqual(JSONValue.string("-9223372036854775808").int64Value, Int64.min)
        XCTAssertEqual(JSONValue.string("18446744073709551615").uint64Value, UInt64.max)
    }

    func testBooleansAreReadFromBoolsAndTheirStrings() {
        XCTAssertEqual(JSONValue.bool(true).flexibleBoolValue, true)
        XCTAssertEqual(JSONValue.string("false").flexibleBoolValue, false)
        XCTAssertNil(JSONValue.string("yes").flexibleBoolValue)
        XCTAssertNil(JSONValue.number(1).flexibleBoolValue)
    }

    func testNonEmptyStringTreatsEmptyAsAbsent() {
        XCTAssertEqual(JSONValue.string("x").nonEmptyStringValue, "x")
        XCTAssertNil(JSONValue.string("").nonEmptyStringValue)
        XCTAssertNil(JSONValue.number(1).nonEmptyStringValue)
    }
}
