/// The Secure Token API.
enum TokenRoutes {
    static let routes: [Route] = [
        Route(.post, "/securetoken.googleapis.com/v1/token", GrantToken.operation),
    ]
}
