/// A method and path template bound to an operation.
struct Route: Sendable {
    let method: HTTPMethod
    let template: PathTemplate
    let operation: Operation

    init(_ method: HTTPMethod, _ path: String, _ operation: Operation) {
        self.method = method
        self.template = PathTemplate(path)
        self.operation = operation
    }
}

/// All routes, resolved by method and whole path. Implemented routes come first; every other method
/// of the API description answers 501.
struct RouteTable: Sendable {
    private let routes: [Route]

    init(implemented: [Route], specification: [SpecRoute] = SpecRoute.all) {
        let taken = Set(implemented.map { "\($0.method.rawValue) \($0.template.description)" })
        let stubs = specification
            .filter { !taken.contains("\($0.method.rawValue) \($0.path)") }
            .map { Route($0.method, $0.path, .notImplemented($0)) }
        routes = implemented + stubs
        var exact: [ExactKey: (index: Int, parameters: [String: String])] = [:]
        var byPath: [PathKey: (index: Int, parameters: [String: String])] = [:]
        for route in routes {
            let components = route.template.segments.compactMap { segment -> String? in
                if case .literal(let literal) = segment { literal } else { nil }
            }
            guard components.count == route.template.segments.count else { continue }
            let key = ExactKey(method: route.method, components: components)
            if exact[key] == nil, let index = Self.firstMatch(in: routes, method: route.method, components: components) {
                exact[key] = (index, routes[index].template.match(components) ?? [:])
                // A request path equal to this text splits into exactly these segments, none of
                // them percent-decoded, so it can be looked up without splitting.
                if !components.contains(where: { $0.contains("%") }) {
                    byPath[PathKey(method: route.method, path: "/" + components.joined(separator: "/"))] = exact[key]
                }
            }
        }
        exactMatches = exact
        exactPaths = byPath
    }

    func resolve(method: HTTPMethod, path: String) -> (operation: Operation, parameters: [String: String])? {
        if let exact = exactPaths[PathKey(method: method, path: path)] {
            return (routes[exact.index].operation, exact.parameters)
        }
        let components = PathTemplate.components(of: path)
        if let exact = exactMatches[ExactKey(method: method, components: components)] {
            return (routes[exact.index].operation, exact.parameters)
        }
        guard let index = Self.firstMatch(in: routes, method: method, components: components) else { return nil }
        return (routes[index].operation, routes[index].template.match(components) ?? [:])
    }

    /// Paths without captures are looked up directly; each maps to the route the in-order scan
    /// picks for it (precomputed), so the table only saves the scan, never changes its answer.
    private struct ExactKey: Hashable {
        var method: HTTPMethod
        var components: [String]
    }

    private let exactMatches: [ExactKey: (index: Int, parameters: [String: String])]

    private struct PathKey: Hashable {
        var method: HTTPMethod
        var path: String
    }

    private let exactPaths: [PathKey: (index: Int, parameters: [String: String])]

    private static func firstMatch(in routes: [Route], method: HTTPMethod, components: [String]) -> Int? {
        routes.indices.first { routes[$0].method == method && routes[$0].template.match(components) != nil }
    }
}
