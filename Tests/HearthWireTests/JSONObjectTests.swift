import XCTest
@testable import HearthWire

/// Objects keep the order members were first set in, small and large alike, and compare by content.
final class JSONObjectTests: XCTestCase {
    func testMembersStayInTheOrderTheyWereFirstSet() {
        var object: JSONObject = ["z": 1, "a": 2]
        object["m"] = 3
        object["z"] = 4
        XCTAssertEqual(object.keys, ["z", "a", "m"])
        XCTAssertEqual(object.values, [4, 2, 3])
        XCTAssertEqual(object.map(\.key), ["z", "a", "m"])
        XCTAssertEqual(JSONValue.object(object).jsonText, #"{"z":4,"a":2,"m":3}"#)
    }

    func testARepeatedKeyInALiteralOrPairsKeepsItsFirstPlaceAndLastValue() {
        let object = JSONObject([("a", 1), ("b", 2), ("a", 3)])
        XCTAssertEqual(object.keys, ["a", "b"])
        XCTAssertEqual(object["a"], 3)
        XCTAssertEqual(object.count, 2)
    }

    /// Past eight keys lookups go through an index: it must follow every insertion, replacement and removal.
    func testLargeObjectsFindEveryKeyThroughInsertionsReplacementsAndRemovals() {
        var object = JSONObject()
        var expected: [(String, JSONValue)] = []
        for step in 0..<60 {
            let key = "k\((step * 7) % 23)"
            if step % 5 == 4, let victim = expected.first {
                XCTAssertEqual(object.removeValue(forKey: victim.0), victim.1)
                expected.removeFirst()
            } else if let position = expected.firstIndex(where: { $0.0 == key }) {
                object[key] = .number(Double(step))
                expected[position].1 = .number(Double(step))
            } else {
                object[key] = .number(Double(step))
                expected.append((key, .number(Double(step))))
            }
            XCTAssertEqual(object.keys, expected.map(\.0), "step \(step)")
            for (key, value) in expected { XCTAssertEqual(object[key], value, "step \(step): \(key)") }
            XCTAssertFalse(object.contains("absent"))
        }
    }

    func testSettingNilRemovesAMember() {
        var object: JSONObject = ["a": 1, "b": .null]
        object["a"] = nil
        XCTAssertEqual(object.keys, ["b"])
        XCTAssertEqual(object["b"], .null, "a JSON null is a value, not an absence")
        XCTAssertNil(object.removeValue(forKey: "a"))
        XCTAssertTrue(object.contains("b"))
    }

    func testEqualityIgnoresOrderButNotContent() {
        let ab: JSONObject = ["a": 1, "b": [2]]
        XCTAssertEqual(ab, ["b": [2], "a": 1])
        XCTAssertNotEqual(ab, ["a": 1, "b": [3]])
        XCTAssertNotEqual(ab, ["a": 1, "b": [2], "c": 2])
        XCTAssertNotEqual(ab, ["a": 1, "c": [2]])
    }
}
