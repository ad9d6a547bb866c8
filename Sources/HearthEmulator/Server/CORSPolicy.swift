/// Open CORS, as the reference configures it (the `cors` middleware with the origin reflected, in
/// front of every path): any OPTIONS request is a preflight answered 204 with the request's origin
/// and requested headers reflected and every method allowed; other answers reflect the origin.
/// Private-network access is granted whenever a browser asks. The APIs use no cookies, so this is
/// safe.
enum CORSPolicy {
    static let allowedMethods = "GET,HEAD,PUT,PATCH,POST,DELETE"

    static func preflightResponse(for headers: RequestHeaders) -> EmulatorResponse {
        var response = EmulatorResponse(status: .noContent)
        if let origin = headers.origin, !origin.isEmpty {
            response.headers.append(("Access-Control-Allow-Origin", origin))
        }
        response.headers.append(("Vary", "Origin, Access-Control-Request-Headers"))
        response.headers.append(("Access-Control-Allow-Methods", allowedMethods))
        if let requested = headers.accessControlRequestHeaders, !requested.isEmpty {
            response.headers.append(("Access-Control-Allow-Headers", requested))
        }
        allowPrivateNetwork(&response.headers, for: headers)
        return response
    }

    /// What every other answer carries.
    static func apply(to fields: inout [(name: String, value: String)], for headers: RequestHeaders) {
        if let origin = headers.origin, !origin.isEmpty {
            fields.append(("Access-Control-Allow-Origin", origin))
        }
        fields.append(("Vary", "Origin"))
        allowPrivateNetwork(&fields, for: headers)
    }

    private static func allowPrivateNetwork(_ fields: inout [(name: String, value: String)], for headers: RequestHeaders) {
        if let asked = headers.accessControlRequestPrivateNetwork, !asked.isEmpty {
            fields.append(("Access-Control-Allow-Private-Network", "true"))
        }
    }
}
