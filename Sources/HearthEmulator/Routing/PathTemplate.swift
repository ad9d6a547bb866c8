import Foundation
import HearthWire

/// A Google API path such as `/identitytoolkit.googleapis.com/v1/projects/{targetProjectId}:queryAccounts`.
///
/// Segments are literals (which may contain `:verb`), `{name}` captures, or `{name}:verb` captures of
/// everything before a verb. A trie router that resolves greedily without backtracking (Hummingbird's)
/// cannot tell `{p}/accounts` from `{p}:queryAccounts`; this matcher compares whole paths instead.
struct PathTemplate: Sendable, CustomStringConvertible {
    enum Segment: Sendable, Equatable {
        case literal(String)
        case capture(String)
        case captureBeforeVerb(name: String, verb: String)
    }

    let segments: [Segment]
    let description: String

    init(_ template: String) {
        description = template
        segments = template.split(separator: "/").map { part in
            guard part.hasPrefix("{"), let close = part.firstIndex(of: "}") else { return .literal(String(part)) }
            let name = String(part[part.index(after: part.startIndex)..<close])
            let rest = part[part.index(after: close)...]
            return rest.isEmpty ? .capture(name) : .captureBeforeVerb(name: name, verb: String(rest))
        }
    }

    /// The captured parameters when `path` (already split and percent-decoded) matches.
    func match(_ path: [String]) -> [String: String]? {
        guard path.count == segments.count else { return nil }
        var parameters: [String: String] = [:]
        for (segment, component) in zip(segments, path) {
            switch segment {
            case .literal(let literal):
                guard literal == component else { return nil }
            case .capture(let name):
                guard !component.isEmpty, !component.contains(":") else { return nil }
                parameters[name] = component
            case .captureBeforeVerb(let name, let verb):
                guard component.hasSuffix(verb), component.count > verb.count else { return nil }
                parameters[name] = String(component.dropLast(verb.count))
            }
        }
        return parameters
    }

    /// Splits a request path into percent-decoded segments.
    static func components(of path: String) -> [String] {
        // Foundation's percent-decoding is costly per request; without a `%` it returns its input.
        path.split(separator: "/").map { segment in
            let text = String(segment)
            return text.utf8.contains(UInt8(ascii: "%")) ? text.removingPercentEncoding ?? text : text
        }
    }
}
