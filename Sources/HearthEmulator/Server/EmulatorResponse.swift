/// An answer as the responder gives it. The server adds what every answer carries (`Content-Length`,
/// `Date`, `Server`, and `Connection` when it closes).
struct EmulatorResponse: Sendable {
    var status: HTTPStatus
    var headers: [(name: String, value: String)]
    var body: [UInt8]

    init(status: HTTPStatus, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}
