import HearthWire

/// The HTTP face of the emulator: CORS, routing (the legacy v3 paths included), caller
/// authentication, body parsing, the project and tenant, the handler on that state, compression,
/// and every failure turned into Google's error envelope. A plain function of the request, so it
/// runs on whichever thread read the request and is testable without a socket; nothing a client
/// sends can make it fail.
struct EmulatorResponder: Sendable {
    let routes: RouteTable
    let state: EmulatorState
    let environment: EmulatorEnvironment
    /// gzip answers for clients that ask (`ResponseCompression`).
    var compressesAnswers = true

    func respond(to request: EmulatorRequest) -> EmulatorResponse {
        if request.method == .options {
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
        if compressesAnswers, let acceptEncoding = request.headers.acceptEncoding {
            ResponseCompression.compress(&response, accepting: acceptEncoding)
        }
        environment.log.debug("\(request.method) \(request.path) -> \(response.status.code)")
        return response
    }

    private func handle(_ request: EmulatorRequest) throws(ApiError) -> Reply {
        if let (operation, parameters) = routes.resolve(method: request.method, path: request.path) {
            return try answer(operation, parameters: parameters, request: request)
        }
        // Only a path no route takes can be a legacy one, so the usual paths never look for them.
        guard let legacy = LegacyRoutes.rewrite(request) else { throw .notFound }
        switch legacy {
        case .request(let rewritten):
            return try handle(rewritten)
        case .failure(let error):
            throw error
        }
    }

    /// Runs `operation` for `request`: the steps after routing.
    func answer(_ operation: Operation, parameters: [String: String], request: EmulatorRequest) throws(ApiError) -> Reply {
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

        let scope = try ProjectScope.resolve(
            pathParameters: parameters, body: body, query: query, queryTenant: operation.queryTenant, caller: caller,
            access: operation.access, defaultProjectId: environment.defaultProjectId, log: environment.log)
        let operationRequest = OperationRequest(
            caller: caller, body: body, query: query, pathParameters: parameters, environment: environment,
            scope: scope, locale: request.headers.locale.flatMap(SmsText.languageTag), host: request.headers.host,
            accept: request.headers.accept)
        return try operation.reply(to: operationRequest, in: state)
    }
}
