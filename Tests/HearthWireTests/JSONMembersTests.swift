import XCTest
@testable import HearthWire

/// Reading objects member by member (`JSONMembers`) straight from the bytes: the same values as the
/// parsed tree, the same strictness as `JSONValue.parse` on every byte (read or skipped), and the same
/// result for a record whether it is read from bytes or from a tree.
final class JSONMembersTests: XCTestCase {
    // MARK: - Same values as the tree

    func testEveryMemberReadsAsTheParserParsesIt() throws {
        var generator = DocumentGenerator(seed: 0x4D45_4D42, longNumbers: false)
        var objects = 0
        for round in 0..<600 {
            let (text, expected) = generator.document(depth: 0)
            guard case .object(let object) = expected else { continue }
            objects += 1
            XCTAssertEqual(try JSONObjectMembers(bytes: Array(text.utf8)).object, object, "round \(round): \(text)")
            XCTAssertNoThrow(try SkippedMembers(bytes: Array(text.utf8)), "round \(round): \(text)")
        }
        XCTAssertGreaterThan(objects, 50, "the generator should produce objects at top level")
    }

    func testArraysOfObjectsAreReadElementByElementAndOtherElementsSkipped() throws {
        let text = #"{"list":[{"a":1},"x",[{"a":9}],{"a":"two","b":{"c":[]}},null,{}],"other":{"a":3}}"#
        let members = try Lists(bytes: Array(text.utf8))
        XCTAssertEqual(members.list.map(\.object), [["a": 1], ["a": "two", "b": ["c": []]], [:]])
        XCTAssertEqual(members.other?.object, ["a": 3])
        let notAList = try Lists(bytes: Array(#"{"list":{"a":1},"other":[1]}"#.utf8))
        XCTAssertEqual(notAList.list.count, 0, "a member that is not an array reads as no elements")
        XCTAssertNil(notAList.other, "a member that is not an object reads as absent")
    }

    func testAKeySpelledWithEscapesIsTheSameKey() throws {
        let members = try Lists(bytes: Array(#"{"\u006cist":[{"a":1}],"oth\u0065r":{"a":2}}"#.utf8))
        XCTAssertEqual(members.list.map(\.object), [["a": 1]])
        XCTAssertEqual(members.other?.object, ["a": 2])
    }

    func testARepeatedKeyKeepsItsLastValueAsInTheTree() throws {
        let text = #"{"other":{"a":1},"list":[{"a":1}],"other":"not an object","list":[{"b":2}]}"#
        let members = try Lists(bytes: Array(text.utf8))
        XCTAssertNil(members.other)
        XCTAssertEqual(members.list.map(\.object), [["b": 2]])
        guard case .object(let tree)? = try? JSONValue.parse(text) else { return XCTFail("not an object") }
        let fromTree = Lists(tree)
        XCTAssertNil(fromTree.other)
        XCTAssertEqual(fromTree.list.map(\.object), [["b": 2]])
    }

    // MARK: - Names

    func testAMemberIsFoundByItsWholeNameOnly() throws {
        // A name of the same length differing in one byte, a prefix, a longer name and the empty name.
        let text = #"{"abd":1,"ab":2,"abc":3,"abcd":4,"":5,"abC":6}"#
        let fromBytes = try Names(bytes: Array(text.utf8))
        XCTAssertEqual(fromBytes.abc, 3)
        XCTAssertEqual(fromBytes.empty, 5)
        XCTAssertEqual(fromBytes.skipped, 4)
        guard case .object(let tree)? = try? JSONValue.parse(text) else { return XCTFail("not an object") }
        let fromTree = Names(tree)
        XCTAssertEqual(fromTree.abc, 3)
        XCTAssertEqual(fromTree.empty, 5)
        XCTAssertEqual(fromTree.skipped, 4)
    }

    // MARK: - Same strictness, read or skipped

    func testWhatTheParserRejectsIsRejectedWhereverItStands() {
        let invalidValues = [
            "[1,]", "[,1]", "{,}", "[", "{", #"{"a":1,}"#, #"{"a" 1}"#, "{a:1}", "['a']", "[1 2]", "[1:2]",
            "tru", "nulll", "01", "-", "1.", ".1", "1e", "0x1F", "NaN", "1e400",
            #""\x41""#, #""\u12""#, #""\uD800""#, #""\uDC00x""#, "\"a\tb\"", "\"a\u{0}b\"", #""abc"#,
        ]
        for value in invalidValues {
            for text in [#"{"k":\#(value)}"#, #"{"k":[\#(value)]}"#, #"{"k":{"n":\#(value)}}"#, #"{"list":[\#(value)]}"#,
                         #"{"list":[{"a":\#(value)}]}"#] {
                XCTAssertThrowsError(try JSONValue.parse(text), text)
                XCTAssertThrowsError(try SkippedMembers(bytes: Array(text.utf8)), "skipped: \(text)")
                XCTAssertThrowsError(try JSONObjectMembers(bytes: Array(text.utf8)), "read: \(text)")
                XCTAssertThrowsError(try Lists(bytes: Array(text.utf8)), "lists: \(text)")
            }
        }
    }

    func testInvalidUTF8IsRejectedInKeysAndInSkippedValues() {
        let quote = UInt8(ascii: "\"")
        for broken: [UInt8] in [[0x80], [0xC3, 0x28], [0xED, 0xA0, 0x80], [0xFF]] {
            let inKey = Array(#"{""#.utf8) + broken + Array(#"":1}"#.utf8)
            let inSkippedValue = Array(#"{"k":"#.utf8) + [quote] + broken + [quote] + Array("}".utf8)
            let afterAnEscape = Array(#"{"k":"\n"#.utf8) + broken + [quote] + Array("}".utf8)
            for bytes in [inKey, inSkippedValue, afterAnEscape] {
                XCTAssertThrowsError(try SkippedMembers(bytes: bytes), "\(bytes)")
                XCTAssertThrowsError(try JSONValue.parse(bytes), "\(bytes)")
            }
        }
    }

    func testOnlyOneObjectMayBeTheDocument() {
        for text in ["", " ", "[]", "1", #""x""#, "{} {}", "{}x", "{}}", #"{"a":1}]"#] {
            XCTAssertThrowsError(try SkippedMembers(bytes: Array(text.utf8)), text.debugDescription)
        }
        XCTAssertNoThrow(try SkippedMembers(bytes: Array(" {} \n".utf8)), "whitespace around it")
        XCTAssertThrowsError(try SkippedMembers(bytes: [0xEF, 0xBB, 0xBF] + Array("{}".utf8)), "a byte order mark")
    }

    func testNestingBeyondTheLimitFailsCleanlyWhenSkippedOrRead() {
        let depth = JSONParser.maximumDepth
        let arrays = #"{"k":"# + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}"
        XCTAssertThrowsError(try SkippedMembers(bytes: Array(arrays.utf8)))
        XCTAssertThrowsError(try JSONValue.parse(arrays))
        let deepList = #"{"list":["# + String(repeating: "[", count: 1_000_000) + "}"
        XCTAssertThrowsError(try Lists(bytes: Array(deepList.utf8)))
        let fits = #"{"k":"# + String(repeating: "[", count: depth - 1) + String(repeating: "]", count: depth - 1) + "}"
        XCTAssertNoThrow(try SkippedMembers(bytes: Array(fits.utf8)))
        XCTAssertNoThrow(try JSONValue.parse(fits))
    }

    // MARK: - Named members (token claims)

    func testOnlyTheNamedMembersAreKeptInDocumentOrder() throws {
        let text = #"{"iss":"x","sub":"uid","aud":"p","iat":1,"exp":2,"firebase":{"sign_in_provider":"password"},"sub":"last"}"#
        let kept = try JSONObject.parse(Array(text.utf8), keeping: ["exp", "sub", "firebase"])
        XCTAssertEqual(kept?.keys, ["sub", "exp", "firebase"])
        XCTAssertEqual(kept, ["sub": "last", "exp": 2, "firebase": ["sign_in_provider": "password"]])
        XCTAssertEqual(try JSONObject.parse(Array(text.utf8), keeping: []), [:])
    }

    func testKeepingNamedMembersIsAsStrictAsTheParser() {
        let invalidValues = ["[1,]", "tru", "01", #""\uD800""#, "1e400", "\"a\tb\""]
        for value in invalidValues {
            for text in [#"{"k":\#(value)}"#, #"{"kept":\#(value)}"#, #"{"k":[{"n":\#(value)}]}"#] {
                XCTAssertThrowsError(try JSONObject.parse(Array(text.utf8), keeping: ["kept"]), text)
            }
        }
        for text in ["", "{", "{} {}", "{}x"] {
            XCTAssertThrowsError(try JSONObject.parse(Array(text.utf8), keeping: ["k"]), text.debugDescription)
        }
        XCTAssertThrowsError(try JSONObject.parse([0xEF, 0xBB, 0xBF] + Array("{}".utf8), keeping: ["k"]))
        let deep = #"{"k":"# + String(repeating: "[", count: JSONParser.maximumDepth) + String(repeating: "]", count: JSONParser.maximumDepth) + "}"
        XCTAssertThrowsError(try JSONObject.parse(Array(deep.utf8), keeping: ["kept"]), "nesting counts in skipped members")
    }

    func testAValidDocumentThatIsNotAnObjectKeepsNothing() throws {
        for text in ["[]", "1", #""x""#, "null", " [{\"k\":1}] "] {
            XCTAssertNil(try JSONObject.parse(Array(text.utf8), keeping: ["k"]), text)
        }
    }
}

// MARK: - Readers used above

/// An array of objects and a nested object, read as `JSONObjectMembers`; the rest skipped.
private struct Lists: JSONMembers {
    var list: [JSONObjectMembers] = []
    var other: JSONObjectMembers?

    mutating func read<Source: JSONMemberSource>(_ key: JSONKey, _ source: inout Source) throws(JSONParseError) {
        switch key {
        case "list": list = try source.objects(JSONObjectMembers.self)
        case "other": other = try source.object(JSONObjectMembers.self)
        default: try source.skip()
        }
    }
}

/// Two names, one of them empty; counts the members it skips.
private struct Names: JSONMembers {
    var abc: JSONValue?
    var empty: JSONValue?
    var skipped = 0

    mutating func read<Source: JSONMemberSource>(_ key: JSONKey, _ source: inout Source) throws(JSONParseError) {
        switch key {
        case "abc": abc = try source.value()
        case "": empty = try source.value()
        default:
            skipped += 1
            try source.skip()
        }
    }
}
