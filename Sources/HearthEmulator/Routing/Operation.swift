import Hummingbird

typealias HTTPMethod = HTTPRequest.Method

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
    }

    typealias Handler = @Sendable (inout ProjectState, OperationRequest) throws(ApiError) -> JSONReply

    let id: String
    let access: AccessPolicy
    let body: Body
    let handler: Handler

    init(_ id: String, access: AccessPolicy = .apiKeyOrAdmin, body: Body = .none, handler: @escaping Handler) {
        self.id = id
        self.access = access
        self.body = body
        self.handler = handler
    }

    /// The reference's answer for a spec method without a handler.
    static func notImplemented(_ spec: SpecRoute) -> Operation {
        Operation(spec.operationId, access: spec.access) { _, _ throws(ApiError) in
            throw .notImplemented("\(spec.operationId) is not implemented in the Auth Emulator.")
        }
    }
}

/// An answer: a status and a JSON body, or a redirect.
struct JSONReply: Sendable {
    var status: HTTPResponse.Status = .ok
    var body: [UInt8]
    /// `Location` of a 303 redirect.
    var location: String?

    init<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok) {
        self.status = status
        self.body = JSONCoding.encode(value)
    }

    static func redirect(to location: String) -> JSONReply {
        var reply = JSONReply(JSONValue.object(JSONObject()), status: .seeOther)
        reply.location = location
        return reply
    }
}

/// What a handler is given besides the project state.
struct OperationRequest: Sendable {
    var caller: Caller
    var body: JSONObject
    var query: QueryParameters
    var pathParameters: [String: String]
    var environment: EmulatorEnvironment

    var isAdmin: Bool { caller.isAdmin }

    func decodeBody<T: Decodable>(as type: T.Type) throws(ApiError) -> T {
        try JSONCoding.decode(type, from: body)
    }
}

/// Services shared by every handler.
struct EmulatorEnvironment: Sendable {
    var defaultProjectId: String
    var clock: EmulatorClock
    var log: EmulatorLog
    /// `http://host:port` where the emulator listens, for action links.
    var baseURL: @Sendable () -> String
}
