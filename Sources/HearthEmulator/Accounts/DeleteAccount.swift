/// `accounts:delete`: the account of an `idToken`, or for admins the account `localId`.
enum DeleteAccount {
    static let schema = RequestSchema([
        "delegatedProjectNumber": .int64, "idToken": .string, "localId": .string,
        "targetProjectId": .string, "tenantId": .string,
    ])

    struct Request: Decodable {
        var idToken: String?
        var localId: String?
    }

    struct Response: Encodable {
        let kind = "identitytoolkit#DeleteAccountResponse"
    }

    static let operation = Operation(
        "identitytoolkit.accounts.delete", body: .json(schema), tenantGates: [.enabled], handler: handle)
    static let adminOperation = Operation(
        "identitytoolkit.projects.accounts.delete", body: .json(schema), tenantGates: [.enabled], handler: handle)

    static func handle(_ project: inout ProjectState, _ request: OperationRequest) throws(ApiError) -> Reply {
        let body = try request.decodeBody(as: Request.self)
        let user: UserRecord
        if request.isAdmin {
            let localId = try requiredText(body.localId, "MISSING_LOCAL_ID")
            user = try required(project.user(localId: localId), "USER_NOT_FOUND")
        } else {
            let idToken = try requiredText(body.idToken, "MISSING_ID_TOKEN")
            let verified = try request.verifyIdToken(idToken, in: project)
            try RecentLogin.require(verified, in: project, clock: request.environment.clock)
            user = verified.user
        }
        project.deleteUser(localId: user.localId)
        return Reply(Response())
    }
}
