import XCTest
@testable import HearthCore
final class VersionTests: XCTestCase { func testVersion() { XCTAssertEqual(HearthCoreVersion.string, "0.1.0") } }
