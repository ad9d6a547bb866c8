import HearthWire

/// `projects/{p}/accounts:query` (and `projects/{p}:queryAccounts`): every account sorted by user id,
/// or only the count with `returnUserInfo: false`. Filters, limits and offsets answer 501 as in the
/// reference.
enum QueryAccounts {
    static let schema = RequestSchema([
        "expression": .array(.message(RequestSchema(["email": .string, "phoneNumber": .string, "userId": .string]))),
        "limit": .int64, "offset": .int64,
        "order": .enumeration(["ORDER_UNSPECIFIED", "ASC", "DESC"]), "returnUserInfo": .bool,
        "sortBy": .enumeration(["SORT_BY_FIELD_UNSPECIFIED", "USER_ID", "NAME", "CREATED_AT", "LAST_LOGIN_AT", "USER_EMAIL"]),
        "tenantId": .string,
    ])

    struct Request: Decodable {
        var expression: [JSONValue]?
        var limit: String?
        var offset: String?
        var order: String?
        var returnUserInfo: Bool?
        var sortBy: String?
    }

    struct Response: Encodable {
        var recordsCount: String
        var userInfo: [UserRecord]?
    }

    static let operation = Operation(
        "identitytoolkit.projects.accounts.query", body: .json(schema), tenantGates: [.enabled], handler: handle)
    static let projectOperation = Operation(
        "identitytoolkit.projects.queryAccounts", body: .json(schema), tenantGates: [.enabled], handler: handle)

    static func handle(_ project: inout ProjectState, _ request: OperationRequest) throws(ApiError) -> Reply {
        let body = try request.decodeBody(as: Request.self)
        if body.expression?.isEmpty == false { throw .notImplemented("expression is not implemented.") }
        if body.returnUserInfo == false {
            return Reply(Response(recordsCount: String(project.userCount)))
        }
        if !(body.limit ?? "").isEmpty { throw .notImplemented("limit is not implemented.") }
        if let offset = body.offset, offset != "0", !offset.isEmpty {
            throw .notImplemented("offset is not implemented.")
        }
        let sortBy = body.sortBy ?? "SORT_BY_FIELD_UNSPECIFIED"
        guard sortBy == "USER_ID" || sortBy == "SORT_BY_FIELD_UNSPECIFIED" else {
            throw .notImplemented("Only sorting by USER_ID is implemented.")
        }
        let users = project.usersSortedByLocalId(descending: body.order == "DESC")
        return Reply(Response(recordsCount: String(users.count), userInfo: users))
    }
}
