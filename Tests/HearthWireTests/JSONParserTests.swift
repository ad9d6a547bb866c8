import Foundation
import XCTest
@testable import HearthWire

/// RFC 8259 conformance of `JSONValue.parse`, in the spirit of JSONTestSuite's y_/n_ cases, plus a
/// randomized comparison with Foundation's JSONSerialization on valid documents.
final class JSONParserTests: XCTestCase {
    // MARK: - Accepted documents

    func testAnyValueMayStandAtTopLevel() throws {
        XCTAssertEqual(try JSONValue.parse("[]"), [])
        XCTAssertEqual(try JSONValue.parse("{}"), [:])
        XCTAssertEqual(try JSONValue.parse(#""x""#), "x")
        XCTAssertEqual(try JSONValue.parse(#""""#), "")
        XCTAssertEqual(try JSONValue.parse("123"), 123)
        XCTAssertEqual(try JSONValue.parse("true"), true)
        XCTAssertEqual(try JSONValue.parse("false"), false)
        XCTAssertEqual(try JSONValue.parse("null"), .null)
        XCTAssertEqual(try JSONValue.parse("[[[]],{}]"), [[[]], [:]])
    }

    /// Strings are scanned 16 bytes a turn for their first 64 bytes, then 64 a turn: whatever needs a look
    /// must be seen at every offset within those turns, including next to non-ASCII text.
    func testEveryByteThatMattersIsSeenAtEveryPositionOfALongString() throws {
        // Past two of the scanner's 64-byte turns, so a byte is met in each of a turn's four chunks, in the
        // sixteen-byte turns before them and in the tail after the last whole turn.
        for prefix in ["", "é"] {
            for position in 0..<210 {
                let before = prefix + String(repeating: "a", count: position)
                let after = String(repeating: "b", count: 210 - position)
                XCTAssertEqual(try JSONValue.parse("\"\(before)\\n\(after)\""), .string(before + "\n" + after))
                XCTAssertEqual(try JSONValue.parse("[\"\(before)\",\"\(after)\"]"), [.string(before), .string(after)])
                XCTAssertEqual(try JSONValue.parse("\"\(before)ü\(after)\""), .string(before + "ü" + after))
                for control: UInt8 in [0x00, 0x01, 0x0A, 0x1F] {
                    let text = Array("\"\(before)".utf8) + [control] + Array("\(after)\"".utf8)
                    XCTAssertThrowsError(try JSONValue.parse(text), "control \(control) at \(position)")
                }
                let broken = Array("\"\(before)".utf8) + [0xC3] + Array("\(after)\"".utf8)
                XCTAssertThrowsError(try JSONValue.parse(broken), "invalid UTF-8 at \(position)")
                XCTAssertThrowsError(try JSONValue.parse("\"\(before)\(after)"), "unterminated")
            }
        }
    }

    func testTheFourWhitespaceCharactersAreAllowedBetweenTokens() throws {
        let value = try JSONValue.parse(" \t\r\n{ \t\r\n\"a\" \t\r\n: \t\r\n[ 1 , 2 ] \t\r\n, \"b\":null}\n")
        XCTAssertEqual(value, ["a": [1, 2], "b": .null])
    }

    /// Google's parser (protobuf's JsonLexer) skips only space, tab, CR and LF before a value.
    func testAByteOrderMarkIsRejectedAsGooglesParserRejectsIt() {
        for text in ["{\"a\":1}", "[]", "1", " {}"] {
            XCTAssertThrowsError(try JSONValue.parse([0xEF, 0xBB, 0xBF] + Array(text.utf8))) { error in
                XCTAssertEqual((error as? JSONParseError)?.kind, .syntax)
                XCTAssertEqual((error as? JSONParseError)?.description, "invalid JSON: a byte order mark before the value at byte 0")
            }
        }
        XCTAssertThrowsError(try JSONValue.parse(Array("\"a\"".utf8) + [0xEF, 0xBB, 0xBF]), "nor after it")
        XCTAssertEqual(try JSONValue.parse(Array("\"".utf8) + [0xEF, 0xBB, 0xBF] + Array("\"".utf8)), "\u{FEFF}",
                       "inside a string it is a character like any other")
    }

    func testNumbersFollowTheGrammarAndRoundCorrectly() throws {
        let cases: [(String, Double)] = [
            ("0", 0), ("-0", -0.0), ("0.5", 0.5), ("-1.5e-3", -0.0015), ("1E2", 100), ("1e+2", 100),
            ("1e-2", 0.01), ("0e1", 0), ("1.0", 1), ("0.1", 0.1), ("3600", 3600), ("4102444800", 4102444800),
            ("1E22", 1e22), ("1e23", 1e23), ("123456789012345678901234567890", 1.2345678901234568e29),
            ("9007199254740993", 9007199254740992), ("1.7976931348623157e308", .greatestFiniteMagnitude),
            ("5e-324", .leastNonzeroMagnitude), ("2.2250738585072011e-308", 2.2250738585072011e-308),
            ("1e-400", 0), ("0.30000000000000004", 0.30000000000000004), ("-123.456e-7", -123.456e-7),
            ("100000000000000000000000e-20", 1000),
        ]
        for (text, expected) in cases {
            let value = try JSONValue.parse("[\(text)]")
            XCTAssertEqual(value[0]?.doubleValue, expected, text)
            XCTAssertEqual(value[0]?.doubleValue?.sign, expected.sign, text)
        }
    }

    func testStringEscapesDecodeToTheirCharacters() throws {
        let cases: [(String, String)] = [
            (#""\"\\\/\b\f\n\r\t""#, "\"\\/\u{08}\u{0C}\n\r\t"),
            (#""\u0061\u30af\u30EA\u30b9""#, "aクリス"),
            (#""\u0000""#, "\u{0}"),
            (#""a\u001fb""#, "a\u{1F}b"),
            (#""\uD834\uDD1E""#, "𝄞"),
            (#""\uDBFF\uDFFF""#, "\u{10FFFF}"),
            (#""\uFFFF""#, "\u{FFFF}"),
            (#""é 中 😀 \u00e9""#, "é 中 😀 é"),
            ("\"\u{7F}\"", "\u{7F}"),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(try JSONValue.parse(text), .string(expected), text)
        }
    }

    func testEscapedKeysAreTheSameKeysAsTheirLiteralSpelling() throws {
        XCTAssertEqual(try JSONValue.parse(#"{"\u0061":1,"\u00e9":2}"#), ["a": 1, "é": 2])
    }

    /// Google's front end (protobuf's parser in its legacy mode) lets a repeated field's last value win.
    func testADuplicateKeyKeepsItsLastValueWhereItFirstStood() throws {
        let value = try JSONValue.parse(#"{"a":1,"b":2,"a":3}"#)
        XCTAssertEqual(value, ["a": 3, "b": 2])
        XCTAssertEqual(value.objectValue?.keys, ["a", "b"])
        XCTAssertEqual(try JSONValue.parse(#"{"a":{"x":1},"a":"flat"}"#), ["a": "flat"], "not merged")
        XCTAssertEqual(try JSONValue.parse(#"{"a":[1],"a":[2]}"#), ["a": [2]], "not appended")
    }

    func testObjectsKeepTheirMembersInDocumentOrder() throws {
        let keys = (0..<20).map { "k\(($0 * 7) % 20)" }
        let text = "{" + keys.map { #""\#($0)":0"# }.joined(separator: ",") + "}"
        XCTAssertEqual(try JSONValue.parse(text).objectValue?.keys, keys)
        XCTAssertEqual(String(decoding: try JSONValue.parse(text).serialized(), as: UTF8.self), text)
    }

    /// Google's limit: protobuf's `ParseOptions::kDefaultDepth`, 100 nested arrays or objects.
    func testTheNestingLimitIsGooglesHundred() {
        XCTAssertEqual(JSONParser.maximumDepth, 100)
    }

    func testNestingUpToTheLimitIsAccepted() throws {
        let depth = JSONParser.maximumDepth
        var value = try JSONValue.parse(String(repeating: "[", count: depth) + String(repeating: "]", count: depth))
        for _ in 1..<depth {
            guard let inner = value[0] else { return XCTFail("nesting lost") }
            value = inner
        }
        XCTAssertEqual(value, [])
        let objects = String(repeating: #"{"a":"#, count: depth - 1) + "{}" + String(repeating: "}", count: depth - 1)
        XCTAssertNoThrow(try JSONValue.parse(objects))
    }

    func testATypicalSignInAnswerParses() throws {
        let value = try JSONValue.parse(Self.signInAnswer)
        XCTAssertEqual(value["expiresIn"], "3600")
        XCTAssertEqual(value["registered"], true)
        XCTAssertEqual(value["localId"], "BenchPasswordUid000000000001")
        XCTAssertEqual(value["idToken"]?.stringValue?.split(separator: ".", omittingEmptySubsequences: false).count, 3)
        XCTAssertGreaterThan(Self.signInAnswer.utf8.count, 900)
    }

    // MARK: - Rejected documents

    func testStructuralErrorsAreRejected() {
        let texts = [
            "[1,]", #"{"a":1,}"#, "[,1]", "[1,,2]", "{,}", "[", "]", "{", "}", #"{"a":"#, #"{"a""#, "[1]]", "[1] x",
            "[1]\u{0}", #"{"a" 1}"#, #"{"a":1 "b":2}"#, "{1:1}", "{null:1}", "{a:1}", "['a']", "[1]//", "/**/[1]",
            "[1 2]", ":", ",", "[1:2]", #"{"a":1}}"#, "[][]",
        ]
        assertRejected(texts)
    }

    func testMalformedLiteralsAreRejected() {
        assertRejected(["tru", "True", "nulll", "[nul]", "fals", "NULL", "[true false]", "undefined", "nan"])
    }

    func testMalformedNumbersAreRejected() {
        assertRejected([
            "01", "-01", "00", "1.", ".1", "-", "+1", "1e", "1e+", "1E-", "0x1F", "NaN", "Infinity", "-Infinity",
            "1.e3", "- 1", "1e1.5", "--1", "1,5", "[012]", "[-.5]", "0.e1", "２",
        ])
    }

    func testNumbersBeyondADoubleAreRejected() {
        assertRejected(["1e400", "-1e400", "[1" + String(repeating: "0", count: 400) + "]"])
    }

    func testMalformedStringsAreRejected() {
        assertRejected([
            #""abc"#, #""\x41""#, #""\u12""#, #""\u12"#, #""\uZZZZ""#, #""\'""#, #""\a""#, "\"\\", "'a'",
            "\"a\tb\"", "\"a\nb\"", "\"a\u{0}b\"", "\"\u{1F}\"", #""\U0041""#,
        ])
    }

    func testUnpairedSurrogateEscapesAreRejected() {
        assertRejected([#""\uD800""#, #""\uDC00""#, #""\uD800\u0041""#, #""\uD800x""#, #""\uDD1E\uD834""#,
                        #""\uD800\uD800""#, #""\uD800\""#])
    }

    func testWhitespaceOtherThanTheFourIsRejected() {
        assertRejected(["\u{0C}[1]", "\u{0B}[1]", "\u{A0}[1]", "[1,\u{2028}2]"])
    }

    func testInvalidUTF8IsRejectedInsideAndOutsideStrings() {
        let broken: [[UInt8]] = [
            [0x80], [0xC3, 0x28], [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xE2, 0x82],
            [0xF5, 0x80, 0x80, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xFF], [0xFE],
        ]
        let quote = UInt8(ascii: "\"")
        for bytes in broken {
            XCTAssertThrowsError(try JSONValue.parse([quote] + bytes + [quote]), "accepted \(bytes)")
            XCTAssertThrowsError(try JSONValue.parse(Array(#""\n"#.utf8) + bytes + [quote]), "escaped: \(bytes)")
            XCTAssertThrowsError(try JSONValue.parse(Array(#"{""#.utf8) + bytes + Array(#"":1}"#.utf8)), "key: \(bytes)")
            XCTAssertThrowsError(try JSONValue.parse(bytes), "bare: \(bytes)")
        }
        // A lead byte cut short by an escape stays invalid.
        XCTAssertThrowsError(try JSONValue.parse(Array(#"""#.utf8) + [0xC3] + Array(#"\u00a9""#.utf8)))
    }

    func testNestingBeyondTheLimitFailsCleanly() {
        let depth = JSONParser.maximumDepth + 1
        let texts = [
            String(repeating: "[", count: depth) + String(repeating: "]", count: depth),
            String(repeating: #"{"a":"#, count: depth - 1) + "{}" + String(repeating: "}", count: depth - 1),
            String(repeating: "[", count: 1_000_000),
        ]
        assertRejected(texts)
        for text in texts {
            XCTAssertThrowsError(try JSONValue.parse(text)) { error in
                XCTAssertEqual((error as? JSONParseError)?.kind, .tooDeep)
            }
        }
    }

    func testErrorsSayWhereTheInputWentWrong() {
        XCTAssertThrowsError(try JSONValue.parse("[1,]")) { error in
            XCTAssertEqual((error as? JSONParseError)?.description, "invalid JSON: trailing comma in an array at byte 3")
        }
        XCTAssertThrowsError(try JSONValue.parse(#"{"a":01}"#)) { error in
            XCTAssertEqual((error as? JSONParseError)?.description, "invalid JSON: number with a leading zero at byte 6")
        }
    }

    func testErrorsSayWhatKindOfProblemTheyAre() {
        let cases: [([UInt8], JSONParseError.Kind, Int)] = [
            (Array(#"{"a":"x"#.utf8) + [0xFF] + Array(#""}"#.utf8), .invalidUTF8, 9),
            (Array(#"["\n"#.utf8) + [0xC3] + Array(#""]"#.utf8), .invalidUTF8, 6),
            (Array("[1e400]".utf8), .numberOutOfRange, 6),
            (Array("[1,]".utf8), .syntax, 3),
            ([0xFF], .syntax, 0),
            ([], .syntax, 0),
        ]
        for (bytes, kind, offset) in cases {
            XCTAssertThrowsError(try JSONValue.parse(bytes), "\(bytes)") { error in
                XCTAssertEqual((error as? JSONParseError)?.kind, kind, "\(bytes)")
                XCTAssertEqual((error as? JSONParseError)?.offset, offset, "\(bytes)")
            }
        }
    }

    // MARK: - Randomized comparison with Foundation

    func testRandomValidDocumentsParseLikeJSONSerialization() throws {
        var generator = DocumentGenerator(seed: 0x4845_4152_5448, longNumbers: false)
        for round in 0..<400 {
            let (text, expected) = generator.document(depth: 0)
            let bytes = Array(text.utf8)
            let ours = try JSONValue.parse(bytes)
            XCTAssertEqual(ours, expected, "round \(round): \(text)")
            let foundation = try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
            XCTAssertTrue(Self.foundationValue(foundation, matches: ours), "round \(round): \(text)")
        }
    }

    func testSerializationByJSONSerializationParsesBackToTheSameValue() throws {
        var generator = DocumentGenerator(seed: 7, longNumbers: false)
        for round in 0..<200 {
            let (text, _) = generator.document(depth: 0)
            let object = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
            let reserialized = try JSONSerialization.data(withJSONObject: object, options: [.fragmentsAllowed])
            let again = try JSONValue.parse([UInt8](reserialized))
            XCTAssertEqual(again, try JSONValue.parse(text), "round \(round): \(text)")
        }
    }

    func testRandomValidDocumentsWithLongNumbersParseToTheCorrectlyRoundedValues() throws {
        var generator = DocumentGenerator(seed: 0x4A53_4F4E, longNumbers: true)
        for round in 0..<400 {
            let (text, expected) = generator.document(depth: 0)
            XCTAssertEqual(try JSONValue.parse(text), expected, "round \(round): \(text)")
        }
    }

    // MARK: - Helpers

    private func assertRejected(_ texts: [String], file: StaticString = #filePath, line: UInt = #line) {
        for text in texts {
            XCTAssertThrowsError(try JSONValue.parse(text), "accepted \(text.debugDescription)", file: file, line: line) {
                error in XCTAssertTrue(error is JSONParseError, file: file, line: line)
            }
        }
    }

    /// Whether what JSONSerialization read equals `value`, guided by `value`'s kinds (Foundation reports
    /// numbers and booleans both as NSNumber on some platforms).
    private static func foundationValue(_ any: Any, matches value: JSONValue) -> Bool {
        switch value {
        case .null: return any is NSNull
        case .bool(let bool): return (any as? Bool) == bool
        case .number(let number):
            // Foundation reads some numbers as NSDecimalNumber, whose doubleValue can be an ulp off; its
            // exact decimal text, correctly rounded, is the value the document stands for.
            if let decimal = any as? NSDecimalNumber { return Double(decimal.stringValue) == number }
            return (any as? NSNumber)?.doubleValue == number
        case .string(let string): return (any as? String) == string
        case .array(let elements):
            guard let others = any as? [Any], others.count == elements.count else { return false }
            return zip(others, elements).allSatisfy { foundationValue($0, matches: $1) }
        case .object(let object):
            guard let others = any as? [String: Any], others.count == object.count else { return false }
            return object.allSatisfy { key, element in others[key].map { foundationValue($0, matches: element) } ?? false }
        }
    }

    /// An answer shaped like bench/canned.py's signInWithPassword response (about 1 KiB).
    static let signInAnswer: String = {
        let header = "eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0"
        let claims = #"{"email":"bench@example.com","email_verified":false,"auth_time":1795312159,"#
            + #""user_id":"BenchPasswordUid000000000001","firebase":{"identities":{"email":["bench@example.com"]},"#
            + #""sign_in_provider":"password"},"iat":1795312159,"exp":4102444800,"aud":"demo-hearth","#
            + #""iss":"https://securetoken.google.com/demo-hearth","sub":"BenchPasswordUid000000000001"}"#
        let payload = Data(claims.utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        let idToken = header + "." + payload + "."
        let refresh = Data(#"{"_AuthEmulatorRefreshToken":"DO NOT MODIFY","localId":"BenchPasswordUid000000000001","provider":"password","extraClaims":{},"projectId":"demo-hearth"}"#.utf8).base64EncodedString()
        return #"{"displayName":"","email":"bench@example.com","expiresIn":"3600","idToken":""# + idToken
            + #"","kind":"identitytoolkit#VerifyPasswordResponse","localId":"BenchPasswordUid000000000001","#
            + #""refreshToken":""# + refresh + #"","registered":true}"#
    }()
}

/// Random valid JSON texts with the values they stand for: varied whitespace, every escape form,
/// non-ASCII text and numbers in every notation. Seeded, so a failure reproduces.
struct DocumentGenerator {
    private var state: UInt64
    private let longNumbers: Bool

    init(seed: UInt64, longNumbers: Bool) {
        state = seed
        self.longNumbers = longNumbers
    }

    /// SplitMix64.
    private mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    private mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    private mutating func whitespace() -> String {
        let pieces = [" ", "\t", "\n", "\r"]
        return (0..<below(3)).map { _ in pieces[below(pieces.count)] }.joined()
    }

    mutating func document(depth: Int) -> (String, JSONValue) {
        let (text, value) = self.value(depth: depth)
        return (whitespace() + text + whitespace(), value)
    }

    private mutating func value(depth: Int) -> (String, JSONValue) {
        switch below(depth >= 4 ? 5 : 7) {
        case 0: return ("null", .null)
        case 1:
            let bool = below(2) == 0
            return (bool ? "true" : "false", .bool(bool))
        case 2, 3:
            let number = self.number()
            return (number.0, .number(number.1))
        case 4:
            let string = self.string()
            return (string.0, .string(string.1))
        case 5:
            var texts: [String] = []
            var values: [JSONValue] = []
            for _ in 0..<below(5) {
                let (text, value) = document(depth: depth + 1)
                texts.append(text)
                values.append(value)
            }
            return ("[" + whitespace() + texts.joined(separator: ",") + "]", .array(values))
        default:
            var members: [String] = []
            var object = JSONObject()
            for _ in 0..<below(5) {
                let (keyText, key) = string()
                guard object[key] == nil else { continue }
                let (text, value) = document(depth: depth + 1)
                members.append(whitespace() + keyText + whitespace() + ":" + text)
                object[key] = value
            }
            return ("{" + whitespace() + members.joined(separator: ",") + "}", .object(object))
        }
    }

    private mutating func digits(_ count: Int, leadingNonZero: Bool) -> String {
        (0..<count).map { index in
            String(leadingNonZero && index == 0 ? 1 + below(9) : below(10))
        }.joined()
    }

    /// With `longNumbers` false, at most 17 significant digits: JSONSerialization reads longer mantissas
    /// through Decimal, whose doubleValue is not correctly rounded, so only our reading is checked then.
    private mutating func number() -> (String, Double) {
        var text = below(3) == 0 ? "-" : ""
        text += below(5) == 0 ? "0" : digits(1 + below(longNumbers ? 24 : 9), leadingNonZero: true)
        if below(2) == 0 { text += "." + digits(1 + below(longNumbers ? 24 : 8), leadingNonZero: false) }
        if below(3) == 0 {
            text += below(2) == 0 ? "e" : "E"
            text += ["", "+", "-"][below(3)]
            text += String(below(280))
        }
        guard let value = Double(text) else { preconditionFailure("generated \(text)") }
        return (text, value)
    }

    private mutating func string() -> (String, String) {
        let alphabet: [Character] = [
            "a", "Z", "0", " ", "\"", "\\", "/", "\n", "\t", "\u{0}", "\u{1F}", "\u{7F}", "é", "ß", "中", "😀", "𝄞",
            "\u{FFFF}", "\u{10FFFF}", "\u{2028}", "{", "]", ",", ":",
        ]
        var text = "\""
        var value = ""
        for _ in 0..<below(12) {
            let character = alphabet[below(alphabet.count)]
            value.append(character)
            text += spell(character)
        }
        return (text + "\"", value)
    }

    /// One character as JSON may spell it: literally when allowed, else (or at random) escaped.
    private mutating func spell(_ character: Character) -> String {
        let scalar = character.unicodeScalars.first?.value ?? 0
        let short: [Character: String] = ["\"": #"\""#, "\\": #"\\"#, "\n": #"\n"#, "\t": #"\t"#, "/": #"\/"#]
        if let escape = short[character], character != "/" || below(2) == 0 { return escape }
        if scalar >= 0x20, below(3) != 0 { return String(character) }
        if scalar < 0x10000 { return hexEscape(scalar) }
        let offset = scalar - 0x10000
        return hexEscape(0xD800 + (offset >> 10)) + hexEscape(0xDC00 + (offset & 0x3FF))
    }

    private mutating func hexEscape(_ unit: UInt32) -> String {
        let digits = String(unit, radix: 16, uppercase: below(2) == 0)
        return #"\u"# + String(repeating: "0", count: 4 - digits.count) + digits
    }
}
