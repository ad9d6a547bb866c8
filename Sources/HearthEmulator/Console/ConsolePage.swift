import Foundation

/// The console's one HTML page. It carries the token the API asks for (`ConsoleAccess`), so it is
/// never cached, and a Content-Security-Policy that lets it run only its own scripts and styles and
/// talk only to its own origin: even a value that slipped past escaping could not run script or
/// send data elsewhere.
enum ConsolePage {
    static let contentSecurityPolicy = [
        "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self'", "connect-src 'self'",
        "form-action 'none'", "frame-ancestors 'none'", "base-uri 'none'",
    ].joined(separator: "; ")

    static func response(token: String, defaultProjectId: String) -> EmulatorResponse {
        let page = template
            .replacingOccurrences(of: "{{TOKEN}}", with: token)
            .replacingOccurrences(of: "{{PROJECT}}", with: HTML.escape(defaultProjectId))
        return EmulatorResponse(status: .ok, headers: ConsoleResponse.fields([
            ("Content-Type", Reply.htmlContentType),
            ("Cache-Control", "no-store"),
            ("Content-Security-Policy", contentSecurityPolicy),
        ]), body: Array(page.utf8))
    }
}
