/// `GET projects/{p}/accounts:batchGet?maxResults=&nextPageToken=[&tenantId=]`: accounts ordered by
/// localId, a page at a time (20 by default, at most 1000; -1 returns all, as in the reference).
/// On the project's path, `tenantId` in the query lists that tenant's accounts instead.
enum BatchGet {
    struct Response: Encodable {
        let kind = "identitytoolkit#DownloadAccountResponse"
        var users: [UserRecord]
        var nextPageToken: String?
    }

    static let operation = Operation(
        "identitytoolkit.projects.accounts.batchGet", tenantGates: [.enabled], queryTenant: ["tenantId"], handler: handle)

    static func handle(_ project: inout ProjectState, _ request: OperationRequest) throws(ApiError) -> Reply {
        let maxResults = try pageSize(request.query["maxResults"])
        let pageToken = request.query["nextPageToken"].flatMap { $0.isEmpty ? nil : $0 }
        var users = project.usersSortedByLocalId(after: pageToken)
        var nextPageToken: String?
        if maxResults >= 0 && users.count >= maxResults {
            users = Array(users.prefix(maxResults))
            nextPageToken = users.last?.localId
        }
        return Reply(Response(users: users, nextPageToken: nextPageToken))
    }

    private static func pageSize(_ text: String?) throws(ApiError) -> Int {
        guard let text, !text.isEmpty else { return 20 }
        guard let value = Int32(text) else {
            throw .invalidArgument("Invalid value at 'maxResults' (TYPE_INT32), \"\(text)\"")
        }
        // 0 falls back to the default, like `|| 20` in the reference.
        return value == 0 ? 20 : min(Int(value), 1000)
    }
}
