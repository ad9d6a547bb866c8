import HearthWire

/// A server error text split the way the iOS SDK splits it: the code is the text before the first ':',
/// trimmed, and the rest (trimmed) is the detail. "WEAK_PASSWORD : Password should be at least 6
/// characters" and "FEDERATED_USER_ID_ALREADY_LINKED:" both work; text without ':' is all code.
package struct ServerErrorMessage: Sendable, Equatable {
    /// The whole text, trimmed.
    package let text: String
    package let code: String
    /// The text after the first ':', trimmed; nil when absent or empty.
    package let detail: String?

    package init(_ text: String) {
        let trimmed = text.trimmingASCIIWhitespace()
        self.text = trimmed
        if let colon = trimmed.firstIndex(of: ":") {
            self.code = String(trimmed[..<colon]).trimmingASCIIWhitespace()
            let rest = String(trimmed[trimmed.index(after: colon)...]).trimmingASCIIWhitespace()
            self.detail = rest.isEmpty ? nil : rest
        } else {
            self.code = trimmed
            self.detail = nil
        }
    }
}
