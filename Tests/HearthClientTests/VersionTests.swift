@testable import HearthBackend
import XCTest

/// The version comes from hearth.h's HEARTH_VERSION_* numbers; these are the shapes built from them.
final class VersionTests: XCTestCase {
    func testTheVersionStringSpellsOutTheNumbers() {
        XCTAssertEqual(HearthVersion.string,
                       "\(HearthVersion.major).\(HearthVersion.minor).\(HearthVersion.patch)")
    }

    func testTheVersionNumberIsMajorTimes10000PlusMinorTimes100PlusPatch() {
        XCTAssertEqual(HearthVersion.number,
                       HearthVersion.major * 10000 + HearthVersion.minor * 100 + HearthVersion.patch)
        XCTAssertLessThan(HearthVersion.minor, 100)
        XCTAssertLessThan(HearthVersion.patch, 100)
    }

    func testRequestsNameHearthAndItsVersion() {
        XCTAssertEqual(BackendConfig.defaultClientVersion, "Hearth/\(HearthVersion.string)")
    }
}
