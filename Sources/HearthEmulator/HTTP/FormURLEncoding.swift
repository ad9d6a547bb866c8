import Foundation

/// `application/x-www-form-urlencoded` text, used by query strings and by the JS SDK's token refresh body.
enum FormURLEncoding {
    /// Pairs in order; a name without `=` has an empty value. Undecodable escapes are kept as sent.
    static func parse(_ text: Substring) -> [(name: String, value: String)] {
        text.split(separator: "&", omittingEmptySubsequences: true).map { part in
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = decode(pieces[0])
            let value = pieces.count > 1 ? decode(pieces[1]) : ""
            return (name, value)
        }
    }

    private static func decode(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }

    static func encodeComponent(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}

/// The query string of a request, by name; the last value wins, as Express reads single values.
struct QueryParameters: Sendable {
    private var values: [String: String] = [:]

    init(_ query: String?) {
        guard let query else { return }
        for (name, value) in FormURLEncoding.parse(Substring(query)) { values[name] = value }
    }

    subscript(name: String) -> String? { values[name] }
}
