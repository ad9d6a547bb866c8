@testable import HearthBackend
@testable import HearthTransport
import HearthWire
import XCTest

/// An `HTTPTransport` that records requests and completes them only when the test says so, which keeps
/// the transport contract: completions never run inside `send`.
final class FakeTransport: HTTPTransport {
    private struct Exchange {
        let id: RequestID
        let request: HTTPRequest
        let completion: (Result<HTTPResponse, TransportError>) -> Void
    }

    private(set) var requests: [HTTPRequest] = []
    private(set) var cancelledIDs: [RequestID] = []
    private var pending: [Exchange] = []
    private var cancelled: [Exchange] = []
    private var nextID: UInt64 = 1

    var pendingCount: Int { pending.count }

    @discardableResult
    func send(_ request: HTTPRequest,
              completion: @escaping (Result<HTTPResponse, TransportError>) -> Void) -> RequestID {
        let id = RequestID(nextID)
        nextID += 1
        requests.append(request)
        pending.append(Exchange(id: id, request: request, completion: completion))
        return id
    }

    func cancel(_ id: RequestID) {
        cancelledIDs.append(id)
        if let index = pending.firstIndex(where: { $0.id == id }) {
            cancelled.append(pending.remove(at: index))
        }
    }

    /// Backend tests never close their transport; Auth's go through `FakeIdentityToolkit`.
    func close() {}

    /// Completes the oldest pending request with a response.
    func reply(status: Int, body: String, contentType: String? = "application/json",
               file: StaticString = #filePath, line: UInt = #line) {
        reply(status: status, bytes: Array(body.utf8), contentType: contentType, file: file, line: line)
    }

    func reply(status: Int, bytes: [UInt8], contentType: String? = "application/json",
               file: StaticString = #filePath, line: UInt = #line) {
        complete(.success(HTTPResponse(status: status, body: bytes, contentType: contentType)), file: file, line: line)
    }

    /// Completes the oldest pending request with a transport failure.
    func fail(_ error: TransportError, file: StaticString = #filePath, line: UInt = #line) {
        complete(.failure(error), file: file, line: line)
    }

    /// Runs the completions of cancelled requests, as a real transport does on a later loop turn.
    func deliverCancellations() {
        let due = cancelled
        cancelled = []
        for exchange in due { exchange.completion(.failure(.cancelled)) }
    }

    private func complete(_ result: Result<HTTPResponse, TransportError>, file: StaticString, line: UInt) {
        guard !pending.isEmpty else {
            XCTFail("no pending request to complete", file: file, line: line)
            return
        }
        pending.removeFirst().completion(result)
    }
}

/// Sends one RPC through a `Backend` on a `FakeTransport`, answers it, and returns what was sent and what
/// came back.
struct BackendHarness {
    let transport = FakeTransport()
    let backend: Backend

    init() { backend = Backend(transport: transport) }

    static let production = BackendConfig(apiKey: "APIKey")
    static let emulator = BackendConfig(apiKey: "fake-key", emulator: EmulatorAddress(host: "127.0.0.1", port: 9099))

    /// The request `rpc` produces, without sending anything.
    static func request<R: BackendRPC>(_ rpc: R, config: BackendConfig = production) -> HTTPRequest {
        Backend.request(for: rpc, config: config)
    }

    func run<R: BackendRPC>(_ rpc: R, config: BackendConfig = BackendHarness.production,
                            file: StaticString = #filePath, line: UInt = #line,
                            answer: (FakeTransport) -> Void) -> Result<R.Response, AuthError>? {
        var outcome: Result<R.Response, AuthError>?
        var calls = 0
        backend.perform(rpc, config: config) { result in
            calls += 1
            outcome = result
        }
        XCTAssertEqual(calls, 0, "completion ran inside perform", file: file, line: line)
        answer(transport)
        XCTAssertEqual(calls, 1, "completion must run exactly once", file: file, line: line)
        return outcome
    }

    /// Answers with `status` and `body` and returns the outcome.
    func run<R: BackendRPC>(_ rpc: R, status: Int, body: String, config: BackendConfig = BackendHarness.production,
                            file: StaticString = #filePath, line: UInt = #line) -> Result<R.Response, AuthError>? {
        run(rpc, config: config, file: file, line: line) { $0.reply(status: status, body: body) }
    }

    /// Expects success and returns the decoded response.
    func decode<R: BackendRPC>(_ rpc: R, body: String, file: StaticString = #filePath,
                               line: UInt = #line) -> R.Response? {
        switch run(rpc, status: 200, body: body, file: file, line: line) {
        case .success(let response)?:
            return response
        case .failure(let error)?:
            XCTFail("expected success, got \(error)", file: file, line: line)
            return nil
        case nil:
            return nil
        }
    }

    /// Expects failure and returns the error.
    func error<R: BackendRPC>(_ rpc: R, status: Int, body: String, file: StaticString = #filePath,
                              line: UInt = #line) -> AuthError? {
        switch run(rpc, status: status, body: body, file: file, line: line) {
        case .failure(let error)?:
            return error
        case .success?:
            XCTFail("expected an error, got success", file: file, line: line)
            return nil
        case nil:
            return nil
        }
    }
}

/// The body of a request decoded with Foundation's JSONDecoder (independent of Hearth's JSON writer).
func decodedJSONBody(_ request: HTTPRequest, file: StaticString = #filePath, line: UInt = #line) -> JSONValue? {
    do {
        return try JSONDecoder().decode(JSONValue.self, from: Data(request.body))
    } catch {
        XCTFail("body is not JSON: \(error)", file: file, line: line)
        return nil
    }
}

func headerLines(_ request: HTTPRequest) -> [String] {
    request.headers.map { "\($0.name): \($0.value)" }
}

/// An unsigned JWT (as the emulator issues) with the given claims.
func makeJWT(_ claims: JSONValue) -> String {
    let header: JSONValue = ["alg": "none", "typ": "JWT"]
    return Base64.urlEncoded(header.serialized()) + "." + Base64.urlEncoded(claims.serialized()) + "."
}
