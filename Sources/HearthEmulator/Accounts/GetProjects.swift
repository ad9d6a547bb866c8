/// `GET v1/projects`: the project config clients read for authorized domains.
enum GetProjects {
    struct Response: Encodable {
        var projectId: String
        var authorizedDomains = ["localhost"]
    }

    static let operation = Operation("identitytoolkit.getProjects", tenantGates: [.enabled, .projectOnly]) { project, _ throws(ApiError) in
        Reply(Response(projectId: project.projectNumber))
    }
}
