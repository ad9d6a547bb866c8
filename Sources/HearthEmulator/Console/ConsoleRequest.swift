import NIOCore
import NIOHTTP1

/// A request for the console: the emulator's view of it plus every header field, because the
/// console checks fields the REST surface never reads (`Host`, `Origin`, `Sec-Fetch-Site`, its token).
struct ConsoleRequest: Sendable {
    var method: HTTPMethod
    /// As sent (still percent-encoded).
    var path: String
    var rawQuery: String?
    var query: QueryParameters
    var fields: HTTPHeaders
    var body: EmulatorRequest.Body

    init(_ request: EmulatorRequest, fields: HTTPHeaders) {
        method = request.method
        path = request.path
        rawQuery = request.query
        query = QueryParameters(request.query)
        self.fields = fields
        body = request.body
    }

    /// The field's value; several fields of one name read as their values joined by ", ".
    func field(_ name: String) -> String? {
        let values = fields[name]
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }

    var isRead: Bool { method == .get || method == .head }
}

/// How the console answers: at once, or once something happens (a long poll).
enum ConsoleAnswer: Sendable {
    case now(EmulatorResponse)
    case later(LongPoll)
}

/// An answer that waits for a change: the connection asks `check` every `interval` on its event
/// loop until it gives an answer; after `timeout` (or when the server shuts down) `timedOut` answers.
struct LongPoll: Sendable {
    var interval: TimeAmount
    var timeout: TimeAmount
    var check: @Sendable () -> EmulatorResponse?
    var timedOut: @Sendable () -> EmulatorResponse
}
