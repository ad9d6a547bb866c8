import HearthWire

/// One API method the emulator answers: its identity, who may call it, what body it takes, and the
/// handler that runs on the project's state.
struct Operation: Sendable {
    enum Body: Sendable {
        /// No body is read (GET, DELETE).
        case none
        /// A JSON object validated against the message's fields.
        case json(RequestSchema)
        /// JSON, or `application/x-www-form-urlencoded` (securetoken).
        case jsonOrForm(RequestSchema)
        /// An HTML form's fields (`application/x-www-form-urlencoded`), every value a string.
        case form
    }

    /// A check the reference makes first thing for a tenant's request (a project itself allows
    /// everything, so they cost its requests nothing).
    enum TenantGate: Sendable {
        /// PROJECT_DISABLED when the tenant has `disableAuth`.
        case enabled
        /// PASSWORD_LOGIN_DISABLED without `allowPasswordSignup`.
        case passwordSignIn
        /// OPERATION_NOT_ALLOWED without `enableEmailLinkSignin`.
        case emailLinkSignIn
        /// OPERATION_NOT_ALLOWED without SMS second factors in `mfaConfig`.
        case smsSecondFactors
        /// UNSUPPORTED_TENANT_OPERATION: phone sign-in and the project's public config.
        case projectOnly

        func check(_ features: ProjectFeatures) throws(ApiError) {
            switch self {
            case .enabled: try features.requireEnabled()
            case .passwordSignIn: try require(features.allowsPasswordSignUp, "PASSWORD_LOGIN_DISABLED")
            case .emailLinkSignIn: try require(features.allowsEmailLinkSignIn, "OPERATION_NOT_ALLOWED")
            case .smsSecondFactors: try features.requireSmsSecondFactors()
            case .projectOnly: throw .badRequest("UNSUPPORTED_TENANT_OPERATION")
            }
        }
    }

    /// How an operation reaches its project's state.
    enum Handler: Sendable {
        /// The whole handler runs with the project locked exclusively (most operations: they are
        /// rare, and holding the lock throughout keeps their checks and writes together).
        case exclusive(@Sendable (inout ProjectState, OperationRequest) throws(ApiError) -> Reply)
        /// The handler takes the project's lock itself, only around what reads or changes the state,
        /// so decoding, token minting and encoding of the hot operations run in parallel.
        case scoped(@Sendable (OperationRequest, LockedProject) throws(ApiError) -> Reply)
        /// The handler works on the emulator's state as a whole: tenants and project settings,
        /// which a project shares with its tenants.
        case global(@Sendable (OperationRequest, EmulatorState) throws(ApiError) -> Reply)
    }

    let id: String
    let access: AccessPolicy
    let body: Body
    let tenantGates: [TenantGate]
    /// Query parameters naming the tenant, for pages a browser opens (`tenantId`, `tid`): read when
    /// neither the path nor the body names one.
    let queryTenant: [String]
    let handler: Handler

    init(_ id: String, access: AccessPolicy = .apiKeyOrAdmin, body: Body = .none, tenantGates: [TenantGate] = [],
         queryTenant: [String] = [],
         handler: @escaping @Sendable (inout ProjectState, OperationRequest) throws(ApiError) -> Reply) {
        self.init(id, access: access, body: body, tenantGates: tenantGates, queryTenant: queryTenant,
                  handler: .exclusive(handler))
    }

    init(_ id: String, access: AccessPolicy = .apiKeyOrAdmin, body: Body = .none, tenantGates: [TenantGate] = [],
         queryTenant: [String] = [], handler: Handler) {
        self.id = id
        self.access = access
        self.body = body
        self.tenantGates = tenantGates
        self.queryTenant = queryTenant
        self.handler = handler
    }

    /// Answers `request` on its project (or tenant) of `state`.
    func reply(to request: OperationRequest, in state: EmulatorState) throws(ApiError) -> Reply {
        if case .global(let handle) = handler { return try handle(request, state) }
        let project = state.project(request.projectId, tenantId: request.tenantId)
        if request.tenantId != nil, !request.scope.tenantFromQuery, !tenantGates.isEmpty {
            let features = project.read { $0.features }
            for gate in tenantGates { try gate.check(features) }
        }
        switch handler {
        case .exclusive(let handle):
            return try project.write { state throws(ApiError) in try handle(&state, request) }
        case .scoped(let handle):
            return try handle(request, project)
        case .global:
            preconditionFailure("handled above")
        }
    }

    /// The reference's answer for a spec method without a handler.
    static func notImplemented(_ spec: SpecRoute) -> Operation {
        Operation(spec.operationId, access: spec.access) { _, _ throws(ApiError) in
            throw .notImplemented("\(spec.operationId) is not implemented in the Auth Emulator.")
        }
    }
}

/// An answer: a status and a body (JSON, or HTML for the pages a person sees), or a redirect.
struct Reply: Sendable {
    static let jsonContentType = "application/json; charset=utf-8"
    static let htmlContentType = "text/html; charset=utf-8"

