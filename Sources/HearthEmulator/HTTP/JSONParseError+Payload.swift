import HearthWire

extension JSONParseError {
    /// A body that is not JSON, in the words of Google's front end ("Invalid JSON payload received."),
    /// then what was wrong and where.
    var invalidPayloadMessage: String {
        switch kind {
        case .invalidUTF8:
            return "Invalid JSON payload received. Invalid UTF-8 in request body."
        case .syntax, .tooDeep, .numberOutOfRange:
            return "Invalid JSON payload received. Unexpected token: \(reason) at byte \(offset)."
        }
    }
}
