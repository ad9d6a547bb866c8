import HearthWire

/// Adds an identity provider's answer to the URL an app asked to be sent back to, keeping the rest
/// of that URL as the app wrote it (its path, its own query parameters, its fragment).
enum RedirectURL {
    static func appending(_ parameters: [(name: String, value: String)], to url: String) -> String {
        var base = Substring(url)
        var fragment = ""
        if let hash = base.firstIndex(of: "#") {
            fragment = String(base[hash...])
            base = base[..<hash]
        }
        var kept: [Substring] = []
        if let question = base.firstIndex(of: "?") {
            let replacing = Set(parameters.map(\.name))
            kept = base[base.index(after: question)...].split(separator: "&").filter { part in
                let name = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0]
                return !replacing.contains(PercentDecoding.decode(name.utf8, plusIsSpace: true))
            }
            base = base[..<question]
        }
        let query = kept.map(String.init) + [FormEncoding.encode(parameters)].filter { !$0.isEmpty }
        return "\(base)?\(query.joined(separator: "&"))\(fragment)"
    }
}
