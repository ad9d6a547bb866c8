/// A response status code; the server adds the reason phrase.
struct HTTPStatus: Hashable, Sendable {
    let code: Int

    static let ok = HTTPStatus(code: 200)
    static let noContent = HTTPStatus(code: 204)
    static let seeOther = HTTPStatus(code: 303)
    static let badRequest = HTTPStatus(code: 400)
}
