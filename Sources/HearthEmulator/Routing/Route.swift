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
    }

    func resolve(method: HTTPMethod, path: String) -> (operation: Operation, parameters: [String: String])? {
        let components = PathTemplate.components(of: path)
        for route in routes where route.method == method {
            if let parameters = route.template.match(components) { return (route.operation, parameters) }
        }
        return nil
    }
}
