/// A request method, compared by its exact name (methods are case-sensitive, RFC 9110 §9.1).
struct HTTPMethod: Hashable, Sendable, CustomStringConvertible {
    let rawValue: String

    init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    static let get = HTTPMethod("GET")
    static let head = HTTPMethod("HEAD")
    static let post = HTTPMethod("POST")
    static let put = HTTPMethod("PUT")
    static let patch = HTTPMethod("PATCH")
    static let delete = HTTPMethod("DELETE")
    static let options = HTTPMethod("OPTIONS")

    var description: String { rawValue }
}
