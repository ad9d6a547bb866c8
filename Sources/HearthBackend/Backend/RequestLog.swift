import HearthTransport

/// The DEBUG line of one request: what was asked and how it ended. Never the bodies (they carry
/// passwords, codes and tokens) nor query values (the API key).
enum RequestLog {
    static func line<Value>(_ request: HTTPRequest, _ result: Result<HTTPResponse, TransportError>,
                            _ outcome: Result<Value, AuthError>, startedMs: Int64) -> String {
        let ended: String
        switch (result, outcome) {
        case (.failure(.cancelled), _):
            ended = "cancelled"
        case (.failure(.timedOut(let detail)), _):
            ended = "timed out (\(detail))"
        case (.failure(.network(let detail)), _):
            ended = "network error (\(detail))"
        case (.success(let response), .success):
            ended = "HTTP \(response.status)"
        case (.success(let response), .failure(let error)):
            ended = "HTTP \(response.status), \(error.code.name)" + (error.serverCode.map { " (\($0))" } ?? "")
        }
        return "\(request.method) \(LogRedaction.url(request.url)): \(ended) in \(Log.monotonicMs() - startedMs) ms"
    }
}
