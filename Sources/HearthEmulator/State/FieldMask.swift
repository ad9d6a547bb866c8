import HearthWire

/// An `updateMask` (comma-separated dotted field paths) applied the way Firebase's emulator applies
/// it to its project and tenant configurations:
/// - each path's last field is copied from the update when the update has it (a whole value:
///   objects and lists are replaced, not merged);
/// - objects on the way are created in the target when missing, even if the last field is then
///   absent from the update;
/// - a path stops descending where the update has no object to descend into, and its last field
///   is then looked for at the level reached (so `displayName.0` changes nothing).
struct FieldMask: Sendable {
    let paths: [[String]]

    init(_ mask: String) {
        paths = mask.split(separator: ",", omittingEmptySubsequences: false).map { path in
            path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        }
    }

    /// The mask naming exactly these paths.
    init(paths: [String]) {
        self.init(paths.joined(separator: ","))
    }

    func apply(_ update: JSONObject, to target: inout JSONObject) {
        for path in paths where !path.isEmpty {
            Self.apply(path[...], update: update, to: &target)
        }
    }

    private static func apply(_ path: ArraySlice<String>, update: JSONObject, to target: inout JSONObject) {
        guard let field = path.first, let last = path.last else { return }
        if path.count == 1 {
            copy(field, from: update, to: &target)
            return
        }
        guard case .object(let nestedUpdate)? = update[field] else {
            copy(last, from: update, to: &target)
            return
        }
        var nested: JSONObject
        switch target[field] {
        case .object(let existing)?:
            nested = existing
        case nil, .null?, .bool(false)?, .number(0)?, .string("")?:
            nested = JSONObject()
        default:
            // A value of another type is in the way: the reference cannot set a field on it either.
            return
        }
        apply(path.dropFirst(), update: nestedUpdate, to: &nested)
        target[field] = .object(nested)
    }

    private static func copy(_ field: String, from update: JSONObject, to target: inout JSONObject) {
        guard let value = update[field], value != .null else { return }
        target[field] = value
    }
}
