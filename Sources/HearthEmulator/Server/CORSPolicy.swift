import HTTPTypes
import Hummingbird

/// Open CORS, as the reference configures it: every origin and every requested header is reflected,
/// and private-network access is granted when a browser asks. The APIs use no cookies, so this is safe.
enum CORSPolicy {
    static let allowedMethods = "GET,HEAD,PUT,PATCH,POST,DELETE"

    static func isPreflight(_ request: Request) -> Bool {
        request.method == .options && request.headers[.origin] != nil
            && request.headers[.accessControlRequestMethod] != nil
    }

    static func preflightResponse(for request: Request) -> Response {
        var headers = HTTPFields()
        apply(to: &headers, for: request)
        headers[.accessControlAllowMethods] = allowedMethods
        if let requested = request.headers[.accessControlRequestHeaders] {
            headers[.accessControlAllowHeaders] = requested
        }
        headers[.contentLength] = "0"
        return Response(status: .noContent, headers: headers)
    }

    static func apply(to headers: inout HTTPFields, for request: Request) {
        if let origin = request.headers[.origin] {
            headers[.accessControlAllowOrigin] = origin
            headers[.vary] = "Origin"
        }
        if request.headers[privateNetworkRequest] != nil {
            headers[privateNetworkAllow] = "true"
        }
    }

    private static let privateNetworkRequest = HTTPField.Name("Access-Control-Request-Private-Network")!
    private static let privateNetworkAllow = HTTPField.Name("Access-Control-Allow-Private-Network")!
}
