/// The project-scoped methods the Admin SDKs call with `Authorization: Bearer owner`.
enum AdminRoutes {
    static let projects = "/identitytoolkit.googleapis.com/v1/projects/{targetProjectId}"

    static let routes: [Route] = [
        Route(.post, "\(projects)/accounts", SignUp.adminOperation),
        Route(.post, "\(projects)/accounts:lookup", Lookup.adminOperation),
        Route(.post, "\(projects)/accounts:update", UpdateAccount.adminOperation),
        Route(.post, "\(projects)/accounts:delete", DeleteAccount.adminOperation),
        Route(.post, "\(projects)/accounts:sendOobCode", SendOobCode.adminOperation),
        Route(.get, "\(projects)/accounts:batchGet", BatchGet.operation),
        Route(.post, "\(projects)/accounts:batchCreate", BatchCreate.operation),
        Route(.post, "\(projects)/accounts:batchDelete", BatchDelete.operation),
        Route(.post, "\(projects)/accounts:query", QueryAccounts.operation),
        Route(.post, "\(projects):queryAccounts", QueryAccounts.projectOperation),
    ]
}
