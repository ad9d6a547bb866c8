@testable import HearthAuth
import XCTest

final class SupportAddressTableTests: XCTestCase {
    func testStoredAddressesAreFoundWithTheirTagsAndOthersAreNot() {
        var table = AddressTable()
        table.insert(0x1000, tag: 7)
        table.insert(0x1010, tag: 8)
        XCTAssertEqual(table.tag(of: 0x1000), 7)
        XCTAssertEqual(table.tag(of: 0x1010), 8)
        XCTAssertNil(table.tag(of: 0x1020))
        XCTAssertNil(table.tag(of: 0))
        XCTAssertEqual(table.count, 2)
    }

    func testInsertingAgainReplacesTheTag() {
        var table = AddressTable()
        table.insert(0x2000, tag: 1)
        table.insert(0x2000, tag: 2)
        XCTAssertEqual(table.tag(of: 0x2000), 2)
        XCTAssertEqual(table.count, 1)
    }

    func testRemovingGivesTheTagOnceAndForgetsTheAddress() {
        var table = AddressTable()
        table.insert(0x3000, tag: 9)
        XCTAssertEqual(table.remove(0x3000), 9)
        XCTAssertNil(table.remove(0x3000))
        XCTAssertNil(table.tag(of: 0x3000))
        XCTAssertNil(table.remove(0))
        XCTAssertEqual(table.count, 0)
    }

    /// Random inserts, removals and lookups against a dictionary: aligned addresses as allocators hand
    /// them out, in dense runs (long probe runs, shifted back by removals) and scattered, through
    /// several growths.
    func testRandomOperationsAgreeWithADictionary() {
        var generator = SplitMix64(seed: 0x5EED)
        for round in 0..<6 {
            var table = AddressTable(minimumCapacity: 1)
            var model: [UInt: UInt] = [:]
            let base: UInt = 0x7F00_0000_0000 + UInt(round) * 0x10_0000
            func address() -> UInt {
                generator.next() % 4 == 0 ? base + 16 * UInt(generator.next() % 200)
                                          : base + 16 * UInt(generator.next() % 20_000)
            }
            for step in 0..<20_000 {
                let key = address()
                switch generator.next() % 3 {
                case 0:
                    let tag = UInt(generator.next() % 5)
                    table.insert(key, tag: tag)
                    model[key] = tag
                case 1:
                    XCTAssertEqual(table.remove(key), model.removeValue(forKey: key), "round \(round) step \(step)")
                default:
                    XCTAssertEqual(table.tag(of: key), model[key], "round \(round) step \(step)")
                }
                XCTAssertEqual(table.count, model.count)
            }
            for (key, tag) in model { XCTAssertEqual(table.tag(of: key), tag) }
            for key in Array(model.keys) { XCTAssertEqual(table.remove(key), model[key]) }
            XCTAssertEqual(table.count, 0)
        }
    }
}
