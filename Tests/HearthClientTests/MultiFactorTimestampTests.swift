@testable import HearthAuth
import XCTest

/// RFC 3339 times of the MFA APIs (`enrolledAt`, `finalizeEnrollmentTime`) as epoch milliseconds.
final class MultiFactorTimestampTests: XCTestCase {
    func testUTCTimesWithAndWithoutFractions() {
        XCTAssertEqual(RFC3339Timestamp.milliseconds("2024-05-01T12:34:56.789Z"), 1_714_566_896_789)
        XCTAssertEqual(RFC3339Timestamp.milliseconds("2024-05-01T12:34:56Z"), 1_714_566_896_000)
        XCTAssertEqual(RFC3339Timestamp.milliseconds("2024-05-01T12:34:56.7Z"), 1_714_566_896_700)
        XCTAssertEqual(RFC3339Timestamp.milliseconds("1970-01-01T00:00:00Z"), 0)
        XCTAssertEqual(RFC3339Timestamp.milliseconds("1969-12-31T23:59:59Z"), -1000)
    }

    func testNanosecondFractionsAreTruncatedToMilliseconds() {
        XCTAssertEqual(RFC3339Timestamp.milliseconds("2023-11-14T22:13:20.123999999Z"), 1_700_000_000_123)
    }

    func testOffsetsAreAppliedWithOrWithoutAColon() {
        XCTAssertEqual(RFC3339Timestamp.milliseconds("2024-05-01T14:34:56.789+02:00"), 1_714_566_896_789)
        XCTAssertEqual(RFC3339Timestamp.milliseconds("2024-05-01T14:34:56.789+0200"), 1_714_566_896_789)
        XCTAssertEqual(RFC3339Timestamp.milliseconds("2025-01-01T00:00:00-05:30"), 1_735_709_400_000)
        XCTAssertEqual(RFC3339Timestamp.milliseconds("2024-05-01t12:34:56z"), 1_714_566_896_000)
        XCTAssertEqual(RFC3339Timestamp.milliseconds("2024-05-01 12:34:56Z"), 1_714_566_896_000)
    }

    func testLeapDaysAreCounted() {
        XCTAssertEqual(RFC3339Timestamp.milliseconds("2000-02-29T00:00:00Z"), 951_782_400_000)
        XCTAssertNil(RFC3339Timestamp.milliseconds("1900-02-29T00:00:00Z"), "1900 is not a leap year")
        XCTAssertNil(RFC3339Timestamp.milliseconds("2023-02-29T00:00:00Z"))
    }

    func testAnythingElseIsNil() {
        for text in ["", "2024-05-01", "2024-05-01T12:34:56", "2024-13-01T00:00:00Z", "2024-04-31T00:00:00Z",
                     "2024-05-01T24:00:00Z", "2024-05-01T12:34:56.Z", "2024-05-01T12:34:56Zjunk",
                     "2024-5-01T12:34:56Z", "2024-05-01T12:34:56+2:00", "1714566896789"] {
            XCTAssertNil(RFC3339Timestamp.milliseconds(text), text)
        }
    }
}
