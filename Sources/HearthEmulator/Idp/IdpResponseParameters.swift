import HearthWire

/// What an identity provider sent back, as signInWithIdp reads it (the reference's
/// `getNormalizedUri`): the parameters of `requestUri`'s query, then of `postBody`, then of
/// `requestUri`'s fragment, each later source replacing names an earlier one set, as
/// `URLSearchParams.set` does.
struct IdpResponseParameters: Sendable {
    private(set) var pairs: [(name: String, value: String)] = []
    /// `requestUri` with the merged parameters as its query and no fragment, for error messages.
    let normalizedUri: String

    /// MISSING_REQUEST_URI without a `requestUri`; INVALID_REQUEST_URI unless it is absolute.
    init(requestUri: String?, postBody: String?) throws(ApiError) {
        let uri = try requiredText(requestUri, "MISSING_REQUEST_URI")
        try require(AbsoluteURI.isValid(uri), "INVALID_REQUEST_URI")

        var rest = Substring(uri)
        var fragment: Substring = ""
        if let hash = rest.firstIndex(of: "#") {
            fragment = rest[rest.index(after: hash)...]
            rest = rest[..<hash]
        }
        var query: Substring?
        if let question = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: question)...]
            rest = rest[..<question]
        }

        var pairs = FormFields(parsing: query ?? "", plusIsSpace: true).pairs
        var replaced = false
        for source in [Self.dropQuestionMark(Substring(postBody ?? "")), fragment] {
            let incoming = FormFields(parsing: source, plusIsSpace: true).pairs
            for (name, _) in incoming {
                // URLSearchParams.get: the first value of the name in that source.
                guard let value = incoming.first(where: { $0.name == name })?.value else { continue }
                Self.set(name, value, in: &pairs)
                replaced = true
            }
        }
        self.pairs = pairs
        let base = Self.withRootPath(String(rest))
        if replaced {
            normalizedUri = "\(base)?\(FormEncoding.encodeAsURLSearchParams(pairs))"
        } else {
            normalizedUri = query.map { "\(base)?\($0)" } ?? base
        }
    }

    /// The first value of `name`, as `URLSearchParams.get`.
    subscript(name: String) -> String? {
        pairs.first { $0.name == name }?.value
    }

    /// The value when present and not empty (the reference's `get(name) || undefined`).
    func nonEmpty(_ name: String) -> String? {
        self[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Replaces the first pair of that name and drops the others, or appends one.
    private static func set(_ name: String, _ value: String, in pairs: inout [(name: String, value: String)]) {
        guard let first = pairs.firstIndex(where: { $0.name == name }) else {
            pairs.append((name, value))
            return
        }
        pairs[first].value = value
        var index = pairs.index(after: first)
        while index < pairs.endIndex {
            if pairs[index].name == name { pairs.remove(at: index) } else { index = pairs.index(after: index) }
        }
    }

    private static func dropQuestionMark(_ text: Substring) -> Substring {
        text.first == "?" ? text.dropFirst() : text
    }

    /// WHATWG URLs of web schemes always have a path: `http://host` reads back as `http://host/`.
    private static func withRootPath(_ base: String) -> String {
        guard let schemeEnd = base.range(of: "://") else { return base }
        let scheme = base[..<schemeEnd.lowerBound].lowercased()
        guard ["http", "https", "ws", "wss", "ftp"].contains(scheme) else { return base }
        let afterAuthority = base[schemeEnd.upperBound...]
        return afterAuthority.contains("/") ? base : base + "/"
    }
}
