/// The console's answers, each with the fields that keep other sites from using them: no CORS
/// (the console's responses are for its own page only), no sniffing, no framing, no caching of
/// anything that carries data or the token.
enum ConsoleResponse {
    static func json(_ body: [UInt8], status: HTTPStatus = .ok) -> EmulatorResponse {
        EmulatorResponse(status: status, headers: fields([
            ("Content-Type", Reply.jsonContentType), ("Cache-Control", "no-store"),
        ]), body: body)
    }

    static func json<T: Encodable>(_ value: T, status: HTTPStatus = .ok) -> EmulatorResponse {
        json(JSONCoding.encode(value), status: status)
    }

    /// Google's error envelope, as the REST routes answer, so the page reads both alike.
    static func error(_ error: ApiError) -> EmulatorResponse {
        json(JSONCoding.encode(error.envelope), status: HTTPStatus(code: error.httpStatus))
    }

    static func text(_ message: String, status: Int) -> EmulatorResponse {
        EmulatorResponse(status: HTTPStatus(code: status), headers: fields([
            ("Content-Type", "text/plain; charset=utf-8"), ("Cache-Control", "no-store"),
        ]), body: Array((message + "\n").utf8))
    }

    static func redirect(to location: String) -> EmulatorResponse {
        EmulatorResponse(status: HTTPStatus(code: 308), headers: fields([("Location", location), ("Cache-Control", "no-store")]))
    }

    static func methodNotAllowed(allowing allowed: String, api: Bool) -> EmulatorResponse {
        var response = api
            ? error(ApiError(httpStatus: 405, status: "INVALID_ARGUMENT", message: "Method not allowed here; use \(allowed).",
                             reason: "invalid", domain: "global"))
            : text("Method not allowed; use \(allowed).", status: 405)
        response.headers.append(("Allow", allowed))
        return response
    }

    /// A file to save (`Content-Disposition: attachment`).
    static func download(_ body: [UInt8], contentType: String, fileName: String) -> EmulatorResponse {
        EmulatorResponse(status: .ok, headers: fields([
            ("Content-Type", contentType), ("Cache-Control", "no-store"),
            ("Content-Disposition", "attachment; filename=\"\(fileName)\""),
        ]), body: body)
    }

    /// `specific`, then what every console answer carries.
    static func fields(_ specific: [(name: String, value: String)]) -> [(name: String, value: String)] {
        specific + [
            ("X-Content-Type-Options", "nosniff"),
            ("Referrer-Policy", "no-referrer"),
            // Other sites cannot load the console's answers as images, scripts or media either.
            ("Cross-Origin-Resource-Policy", "same-origin"),
            ("X-Frame-Options", "DENY"),
        ]
    }
}
