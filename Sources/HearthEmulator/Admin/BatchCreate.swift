/// `projects/{p}/accounts:batchCreate` (the Admin SDKs' `importUsers`): creates accounts with the
/// fields given, as `AccountImport` describes; the accounts that cannot be created are listed in
/// `error` by index and the others are created. Passwords are the emulator's fake hashes or
/// `rawPassword`; the hashing parameters of production uploads are accepted and not used.
enum BatchCreate {
    static let schema = RequestSchema([
        "users": .array(.message(AccountImport.userSchema)), "allowOverwrite": .bool, "sanityCheck": .bool,
        "tenantId": .string, "hashAlgorithm": .string, "signerKey": .string, "saltSeparator": .string,
        "rounds": .int32, "memoryCost": .int32, "cpuMemCost": .int32, "parallelization": .int32,
        "blockSize": .int32, "dkLen": .int32, "passwordHashOrder": .string, "delegatedProjectNumber": .int64,
        "argon2Parameters": .any,
    ])

    struct Request: Decodable {
        var users: [AccountImport.User]?
        var allowOverwrite: Bool?
        var sanityCheck: Bool?
    }

    struct Failure: Encodable {
        var index: Int
        var message: String
    }

    struct Response: Encodable {
        let kind = "identitytoolkit#UploadAccountResponse"
        var error: [Failure]
    }

    static let operation = Operation(
        "identitytoolkit.projects.accounts.batchCreate", body: .json(schema), tenantGates: [.enabled], handler: handle)

    static func handle(_ project: inout ProjectState, _ request: OperationRequest) throws(ApiError) -> Reply {
        let body = try request.decodeBody(as: Request.self)
        let users = body.users ?? []
        try require(!users.isEmpty, "MISSING_USER_ACCOUNT")
        let failures = try AccountImport.load(
            users, allowOverwrite: body.allowOverwrite == true, sanityCheck: body.sanityCheck == true,
            into: &project, clock: request.environment.clock)
        return Reply(Response(error: failures.map { Failure(index: $0.index, message: $0.message) }))
    }
}
