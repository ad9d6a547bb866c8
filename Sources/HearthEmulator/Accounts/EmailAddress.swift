/// Email rules of the reference: anything shaped `x@y` is valid (false positives are fine for tests),
/// and addresses are compared in lower case.
enum EmailAddress {
    static func isValid(_ email: String) -> Bool {
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty
            // The byte test spares Foundation's search for the usual address without a newline.
            && !(email.utf8.contains(0x0A) && email.contains("\n"))
    }

    static func canonical(_ email: String) -> String { email.lowercased() }
}
