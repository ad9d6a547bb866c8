@testable import HearthBackend
import XCTest

/// The version comes from hearth.h's HEARTH_VERSION_* numbers; these are the shapes built from them.
final class VersionTests: XCTestCase {
    func testTheVersionStringSpellsOutTheNumbers() {
        XCTAssertEqual(HearthCoreVersion.string,
                       "\(HearthCoreVersion.major).\(HearthCoreVersion.minor).\(HearthCoreVersion.patch)")
    }

    func testTheVersionNumberIsMajorTimes10000PlusMinorTimes100PlusPatch() {
        XCTAssertEqual(HearthCoreVersion.number,
                       HearthCoreVersion.major * 10000 + HearthCoreVersion.minor * 100 + HearthCoreVersion.patch)
        XCTAssertLessThan(HearthCoreVersion.minor, 100)
        XCTAssertLessThan(HearthCoreVersion.patch, 100)
    }

    func testRequestsNameHearthAndItsVersion() {
        XCTAssertEqual(BackendConfig.defaultClientVersion, "Hearth/\(HearthCoreVersion.string)")
    }
}
