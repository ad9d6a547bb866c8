import Foundation

/// Base64 in the two alphabets tokens use.
enum Base64 {
    static func urlEncoded(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Accepts base64url or standard base64, with or without padding (JWT segments come both ways).
    static func decodeLenient(_ text: Substring) -> [UInt8]? {
        var standard = text
            .replacingOccurrences(of: "-", with: "+")
            .replacingOccurrences(of: "_", with: "/")
            .filter { !$0.isWhitespace }
        while standard.count % 4 != 0 { standard.append("=") }
        return Data(base64Encoded: standard).map(Array.init)
    }

    static func standardEncoded(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
    }
}
