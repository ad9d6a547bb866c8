@testable import HearthAuth
@testable import HearthBackend
import HearthWire
import XCTest

/// Hints from `mfaInfo[]` entries: factor kind, enrollment id, name, masked number, enrollment time.
final class MultiFactorHintTests: XCTestCase {
    private func hints(_ entries: JSONValue) -> [MultiFactorHint] {
        MultiFactorHint.list(MultiFactorInfoRecord.list(entries.arrayValue ?? []))
    }

    func testAPhoneEntryIsAPhoneHintWithItsMaskedNumber() {
        let list = hints([["mfaEnrollmentId": "ENROLLMENT_1", "displayName": "Work phone",
                           "phoneInfo": "+*******0100", "enrolledAt": "2024-05-01T12:34:56.789Z"]])
        XCTAssertEqual(list, [MultiFactorHint(factorId: .phone, enrollmentId: "ENROLLMENT_1", displayName: "Work phone",
                                              phoneNumber: "+*******0100", enrollmentTimeMs: 1_714_566_896_789)])
        XCTAssertEqual(list.first?.factorId.rawValue, "phone")
    }

    func testATOTPEntryIsATOTPHintWithoutANumber() {
        let list = hints([["mfaEnrollmentId": "ENROLLMENT_2", "displayName": "Authenticator", "totpInfo": [:],
                           "enrolledAt": "2023-11-14T22:13:20.123456789Z"]])
        XCTAssertEqual(list, [MultiFactorHint(factorId: .totp, enrollmentId: "ENROLLMENT_2",
                                              displayName: "Authenticator", enrollmentTimeMs: 1_700_000_000_123)])
        XCTAssertEqual(list.first?.factorId.rawValue, "totp")
    }

    func testUnknownKindsAndEntriesWithoutAnIdAreLeftOut() {
        let list = hints([
            ["mfaEnrollmentId": "PASSKEY", "passkeyInfo": [:]],
            ["displayName": "no id", "phoneInfo": "+*******0101"],
            "not an object",
            ["mfaEnrollmentId": "PHONE", "phoneInfo": "+*******0102"],
        ])
        XCTAssertEqual(list.map(\.enrollmentId), ["PHONE"])
    }

    func testMissingOrUnreadableOptionalFieldsAreNil() {
        let list = hints([
            ["mfaEnrollmentId": "A", "phoneInfo": "+*******0100", "displayName": "", "enrolledAt": "yesterday"],
            ["mfaEnrollmentId": "B", "totpInfo": [:], "enrolledAt": 1_714_566_896],
        ])
        XCTAssertEqual(list, [
            MultiFactorHint(factorId: .phone, enrollmentId: "A", phoneNumber: "+*******0100"),
            MultiFactorHint(factorId: .totp, enrollmentId: "B"),
        ])
    }

    func testTheServersOrderIsKept() {
        let list = hints([
            ["mfaEnrollmentId": "3", "totpInfo": [:]],
            ["mfaEnrollmentId": "1", "phoneInfo": "+*******0100"],
            ["mfaEnrollmentId": "2", "phoneInfo": "+*******0101"],
        ])
        XCTAssertEqual(list.map(\.enrollmentId), ["3", "1", "2"])
    }
}
