/// `projects/{p}/accounts:batchDelete`: deletes up to 1000 accounts; enabled accounts are only
/// deleted with `force`, otherwise each is reported in `errors`.
enum BatchDelete {
    static let schema = RequestSchema(["force": .bool, "localIds": .array(.string), "tenantId": .string])

    struct Request: Decodable {
        var localIds: [String]?
        var force: Bool?
    }

    struct Failure: Encodable {
        var index: Int
        var localId: String
        var message: String
    }

    struct Response: Encodable {
        var errors: [Failure]?
    }

    static let operation = Operation(
        "identitytoolkit.projects.accounts.batchDelete", body: .json(schema), handler: handle)

    static func handle(_ project: inout ProjectState, _ request: OperationRequest) throws(ApiError) -> Reply {
        let body = try request.decodeBody(as: Request.self)
        let localIds = body.localIds ?? []
        try require(!localIds.isEmpty && localIds.count <= 1000, "LOCAL_ID_LIST_EXCEEDS_LIMIT")
        var failures: [Failure] = []
        for (index, localId) in localIds.enumerated() {
            guard let user = project.user(localId: localId) else { continue }
            if !user.isDisabled && body.force != true {
                failures.append(Failure(
                    index: index, localId: localId, message: "NOT_DISABLED : Disable the account before batch deletion."))
            } else {
                project.deleteUser(localId: localId)
            }
        }
        return Reply(Response(errors: failures.isEmpty ? nil : failures))
    }
}
