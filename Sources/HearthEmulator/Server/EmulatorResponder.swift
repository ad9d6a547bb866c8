import HTTPTypes
import Hummingbird

/// The HTTP face of the emulator: CORS, routing, caller authentication, body parsing, the handler
/// on the project's state, and every failure turned into Google's error envelope. Nothing a client
/// sends can make it throw past this point.
struct EmulatorResponder: HTTPResponder {
    typealias Context = BasicRequestContext

    let routes: RouteTable
    let state: EmulatorState
    let environment: EmulatorEnvironment

    func respond(to request: Request, context: Context) async throws -> Response {
        if CORSPolicy.isPreflight(request) { return CORSPolicy.preflightResponse(for: request) }
        var response: Response
        do {
            let reply = try await handle(request)
            response = Self.response(status: reply.status, contentType: reply.contentType, body: reply.body)
            if let location = reply.location { response.headers[.location] = location }
        } catch {
            response = Self.response(
                status: HTTPResponse.Status(code: error.httpStatus), contentType: Reply.jsonContentType,
                body: JSONCoding.encode(error.envelope))
        }
        CORSPolicy.apply(to: &response.headers, for: request)
        environment.log.debug("\(request.method) \(request.uri.path) -> \(response.status.code)")
        return response
    }

    private func handle(_ request: Request) async throws(ApiError) -> Reply {
        guard let (operation, parameters) = routes.resolve(method: request.method, path: request.uri.path) else {
            throw .notFound
        }
        let query = QueryParameters(request.uri.query)
        let identified = CallerAuthentication.identify(
            authorization: request.headers[.authorization],
            apiKeyHeader: request.headers[Self.apiKeyHeader],
            query: query)
        let caller = try CallerAuthentication.authorize(identified, for: operation.access)

        var body = JSONObject()
        if case .none = operation.body {} else {
            let bytes = try await RequestBodyReader.read(request.body)
            body = try RequestBodyParser.parse(bytes, contentType: request.headers[.contentType], as: operation.body)
        }

        let projectId = try ProjectScope.projectId(
            pathParameters: parameters, body: body, caller: caller, access: operation.access,
            defaultProjectId: environment.defaultProjectId)
        let operationRequest = OperationRequest(
            caller: caller, body: body, query: query, pathParameters: parameters, environment: environment,
            locale: request.headers[Self.localeHeader].flatMap(SmsText.languageTag))
        return try state.withProject(projectId) { project throws(ApiError) in
            try operation.handler(&project, operationRequest)
        }
    }

    private static let apiKeyHeader = HTTPField.Name("x-goog-api-key")!
    private static let localeHeader = HTTPField.Name("X-Firebase-Locale")!

    private static func response(status: HTTPResponse.Status, contentType: String, body: [UInt8]) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = contentType
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }
}
