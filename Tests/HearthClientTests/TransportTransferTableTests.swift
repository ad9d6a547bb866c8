@testable import HearthTransport
import XCTest

/// The transport's in-flight table: ids find their request while it lasts and nothing after.
final class TransportTransferTableTests: XCTestCase {
    private func transfer(_ easy: CurlEasy, id: RequestID) throws -> CurlTransfer {
        try CurlTransfer(id: id, easy: easy, request: HTTPRequest(url: "http://127.0.0.1:9/"), options: .init(),
                         checkedURLs: CheckedURLCache(), headerLists: CurlHeaderListCache()) { _ in }
    }

    func testAnIdFindsItsTransferUntilReleased() throws {
        var table = TransferTable()
        let id = table.reserve()
        XCTAssertNotEqual(id.rawValue, 0, "no id is 0: it travels as a non-null pointer")
        XCTAssertNil(table[id], "reserved, not filled")
        let easy = try XCTUnwrap(CurlEasy())
        let made = try transfer(easy, id: id)
        table.fill(id, with: made)
        XCTAssertTrue(table[id] === made)
        XCTAssertEqual(table.count, 1)
        XCTAssertTrue(table.release(id) === made)
        XCTAssertNil(table[id])
        XCTAssertNil(table.release(id), "released once")
        XCTAssertTrue(table.isEmpty)
    }

    func testAnIdThatIsOverNeverFindsTheRequestReusingItsSlot() throws {
        var table = TransferTable()
        let old = table.reserve()
        table.release(old)
        let new = table.reserve()
        XCTAssertEqual(new.rawValue & 0xffff_ffff, old.rawValue & 0xffff_ffff, "the slot is reused")
        XCTAssertNotEqual(new, old)
        let easy = try XCTUnwrap(CurlEasy())
        table.fill(new, with: try transfer(easy, id: new))
        XCTAssertNil(table[old])
        XCTAssertNil(table.release(old))
        XCTAssertNotNil(table[new])
    }

    func testUnknownIdsFindNothing() {
        var table = TransferTable()
        _ = table.reserve()
        for raw: UInt64 in [0, 1, 999_999, 1 << 32 | 5, .max] {
            XCTAssertNil(table[RequestID(raw)])
            XCTAssertNil(table.release(RequestID(raw)))
        }
        XCTAssertEqual(table.count, 1)
    }

    func testRemovingAllEndsEveryId() throws {
        var table = TransferTable()
        let easies = try (0..<3).map { _ in try XCTUnwrap(CurlEasy()) }
        var ids: [RequestID] = []
        for easy in easies {
            let id = table.reserve()
            table.fill(id, with: try transfer(easy, id: id))
            ids.append(id)
        }
        let unfilled = table.reserve()
        XCTAssertEqual(table.removeAll().count, 3)
        XCTAssertTrue(table.isEmpty)
        for id in ids + [unfilled] { XCTAssertNil(table[id]) }
        let next = table.reserve()
        XCTAssertFalse((ids + [unfilled]).contains(next))
    }
}
