import FuzzSupport
@testable import HearthEmulator
import HearthWire

// Request bodies as the emulator's responder handles them, minus the socket: body parsing and
// schema validation, project and tenant scoping, then the route's handler (its typed decoding and
// its work) on the emulator's state. An input is up to eight requests, each a route selector, a caller
// selector (bit 0: admin bearer, bit 1: API key, bit 2: form content type) and a body ending at
// NUL, all against the same fresh state, so one request can set up what the next one reads.
// Properties: nothing traps, and no request is answered 500.

private let routes: [Route] = EmulatorRoutes.implemented

private let projectId = "demo-fuzz"

// Blocking functions a request configures answer at once, without a network: a change of the
// display name, so their answers are applied too.
nonisolated(unsafe) private let environment = EmulatorEnvironment(
    defaultProjectId: projectId, clock: EmulatorClock(),
    log: .discarding,
    baseURL: { "http://127.0.0.1:9099" },
    functions: FunctionTransport { _, _ in
        .answer(status: 200, body: Array(#"{"userRecord":{"updateMask":"displayName","displayName":"fuzz"}}"#.utf8))
    })

/// The route's path with every capture filled in, and the parameters the router would capture.
private func pathParameters(_ route: Route) -> [String: String] {
    let path = route.template.segments.map { segment -> String in
        switch segment {
        case .literal(let literal): return literal
        case .capture: return projectId
        case .captureBeforeVerb(_, let verb): return projectId + verb
        }
    }
    return route.template.match(path) ?? [:]
}

private func handle(_ route: Route, flags: UInt8, body bytes: [UInt8], state: EmulatorState) throws(ApiError) -> Reply {
    let operation = route.operation
    let caller = try CallerAuthentication.authorize(
        Caller(bearer: flags & 1 != 0 ? .admin : .none, hasApiKey: flags & 2 != 0), for: operation.access)
    let contentType = flags & 4 != 0 ? "application/x-www-form-urlencoded" : "application/json"
    var body = JSONObject()
    if case .none = operation.body {} else {
        body = try RequestBodyParser.parse(bytes, contentType: contentType, as: operation.body)
    }
    let parameters = pathParameters(route)
    let scope = try ProjectScope.resolve(
        pathParameters: parameters, body: body, caller: caller, access: operation.access,
        defaultProjectId: projectId, log: environment.log)
    let request = OperationRequest(caller: caller, body: body, query: QueryParameters(nil),
                                   pathParameters: parameters, environment: environment, scope: scope)
    return try operation.reply(to: request, in: state)
}

func fuzzOne(_ data: [UInt8]) {
    var input = FuzzInput(data)
    let state = EmulatorState()
    for _ in 0..<8 where !input.isEmpty {
        let route = routes[Int(input.byte()) % routes.count]
        let flags = input.byte()
        let body = input.field(separatedBy: 0)
        do throws(ApiError) {
            _ = try handle(route, flags: flags, body: body, state: state).body
        } catch {
            fuzzCheck(error.httpStatus != 500, "\(route.operation.id) answered 500: \(error.message)")
            _ = JSONCoding.encode(error.envelope)
        }
    }
}

@main enum Main { static func main() { fuzzMain("fuzz-emulator-requests", fuzzOne) } }
