/// Phone numbers in E.164 form (`+` and digits). Firebase's emulator only requires the leading `+`;
/// hearth-emulator also refuses anything but 1 to 15 digits after it, as production does, with the
/// same INVALID_PHONE_NUMBER message.
enum PhoneNumber {
    static let maximumDigits = 15
    static let invalidFormatMessage = "INVALID_PHONE_NUMBER : Invalid format."

    static func isValid(_ number: String) -> Bool {
        guard number.first == "+" else { return false }
        let digits = number.utf8.dropFirst()
        return (1...maximumDigits).contains(digits.count)
            && digits.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    /// A number as people write it ("+1 650-555-3434", "+1 (650) 555.3434") in E.164, or nil.
    static func normalized(_ written: String) -> String? {
        let kept = written.filter { !" -().\t".contains($0) }
        return isValid(kept) ? kept : nil
    }

    /// Every digit but the last four replaced by `*` ("+*******0100"), as second-factor hints show it.
    static func masked(_ number: String) -> String {
        var digitsSeen = 0
        var characters = Array(number)
        for index in characters.indices.reversed() where characters[index].isASCII && characters[index].isNumber {
            digitsSeen += 1
            if digitsSeen > 4 { characters[index] = "*" }
        }
        return String(characters)
    }
}
