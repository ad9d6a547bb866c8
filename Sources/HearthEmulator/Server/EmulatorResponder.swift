/// The HTTP face of the emulator: CORS, routing, caller authentication, body parsing, the handler
/// on the project's state, and every failure turned into Google's error envelope. A plain function
/// of the request, so it runs on whichever thread read the request and is testable without a
/// socket; nothing a client sends can make it fail.
struct EmulatorResponder: Sendable {
    let routes: RouteTable
    let state: EmulatorState
    let environment: EmulatorEnvironment

    func respond(to request: EmulatorRequest) -> EmulatorResponse {
        if CORSPolicy.isPreflight(request.method, request.headers) {
            return CORSPolicy.preflightResponse(for: request.headers)
        }
        var response: EmulatorResponse
        do {
            let reply = try handle(request)
            response = EmulatorResponse(status: reply.status, headers: [("Content-Type", reply.contentType)], body: reply.body)
            if let location = reply.location { response.headers.append(("Location", location)) }
        } catch {
            response = EmulatorResponse(
                status: HTTPStatus(code: error.httpStatus), headers: [("Content-Type", Reply.jsonContentType)],
                body: JSONCoding.encode(error.envelope))
        }
        CORSPolicy.apply(to: &response.headers, for: request.headers)
        environment.log.debug("\(request.method) \(request.path) -> \(response.status.code)")
        return response
    }

    private func handle(_ request: EmulatorRequest) throws(ApiError) -> Reply {
        guard let (operation, parameters) = routes.resolve(method: request.method, path: request.path) else {
            throw .notFound
        }
        let query = QueryParameters(request.query)
        let identified = CallerAuthentication.identify(
            authorization: request.headers.authorization, apiKeyHeader: request.headers.apiKey, query: query)
        let caller = try CallerAuthentication.authorize(identified, for: operation.access)

        var body = JSONObject()
        if case .none = operation.body {} else {
            guard case .bytes(let bytes) = request.body else {
                throw .payloadTooLarge(limit: RequestBodyBuffer.limit)
            }
            body = try RequestBodyParser.parse(bytes, contentType: request.headers.contentType, as: operation.body)
        }

        let projectId = try ProjectScope.projectId(
            pathParameters: parameters, body: body, caller: caller, access: operation.access,
            defaultProjectId: environment.defaultProjectId)
        let operationRequest = OperationRequest(
            caller: caller, body: body, query: query, pathParameters: parameters, environment: environment,
            locale: request.headers.locale.flatMap(SmsText.languageTag))
        return try operation.reply(to: operationRequest, in: state.project(projectId))
    }
}
