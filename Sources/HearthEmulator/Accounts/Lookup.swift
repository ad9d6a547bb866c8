import HearthWire

/// `accounts:lookup`: the account of an `idToken`, or for admins the accounts matching any of the
/// given ids, emails, phone numbers or linked identities. `users` is omitted when nothing matches.
enum Lookup {
    static let schema = RequestSchema([
        "delegatedProjectNumber": .int64, "email": .array(.string),
        "federatedUserId": .array(.message(RequestSchema(["providerId": .string, "rawId": .string]))),
        "idToken": .string, "initialEmail": .array(.string), "localId": .array(.string),
        "phoneNumber": .array(.string), "targetProjectId": .string, "tenantId": .string,
    ])

    /// Read straight from the validated body: the schema has made every field the type below
    /// (arrays hold no nulls).
    struct FederatedUserId {
        var providerId: String?
        var rawId: String?
    }

    struct Request {
        var idToken: String?
        var localId: [String]?
        var email: [String]?
        var phoneNumber: [String]?
        var initialEmail: [String]?
        var federatedUserId: [FederatedUserId]?

        init(_ body: JSONObject) {
            idToken = body["idToken"]?.stringValue
            localId = Self.strings(body["localId"])
            email = Self.strings(body["email"])
            phoneNumber = Self.strings(body["phoneNumber"])
            initialEmail = Self.strings(body["initialEmail"])
            federatedUserId = body["federatedUserId"]?.arrayValue?.map { item in
                let id = item.objectValue
                return FederatedUserId(providerId: id?["providerId"]?.stringValue, rawId: id?["rawId"]?.stringValue)
            }
        }

        private static func strings(_ value: JSONValue?) -> [String]? {
            value?.arrayValue?.map { $0.stringValue ?? "" }
        }
    }

    struct Response: DirectJSON, Sendable {
        let kind = "identitytoolkit#GetAccountInfoResponse"
        var users: [UserRecord]?

        func writeJSON(into out: inout [UInt8]) {
            JSONObjectWriter.write(into: &out) { object, out in
                object.string("kind", kind, into: &out)
                object.array("users", users, into: &out)
            }
        }
    }

    static let operation = Operation(
        "identitytoolkit.accounts.lookup", body: .json(schema), tenantGates: [.enabled], handler: .scoped(handle))
    static let adminOperation = Operation(
        "identitytoolkit.projects.accounts.lookup", body: .json(schema), tenantGates: [.enabled], handler: .scoped(handle))

    /// Read-only: the project is locked for reading only while accounts are looked up.
    static func handle(_ request: OperationRequest, _ project: LockedProject) throws(ApiError) -> Reply {
        let body = Request(request.body)
        var users: [UserRecord] = []
        if request.isAdmin {
            if body.initialEmail != nil {
                throw .notImplemented("Lookup by initialEmail is not implemented.")
            }
            users = project.read { project in
                var users: [UserRecord] = []
                var seen = Set<String>()
                func add(_ user: UserRecord?) {
                    if let user, seen.insert(user.localId).inserted { users.append(user) }
                }
                for localId in body.localId ?? [] { add(project.user(localId: localId)) }
                // Stored addresses are lower case; an address given in another case still finds its account.
                for email in body.email ?? [] { add(project.user(email: EmailAddress.canonical(email))) }
                for phone in body.phoneNumber ?? [] { add(project.user(phoneNumber: phone)) }
                for id in body.federatedUserId ?? [] {
                    guard let providerId = id.providerId, !providerId.isEmpty,
                          let rawId = id.rawId, !rawId.isEmpty else { continue }
                    add(project.user(providerId: providerId, rawId: rawId))
                }
                return users
            }
        } else {
            let idToken = try requiredText(body.idToken, "MISSING_ID_TOKEN")
            let token = try request.idToken(idToken)
            users.append(try project.read { project throws(ApiError) in try IdTokenVerifier.check(token, in: project).user })
        }
        return Reply(Response(users: users.isEmpty ? nil : users))
    }
}
