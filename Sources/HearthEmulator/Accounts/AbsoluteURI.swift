import Foundation

/// Whether a string parses as an absolute URI the way the WHATWG URL parser (used by the reference)
/// would accept it: a scheme, and a host for the schemes that need one.
enum AbsoluteURI {
    private static let schemesNeedingHost: Set<String> = ["http", "https", "ws", "wss", "ftp"]

    static func isValid(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":") else { return false }
        let scheme = text[..<colon]
        guard let first = scheme.first, first.isASCII, first.isLetter,
              scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else { return false }
        guard schemesNeedingHost.contains(scheme.lowercased()) else { return true }
        guard let url = URL(string: text), let host = url.host, !host.isEmpty else { return false }
        return true
    }
}
