/// The project-scoped methods the Admin SDKs call with `Authorization: Bearer owner`, for the
/// project and for each of its tenants.
enum AdminRoutes {
    static let projects = "/identitytoolkit.googleapis.com/v1/projects/{targetProjectId}"
    static let tenant = "\(projects)/tenants/{tenantId}"

    static let routes: [Route] = projectRoutes + tenantRoutes

    static let tenantRoutes: [Route] = [
        Route(.post, "\(tenant)/accounts", SignUp.adminOperation),
        Route(.post, "\(tenant):createSessionCookie", CreateSessionCookie.operation),
        Route(.post, "\(tenant)/accounts:batchCreate", BatchCreate.operation),
        Route(.post, "\(tenant)/accounts:batchDelete", BatchDelete.operation),
        Route(.get, "\(tenant)/accounts:batchGet", BatchGet.operation),
        Route(.post, "\(tenant)/accounts:delete", DeleteAccount.adminOperation),
        Route(.post, "\(tenant)/accounts:lookup", Lookup.adminOperation),
        Route(.post, "\(tenant)/accounts:query", QueryAccounts.operation),
        Route(.post, "\(tenant)/accounts:sendOobCode", SendOobCode.adminOperation),
        Route(.post, "\(tenant)/accounts:update", UpdateAccount.adminOperation),
    ]

    static let projectRoutes: [Route] = [
        Route(.post, "\(projects):createSessionCookie", CreateSessionCookie.operation),
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
