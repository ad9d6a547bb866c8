import XCTest
@testable import HearthWire

/// `JSONObjectWriter` writes what the tree writer writes for the same members, in the same escape table.
final class JSONWriterTests: XCTestCase {
    func testAnObjectWrittenMemberByMemberIsTheSerializedTree() {
        let texts = ["", "plain", "quote \" backslash \\ slash /", "line\nfeed\ttab\r\u{8}\u{C}", "\u{0}\u{1F}\u{7F}",
                     "é ü 日本 🔥", String(repeating: "x", count: 37) + "\"" + String(repeating: "y", count: 9)]
        for first in texts {
            for second in texts {
                let bytes = JSONObjectWriter.document(capacity: 8) { writer, out in
                    writer.string("a", first, into: &out)
                    writer.bool("b", true, into: &out)
                    writer.string("c", nil, into: &out)
                    writer.string("d", second, into: &out)
                    writer.bool("e", false, into: &out)
                    writer.integer("f", -42, into: &out)
                    writer.integer("g", nil, into: &out)
                    writer.bool("i", nil, into: &out)
                }
                let tree: JSONValue = ["a": .string(first), "b": true, "d": .string(second), "e": false, "f": -42]
                XCTAssertEqual(bytes, tree.serialized(), "\(first.debugDescription) \(second.debugDescription)")
            }
        }
        XCTAssertEqual(JSONObjectWriter.document(capacity: 0) { _, _ in }, Array("{}".utf8))
    }

    func testObjectsNestInsideTheBufferTheyAreWrittenTo() {
        var out = Array("[".utf8)
        JSONObjectWriter.write(into: &out) { writer, out in
            writer.key("inner", into: &out)
            JSONObjectWriter.write(into: &out) { inner, out in inner.string("k", "v", into: &out) }
        }
        out.append(UInt8(ascii: "]"))
        XCTAssertEqual(String(decoding: out, as: UTF8.self), #"[{"inner":{"k":"v"}}]"#)
    }
}
