/// `/emulator/ui/api/rest/{path}`: the page's way to the REST surface. The request goes to the
/// emulator's own route with the Admin SDKs' credential (`Bearer owner`), as Firebase's Emulator
/// UI calls it; what makes it the console's is only what `ConsoleAccess` checked on the way in,
/// and that the answer carries no CORS fields.
struct ConsoleForwarding {
    /// The routes the page uses: the Identity Toolkit's and the emulator-only ones. Not the
    /// console's own paths, so nothing forwards to itself.
    static let prefixes = ["/identitytoolkit.googleapis.com/", "/emulator/v1/"]

    let responder: EmulatorResponder

    func forward(_ request: ConsoleRequest, to path: String) -> EmulatorResponse {
        guard Self.prefixes.contains(where: { path.hasPrefix($0) }) else {
            return ConsoleResponse.error(.notFound)
        }
        var headers = RequestHeaders()
        headers.authorization = "Bearer owner"
        headers.contentType = request.field("content-type")
        var body = request.body
        // The REST routes' own limit: the console's larger one is for imports only.
        if case .bytes(let bytes) = body, bytes.count > RequestBodyBuffer.limit { body = .tooLarge }
        let answer = responder.respond(to: EmulatorRequest(
            method: request.method, path: path, query: request.rawQuery, headers: headers, body: body))
        let kept = answer.headers.filter { $0.name == "Content-Type" || $0.name == "Location" }
        return EmulatorResponse(status: answer.status, headers: ConsoleResponse.fields(kept + [("Cache-Control", "no-store")]),
                                body: answer.body)
    }
}
