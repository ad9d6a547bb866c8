@testable import HearthAuth
@testable import HearthBackend
import XCTest

/// E.164 checks before any request, and the separator removal applied to host input.
final class PhoneNumberTests: XCTestCase {
    func testE164NumbersAreValid() {
        for number in ["+16505554567", "+441234567890", "+15555550100", "+6831234", "+123456789012345"] {
            XCTAssertNil(PhoneNumber.validateE164(number), number)
        }
    }

    func testANumberWithoutThePlusIsInvalid() {
        XCTAssertEqual(PhoneNumber.validateE164("6505554567")?.code, .invalidPhoneNumber)
        XCTAssertEqual(PhoneNumber.validateE164("0016505554567")?.code, .invalidPhoneNumber)
    }

    func testACountryCodeStartingWithZeroIsInvalid() {
        XCTAssertEqual(PhoneNumber.validateE164("+0123")?.code, .invalidPhoneNumber)
        XCTAssertEqual(PhoneNumber.validateE164("+01234567890")?.code, .invalidPhoneNumber)
    }

    func testSeparatorsAreInvalidInStrictE164() {
        for number in ["+1 650-555-3434", "+1 6505553434", "+1-650-555-3434", "+1 (650) 555.3434"] {
            XCTAssertEqual(PhoneNumber.validateE164(number)?.code, .invalidPhoneNumber, number)
        }
    }

    func testLettersAndOtherCharactersAreInvalid() {
        for number in ["+1650555CALL", "+16505554567x", "++16505554567", "+", "+１６５０５５５４５６７", "+16505554567\n"] {
            XCTAssertEqual(PhoneNumber.validateE164(number)?.code, .invalidPhoneNumber, number)
        }
    }

    func testTooFewOrTooManyDigitsAreInvalid() {
        XCTAssertEqual(PhoneNumber.validateE164("+1234567890123456")?.code, .invalidPhoneNumber, "16 digits")
        XCTAssertEqual(PhoneNumber.validateE164("+123456")?.code, .invalidPhoneNumber, "6 digits")
        XCTAssertNil(PhoneNumber.validateE164("+1234567"), "7 digits")
    }

    func testAnEmptyOrBlankNumberIsMissing() {
        XCTAssertEqual(PhoneNumber.validateE164("")?.code, .missingPhoneNumber)
        XCTAssertEqual(PhoneNumber.validateE164("   ")?.code, .missingPhoneNumber)
    }

    func testErrorMessagesDoNotContainTheNumber() {
        let error = PhoneNumber.validateE164("+16505554567123456")
        XCTAssertEqual(error?.code, .invalidPhoneNumber)
        XCTAssertFalse(error?.message.contains("6505554567") ?? true, error?.message ?? "")
    }

    func testHostInputWithTypedSeparatorsBecomesThePlainNumber() {
        XCTAssertEqual(try PhoneNumber.e164(from: "+1 650-555-3434").get(), "+16505553434")
        XCTAssertEqual(try PhoneNumber.e164(from: "+44 (20) 7946.0000").get(), "+442079460000")
        XCTAssertEqual(try PhoneNumber.e164(from: "+1\u{00A0}650\t5554567").get(), "+16505554567")
        XCTAssertEqual(try PhoneNumber.e164(from: "+16505554567").get(), "+16505554567")
    }

    func testSeparatorRemovalConvertsNothingElse() {
        XCTAssertEqual(PhoneNumber.e164(from: "650 555 4567").failureCode, .invalidPhoneNumber)
        XCTAssertEqual(PhoneNumber.e164(from: "00 1 650 555 4567").failureCode, .invalidPhoneNumber)
        XCTAssertEqual(PhoneNumber.e164(from: "+1 650 CALL NOW").failureCode, .invalidPhoneNumber)
        XCTAssertEqual(PhoneNumber.e164(from: "").failureCode, .missingPhoneNumber)
        XCTAssertEqual(PhoneNumber.e164(from: " - ").failureCode, .missingPhoneNumber, "separators only")
        XCTAssertEqual(PhoneNumber.removingSeparators("+1 (650) 555-34.34"), "+16505553434")
    }
}

extension Result where Failure == AuthError {
    fileprivate var failureCode: AuthErrorCode? {
        if case .failure(let error) = self { return error.code }
        return nil
    }
}
