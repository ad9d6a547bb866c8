/// The small pages the loopback receiver answers the browser with. Self-contained (no scripts, no
/// external resources, so the redirect URL with its code never leaks through a Referer or a fetch),
/// never cached, and each response closes its connection.
struct LoopbackResponsePage: Equatable {
    let status: Int
    let title: String
    let message: String
    var extraHeaders: [(name: String, value: String)] = []

    static let signedIn = LoopbackResponsePage(
        status: 200, title: "Sign-in complete", message: "You can close this window and return to the app.")
    static let signInFailed = LoopbackResponsePage(
        status: 200, title: "Sign-in did not complete",
        message: "The sign-in was cancelled or refused. You can close this window and return to the app.")
    static let notThisSignIn = LoopbackResponsePage(
        status: 400, title: "Not a valid sign-in response",
        message: "This page does not belong to the sign-in the app is waiting for. Start the sign-in again from the app.")
    static let notFound = LoopbackResponsePage(status: 404, title: "Not found", message: "There is nothing here.")
    static let methodNotAllowed = LoopbackResponsePage(
        status: 405, title: "Method not allowed", message: "Only GET and POST are accepted here.",
        extraHeaders: [("Allow", "GET, POST")])
    static let unsupportedMediaType = LoopbackResponsePage(
        status: 415, title: "Unsupported media type",
        message: "A sign-in response must be posted as application/x-www-form-urlencoded.")
    static let requestTimeout = LoopbackResponsePage(
        status: 408, title: "Request timeout", message: "The request took too long to arrive.")

    /// For requests that are not HTTP as the receiver accepts it (`status` 400, 413, 431, 501, 505).
    static func malformed(status: Int) -> LoopbackResponsePage {
        LoopbackResponsePage(status: status, title: reasonPhrase(status), message: "The request could not be read.")
    }

    static func == (lhs: LoopbackResponsePage, rhs: LoopbackResponsePage) -> Bool {
        lhs.status == rhs.status && lhs.title == rhs.title && lhs.message == rhs.message
            && lhs.extraHeaders.elementsEqual(rhs.extraHeaders) { $0 == $1 }
    }

    /// The whole HTTP/1.1 response.
    var bytes: [UInt8] {
        let body = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">\
            <title>\(title)</title><style>body{font-family:system-ui,sans-serif;margin:4em auto;max-width:32em;\
            padding:0 1em;color:#222}</style></head>
            <body><h1>\(title)</h1><p>\(message)</p></body></html>

            """
        var head = "HTTP/1.1 \(status) \(Self.reasonPhrase(status))\r\n"
        let headers: [(String, String)] = [
            ("Content-Type", "text/html; charset=utf-8"),
            ("Content-Length", String(body.utf8.count)),
            ("Cache-Control", "no-store"),
            ("Pragma", "no-cache"),
            ("Connection", "close"),
            ("Referrer-Policy", "no-referrer"),
            ("X-Content-Type-Options", "nosniff"),
            ("X-Frame-Options", "DENY"),
            ("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'"),
        ] + extraHeaders
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        return Array(head.utf8) + Array(body.utf8)
    }

    static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 400: return "Bad Request"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 408: return "Request Timeout"
        case 411: return "Length Required"
        case 413: return "Content Too Large"
        case 415: return "Unsupported Media Type"
        case 431: return "Request Header Fields Too Large"
        case 501: return "Not Implemented"
        case 505: return "HTTP Version Not Supported"
        default: return "Error"
        }
    }
}
