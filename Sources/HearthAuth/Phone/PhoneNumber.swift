import HearthBackend

/// Up-front checks of the phone numbers hosts pass, so a malformed number fails with invalid phone
/// number before any request (the server would say the same, after a round trip and, in production,
/// after spending an app verification).
///
/// E.164 here: '+', then 7 to 15 ASCII digits, the first not 0 (country codes start at 1; the shortest
/// numbers in service, e.g. Niue's and Tokelau's, have 7 digits with the country code).
/// `validateE164` takes nothing else. `e164(from:)` first removes the separators people type and
/// consoles show ("+1 650-555-3434", "+44 (20) 7946.0000"), so such input is accepted as the plain
/// number; it converts nothing else (no "00" prefix, no national numbers).
///
/// Error messages never contain the number.
package enum PhoneNumber {
    static let digitRange = 7...15

    /// Nil when `text` is E.164; missing phone number when it is empty or blank; invalid phone number
    /// otherwise (separators, letters, no '+', a leading 0, too few or too many digits).
    static func validateE164(_ text: String) -> AuthError? {
        if text.unicodeScalars.allSatisfy({ $0.properties.isWhitespace }) {
            return AuthError(code: .missingPhoneNumber)
        }
        let bytes = Array(text.utf8)
        guard bytes.first == UInt8(ascii: "+") else {
            return invalid("The phone number must start with '+' and the country code (E.164).")
        }
        let digits = bytes.dropFirst()
        guard digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            return invalid("The phone number must contain only digits after the '+' (E.164).")
        }
        guard digits.first != UInt8(ascii: "0") else {
            return invalid("The country code of a phone number cannot start with 0 (E.164).")
        }
        guard digitRange.contains(digits.count) else {
            return invalid("The phone number must have \(digitRange.lowerBound) to \(digitRange.upperBound) digits"
                + " (E.164), not \(digits.count).")
        }
        return nil
    }

    /// `text` without the separators people type between digit groups: spaces, tabs, no-break spaces,
    /// '-', '.', '(' and ')'. Everything else is kept for `validateE164` to judge.
    static func removingSeparators(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.filter { !isSeparator($0) }))
    }

    /// The E.164 number for host input: separators removed, then validated.
    static func e164(from text: String) -> Result<String, AuthError> {
        let number = removingSeparators(text)
        if let error = validateE164(number) { return .failure(error) }
        return .success(number)
    }

    private static func isSeparator(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case " ", "\t", "\u{00A0}", "-", ".", "(", ")": return true
        default: return false
        }
    }

    private static func invalid(_ message: String) -> AuthError {
        AuthError(code: .invalidPhoneNumber, message: message)
    }
}
