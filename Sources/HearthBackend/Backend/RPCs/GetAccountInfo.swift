import HearthWire

/// `accounts:lookup` for the signed-in user.
package struct GetAccountInfo: BackendRPC {
    package var idToken: String

    package init(idToken: String) {
        self.idToken = idToken
    }

    package var endpoint: Endpoint { Self.lookup }
    private static let lookup = Endpoint.identityToolkitV1("accounts:lookup")

    package func encodeBody() -> [UInt8] {
        JSONObjectWriter.document(capacity: 16 + idToken.utf8.count) { body, out in
            body.string("idToken", idToken, into: &out)
        }
    }

    /// The one user of `users[]`. No users means the account is gone (the emulator omits `users` then);
    /// more than one cannot answer a lookup by ID token.
    package func decode(_ object: JSONObject) throws(AuthError) -> UserRecord {
        try decode(Members(object))
    }

    package func decode(plainSuccess body: [UInt8]) -> Result<UserRecord, AuthError>? {
        PlainSuccess.decode(body) { (members: Members) throws(AuthError) in try decode(members) }
    }

    func decode(_ members: Members) throws(AuthError) -> UserRecord {
        // A deleted user's token is refused with USER_NOT_FOUND (an error envelope). A 200 without the
        // user is not that: it is an answer Hearth cannot use (iOS: internal error), and must not end
        // the session.
        guard let user = members.users.first else {
            throw .malformedResponse("no user in the lookup answer")
        }
        guard members.users.count == 1 else {
            throw .malformedResponse("\(members.users.count) users for one ID token")
        }
        return try UserRecord(user)
    }

    struct Members: JSONMembers {
        var users: [UserRecord.Members] = []

        mutating func read<Source: JSONMemberSource>(_ key: JSONKey, _ source: inout Source) throws(JSONParseError) {
            switch key {
            case "users": users = try source.objects(UserRecord.Members.self)
            default: try source.skip()
            }
        }
    }
}