    var status: HTTPStatus
    var contentType: String
    /// `Location` of a redirect.
    var location: String?
    /// Encodes the body when asked. Handlers run under the state's lock; the answer is a value,
    /// so it is encoded after the lock is released and encoding does not hold up other requests.
    private let encodeBody: @Sendable () -> [UInt8]

    /// The body's bytes (encoded on every read).
    var body: [UInt8] { encodeBody() }

    init<T: Encodable & Sendable>(_ value: T, status: HTTPStatus = .ok) {
        self.init(status: status, contentType: Self.jsonContentType) { JSONCoding.encode(value) }
    }

    /// Written by the value's own writer; debug builds check it against `JSONCoding.encode`.
    init<T: DirectJSON & Sendable>(_ value: T, status: HTTPStatus = .ok) {
        self.init(status: status, contentType: Self.jsonContentType) {
            let bytes = value.jsonBytes
            assert(bytes == JSONCoding.encode(value), "\(T.self).writeJSON differs from JSONCoding.encode")
            return bytes
        }
    }

    private init(status: HTTPStatus, contentType: String, encodeBody: @escaping @Sendable () -> [UInt8]) {
        self.status = status
        self.contentType = contentType
        self.encodeBody = encodeBody
    }

    /// A 303 (See Other), so a browser follows it with GET even after a form POST.
    static func redirect(to location: String) -> Reply {
        var reply = Reply(JSONValue.object(JSONObject()), status: .seeOther)
        reply.location = location
        return reply
    }

    /// `{"authEmulator":{"error":…}}`, how the reference's pages (handler, action links) refuse a request.
    static func authEmulatorError(_ message: String, status: HTTPStatus = .badRequest) -> Reply {
        let error = JSONObject([("error", .string(message))])
        return Reply(JSONValue.object(JSONObject([("authEmulator", .object(error))])), status: status)
    }

    static func html(_ page: String, status: HTTPStatus = .ok) -> Reply {
        Reply(status: status, contentType: htmlContentType) { Array(page.utf8) }
    }
}

/// What a handler is given besides the project state.
struct OperationRequest: Sendable {
    var caller: Caller
    var body: JSONObject
    var query: QueryParameters
    var pathParameters: [String: String]
    var environment: EmulatorEnvironment
    /// The project and tenant the request acts on, and its tokens as already decoded there.
    var scope: ProjectScope
    /// The `X-Firebase-Locale` header (the app's language code), when it is a well-formed tag.
    var locale: String? = nil
    /// The `Host` the request was sent to.
    var host: String? = nil
    /// The `Accept` header.
    var accept: String? = nil

    init(caller: Caller, body: JSONObject, query: QueryParameters, pathParameters: [String: String],
         environment: EmulatorEnvironment, scope: ProjectScope, locale: String? = nil, host: String? = nil,
         accept: String? = nil) {
        self.caller = caller
        self.body = body
        self.query = query
        self.pathParameters = pathParameters
        self.environment = environment
        self.scope = scope
        self.locale = locale
        self.host = host
        self.accept = accept
    }

    /// The client asked for HTML, as browsers do; API clients ask for JSON or anything.
    var prefersHTML: Bool { accept?.lowercased().contains("text/html") == true }

    /// `http://host[:port]` as the client reached the emulator (its `Host`), else where it listens.
    var origin: String {
        if let host, !host.isEmpty, !host.contains(where: { $0 == "/" || $0 == " " || $0 == "," }) { return "http://\(host)" }
        return environment.baseURL()
    }

    var isAdmin: Bool { caller.isAdmin }
    var projectId: String { scope.projectId }
    var tenantId: String? { scope.tenantId }

    /// `text` decoded as an ID token: the body's `idToken` was decoded already (`ProjectScope`).
    func idToken(_ text: String) throws(ApiError) -> IdTokenVerifier.Parsed {
        if let parsed = scope.idToken, body["idToken"]?.stringValue == text { return parsed }
        return try IdTokenVerifier.parse(text, log: environment.log)
    }

    /// The account of ID token `text` in `project`, checked (`IdTokenVerifier.verify`).
    func verifyIdToken(_ text: String, in project: borrowing ProjectState) throws(ApiError) -> IdTokenVerifier.Verified {
        try IdTokenVerifier.check(idToken(text), in: project)
    }

    func decodeBody<T: Decodable>(as type: T.Type) throws(ApiError) -> T {
        try JSONCoding.decode(type, from: body)
    }

    /// The fields of a form body (`Operation.Body.form`).
    var formFields: QueryParameters {
        QueryParameters(pairs: body.map { ($0.key, $0.value.stringValue ?? "") })
    }
}

/// Services shared by every handler.
struct EmulatorEnvironment: Sendable {
    var defaultProjectId: String
    var clock: EmulatorClock
    var log: EmulatorLog
    /// `http://host:port` where the emulator listens, for action links.
    var baseURL: @Sendable () -> String
    /// How blocking functions are called.
    var functions: FunctionTransport = .http()
}
