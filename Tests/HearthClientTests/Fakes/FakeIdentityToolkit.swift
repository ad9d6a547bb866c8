@testable import HearthTransport
import HearthWire
import XCTest

/// Identity Toolkit and securetoken on the far side of Auth's transport, with answers the test controls:
/// Auth's own code runs as in production (requests built, answers decoded by the backend layer).
/// Requests arrive on the loop thread; answers are delivered there on a later turn, as the transport
/// contract says. Token refreshes wait until the test answers them.
final class FakeIdentityToolkit: HTTPTransport, @unchecked Sendable {
    private struct Exchange {
        let request: HTTPRequest
        let completion: (Result<HTTPResponse, TransportError>) -> Void
    }

    private struct State {
        var requests: [HTTPRequest] = []
        var heldRefreshes: [Exchange] = []
        var lookupUser: JSONObject
        var idpAnswer: JSONObject?
        var nextID: UInt64 = 1
    }

    let loop: EventLoop
    private let state: Locked<State>

    /// The signed-in account accounts:lookup describes: `uid` with an email and a password.
    init(loop: EventLoop, uid: String) {
        self.loop = loop
        state = Locked(State(lookupUser: ["localId": .string(uid), "email": .string("\(uid)@example.com"),
                                          "passwordHash": "UkVEQUNURUQ="]))
    }

    /// The `users[]` element accounts:lookup answers with (and accounts:update starts from).
    var lookupUser: JSONObject {
        get { state.withLock { $0.lookupUser } }
        set { state.withLock { $0.lookupUser = newValue } }
    }

    /// What accounts:signInWithIdp answers; nil: INVALID_IDP_RESPONSE.
    var idpAnswer: JSONObject? {
        get { state.withLock { $0.idpAnswer } }
        set { state.withLock { $0.idpAnswer = newValue } }
    }

    // MARK: What was asked

    /// The JSON bodies of the requests to `method` ("accounts:update", ...), in order.
    func bodies(of method: String) -> [JSONObject] {
        state.withLock { $0.requests }.filter { Self.method(of: $0) == method }.compactMap {
            (try? JSONValue.parse($0.body))?.objectValue
        }
    }

    /// Refresh tokens sent to securetoken, in order.
    var refreshedWith: [String] {
        state.withLock { $0.requests }.filter { Self.method(of: $0) == "token" }.compactMap {
            FormFields(parsing: Substring(String(decoding: $0.body, as: UTF8.self)), plusIsSpace: true).first("refresh_token")
        }
    }

    var refreshCount: Int { refreshedWith.count }

    // MARK: Answers

    /// Answers every refresh waiting so far with securetoken's success: `idToken`, `refreshToken` (nil:
    /// none sent, as the service may do), valid for an hour.
    func answerRefreshes(idToken: String, refreshToken: String?) {
        var body: JSONObject = ["id_token": .string(idToken), "access_token": .string(idToken), "expires_in": "3600",
                                "token_type": "Bearer"]
        if let refreshToken { body["refresh_token"] = .string(refreshToken) }
        answerRefreshes(.success(Self.response(200, body)))
    }

    /// Answers every refresh waiting so far with securetoken's error `message` (INVALID_REFRESH_TOKEN, ...).
    func answerRefreshes(error message: String) {
        answerRefreshes(.success(Self.response(400, Self.envelope(400, message))))
    }

    /// Fails every refresh waiting so far in the transport (connection refused, ...).
    func failRefreshes(_ error: TransportError) {
        answerRefreshes(.failure(error))
    }

    private func answerRefreshes(_ result: Result<HTTPResponse, TransportError>) {
        let held = state.withLock { state -> [Exchange] in
            defer { state.heldRefreshes.removeAll() }
            return state.heldRefreshes
        }
        loop.execute { for exchange in held { exchange.completion(result) } }
    }

    // MARK: HTTPTransport

    func send(_ request: HTTPRequest, completion: @escaping (Result<HTTPResponse, TransportError>) -> Void) -> RequestID {
        let method = Self.method(of: request)
        let (id, answer): (UInt64, HTTPResponse?) = state.withLock { state in
            state.requests.append(request)
            defer { state.nextID += 1 }
            if method == "token" {
                state.heldRefreshes.append(Exchange(request: request, completion: completion))
                return (state.nextID, nil)
            }
            return (state.nextID, Self.answer(method, request, &state))
        }
        if let answer { loop.execute { completion(.success(answer)) } }
        return RequestID(id)
    }

    func cancel(_ id: RequestID) {}

    func close() {}

    // MARK: The service's side

    private static func answer(_ method: String, _ request: HTTPRequest, _ state: inout State) -> HTTPResponse {
        let body = (try? JSONValue.parse(request.body))?.objectValue ?? [:]
        switch method {
        case "accounts:signUp":
            return response(200, ["idToken": "id-new", "refreshToken": "r-new", "expiresIn": "3600", "localId": "u"])
        case "accounts:signInWithPassword":
            return response(400, envelope(400, "INVALID_PASSWORD"))
        case "accounts:signInWithCustomToken":
            return response(400, envelope(400, "INVALID_CUSTOM_TOKEN"))
        case "accounts:lookup":
            return response(200, ["users": [.object(state.lookupUser)]])
        case "accounts:update":
            // The account as the server has it after the change: providers unlinked, email replaced.
            let deleted = Set(body["deleteProvider"]?.arrayValue?.compactMap(\.stringValue) ?? [])
            let providers = (state.lookupUser["providerUserInfo"]?.arrayValue ?? []).filter {
                !deleted.contains($0["providerId"]?.stringValue ?? "")
            }
            state.lookupUser["providerUserInfo"] = .array(providers)
            if let email = body["email"] { state.lookupUser["email"] = email }
            var answer: JSONObject = ["localId": state.lookupUser["localId"] ?? "", "providerUserInfo": .array(providers)]
            answer["email"] = state.lookupUser["email"]
            return response(200, answer)
        case "accounts:delete":
            return response(200, [:])
        case "accounts:sendOobCode":
            return response(200, ["email": body["email"] ?? ""])
        case "accounts:createAuthUri":
            if body["providerId"] != nil { return response(400, envelope(400, "INVALID_PROVIDER_ID")) }
            return response(200, ["allProviders": ["password"], "registered": true])
        case "accounts:signInWithIdp":
            return state.idpAnswer.map { response(200, $0) } ?? response(400, envelope(400, "INVALID_IDP_RESPONSE"))
        case "accounts:sendVerificationCode":
            let sent = state.requests.filter { Self.method(of: $0) == method }.count
            return response(200, ["sessionInfo": .string("v\(sent)")])
        default:
            return response(404, envelope(404, "the fake does not answer \(method)"))
        }
    }

    /// The last path segment of the URL: "accounts:update", "token" (securetoken), ...
    static func method(of request: HTTPRequest) -> String {
        let path = request.url.split(separator: "?", maxSplits: 1).first ?? ""
        return String(path.split(separator: "/").last ?? "")
    }

    private static func response(_ status: Int, _ body: JSONObject) -> HTTPResponse {
        HTTPResponse(status: status, body: JSONValue.object(body).serialized(), contentType: "application/json")
    }

    private static func envelope(_ code: Int, _ message: String) -> JSONObject {
        ["error": ["code": .number(Double(code)), "message": .string(message),
                   "errors": [["message": .string(message), "domain": "global", "reason": "invalid"]]]]
    }
}
