/// Fictional phone numbers with fixed codes, as the Firebase console's "Phone numbers for testing"
/// (hearth-emulator only). A test number gets its own code every time, no SMS is "sent" (nothing is
/// logged), it is exempt from the SMS rate limit, and it works when app verification is required
/// without a reCAPTCHA token (Firebase: with app verification disabled only fictional numbers work).
///
/// Set with `--test-phone-number "+1 650-555-3434=654321"` (repeatable) or with
/// `PATCH /emulator/v1/projects/{p}/config` `{"testPhoneNumbers": {"+16505553434": "654321"}}`, which
/// replaces the whole set (`{}` clears it). Numbers may be written with spaces, dashes, dots and
/// parentheses; they are kept in E.164. Codes are 6 digits.
public struct TestPhoneNumbers: Sendable, Equatable {
    public struct Invalid: Error, Sendable {
        public var message: String
    }

    public static let codeLength = 6

    /// E.164 number → code.
    public private(set) var codes: [String: String] = [:]

    public init() {}

    /// Adds (or replaces) a number and its code.
    public mutating func set(number written: String, code: String) throws(Invalid) {
        guard let number = PhoneNumber.normalized(written) else {
            throw Invalid(message: "'\(written)' is not a phone number in E.164 form (+ and up to \(PhoneNumber.maximumDigits) digits)")
        }
        guard code.count == Self.codeLength, code.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw Invalid(message: "the code of \(number) must be \(Self.codeLength) digits, not '\(code)'")
        }
        codes[number] = code
    }

    /// `NUMBER=CODE`, the command line's form.
    public mutating func add(_ specification: String) throws(Invalid) {
        guard let equals = specification.lastIndex(of: "=") else {
            throw Invalid(message: "expected NUMBER=CODE (e.g. \"+1 650-555-3434=654321\"), not '\(specification)'")
        }
        try set(number: String(specification[..<equals]),
                code: String(specification[specification.index(after: equals)...]))
    }

    func code(for number: String) -> String? { codes[number] }
}
