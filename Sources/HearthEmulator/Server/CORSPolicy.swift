/// Open CORS, as the reference configures it: every origin and every requested header is reflected,
/// and private-network access is granted when a browser asks. The APIs use no cookies, so this is safe.
enum CORSPolicy {
    static let allowedMethods = "GET,HEAD,PUT,PATCH,POST,DELETE"

    static func isPreflight(_ method: HTTPMethod, _ headers: RequestHeaders) -> Bool {
        method == .options && headers.origin != nil && headers.accessControlRequestMethod != nil
    }

    static func preflightResponse(for headers: RequestHeaders) -> EmulatorResponse {
        var response = EmulatorResponse(status: .noContent)
        apply(to: &response.headers, for: headers)
        response.headers.append(("Access-Control-Allow-Methods", allowedMethods))
        if let requested = headers.accessControlRequestHeaders {
            response.headers.append(("Access-Control-Allow-Headers", requested))
        }
        return response
    }

    static func apply(to fields: inout [(name: String, value: String)], for headers: RequestHeaders) {
        if let origin = headers.origin {
            fields.append(("Access-Control-Allow-Origin", origin))
            fields.append(("Vary", "Origin"))
        }
        if headers.accessControlRequestPrivateNetwork != nil {
            fields.append(("Access-Control-Allow-Private-Network", "true"))
        }
    }
}
