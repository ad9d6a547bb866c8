/// An error answered in Google's error envelope. Handlers throw these; the responder encodes them.
///
/// The classes mirror the Firebase Auth Emulator's: a plain bad request (400, no `status`), and the
/// canonical Google API errors that carry a `status` name.
struct ApiError: Error, Sendable, Equatable {
    struct Item: Sendable, Equatable {
        var message: String
        var reason: String
        var domain: String? = "global"
        var location: String? = nil
        var locationType: String? = nil
    }

    var httpStatus: Int
    var status: String?
    var message: String
    var items: [Item]

    init(httpStatus: Int, status: String?, message: String, items: [Item]) {
        self.httpStatus = httpStatus
        self.status = status
        self.message = message
        self.items = items
    }

    init(httpStatus: Int, status: String?, message: String, reason: String, domain: String? = nil) {
        self.init(httpStatus: httpStatus, status: status, message: message,
                  items: [Item(message: message, reason: reason, domain: domain)])
    }

    /// `CODE` or `CODE : detail`, the message clients split on " : ".
    static func badRequest(_ message: String) -> ApiError {
        ApiError(httpStatus: 400, status: nil, message: message, reason: "invalid", domain: "global")
    }

    static func invalidArgument(_ message: String, reason: String = "invalid") -> ApiError {
        ApiError(httpStatus: 400, status: "INVALID_ARGUMENT", message: message, reason: reason, domain: "global")
    }

    static func notImplemented(_ message: String) -> ApiError {
        ApiError(httpStatus: 501, status: "NOT_IMPLEMENTED", message: message, reason: "unimplemented")
    }

    static let notFound = ApiError(httpStatus: 404, status: "NOT_FOUND", message: "Not Found", reason: "notFound")

    static let missingApiKey = ApiError(
        httpStatus: 403, status: "PERMISSION_DENIED",
        message: "The request is missing a valid API key.", reason: "forbidden", domain: "global")

    static let invalidCredentials = ApiError(
        httpStatus: 401, status: "UNAUTHENTICATED",
        message: "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.",
        items: [Item(message: "Invalid Credentials", reason: "authError", domain: "global",
                     location: "Authorization", locationType: "header")])

    static func payloadTooLarge(limit: Int) -> ApiError {
        ApiError(httpStatus: 413, status: "INVALID_ARGUMENT",
                 message: "Request payload is larger than the limit of \(limit) bytes.",
                 reason: "payloadTooLarge", domain: "global")
    }

    static func internalError(_ message: String) -> ApiError {
        ApiError(httpStatus: 500, status: "INTERNAL", message: message, reason: "internal")
    }
}

/// Throws `ApiError.badRequest(message)` unless `condition` holds: the emulator's `assert`.
@inline(__always)
func require(_ condition: Bool, _ message: @autoclosure () -> String) throws(ApiError) {
    if !condition { throw .badRequest(message()) }
}

/// Unwraps `value` or throws `ApiError.badRequest(message)`.
@inline(__always)
func required<T>(_ value: T?, _ message: @autoclosure () -> String) throws(ApiError) -> T {
    guard let value else { throw .badRequest(message()) }
    return value
}

/// Unwraps a string that must be present and non-empty (JavaScript truthiness, as the reference checks it).
@inline(__always)
func requiredText(_ value: String?, _ message: @autoclosure () -> String) throws(ApiError) -> String {
    guard let value, !value.isEmpty else { throw .badRequest(message()) }
    return value
}
