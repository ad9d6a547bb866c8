/// Email rules of the reference: anything shaped `x@y` is valid (false positives are fine for tests),
/// and addresses are compared in lower case.
enum EmailAddress {
    static func isValid(_ email: String) -> Bool {
        if let valid = isValidASCII(email) { return valid }
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty
            // The byte test spares Foundation's search for the usual address without a newline.
            && !(email.utf8.contains(0x0A) && email.contains("\n"))
    }

    /// The same answer over bytes for ASCII text without a line feed, where each byte is one
    /// Character; nil for anything else.
    private static func isValidASCII(_ email: String) -> Bool? {
        var email = email
        return email.withUTF8 { bytes -> Bool? in
            var at: Int?
            for (index, byte) in bytes.enumerated() {
                if byte >= 0x80 || byte == 0x0A { return nil }
                if byte == UInt8(ascii: "@") {
                    if at != nil { return false }
                    at = index
                }
            }
            guard let at else { return false }
            return at > 0 && at < bytes.count - 1
        }
    }

    static func canonical(_ email: String) -> String { email.lowercased() }
}
