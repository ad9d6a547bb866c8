import HearthWire

/// The query string of a request (or a form body), by name; the last value wins, as Express reads
/// single values. The pairs keep their order, for pages that carry them along.
struct QueryParameters: Sendable {
    // A list searched from the end (the last value wins) rather than a dictionary: a query has a
    // parameter or two, and hashing them cost more than the search on every request.
    private(set) var pairs: [(name: String, value: String)] = []

    init(_ query: String?) {
        guard let query else { return }
        pairs = FormFields(parsing: Substring(query), plusIsSpace: true).pairs
    }

    init(pairs: [(name: String, value: String)]) {
        self.pairs = pairs
    }

    /// These parameters, then `later` ones replacing values of the same name.
    func merging(_ later: QueryParameters) -> QueryParameters {
        QueryParameters(pairs: pairs + later.pairs)
    }

    subscript(name: String) -> String? { pairs.last { $0.name == name }?.value }

    /// The value when present and not empty.
    func nonEmpty(_ name: String) -> String? {
        self[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Each name once, with its last value, in the order names first appeared.
    var lastValues: [(name: String, value: String)] {
        var last: [String: String] = [:]
        for (name, value) in pairs { last[name] = value }
        var seen = Set<String>()
        return pairs.compactMap { pair in
            guard seen.insert(pair.name).inserted, let value = last[pair.name] else { return nil }
            return (pair.name, value)
        }
    }
}
