/// `accounts:lookup` for the signed-in user.
public struct GetAccountInfo: BackendRPC {
    public var idToken: String

    public init(idToken: String) {
        self.idToken = idToken
    }

    public var endpoint: Endpoint { .identityToolkitV1("accounts:lookup") }

    public func encodeBody() -> [UInt8] {
        let body: JSONValue = ["idToken": .string(idToken)]
        return body.serialized()
    }

    /// The one user of `users[]`. No users means the account is gone (the emulator omits `users` then);
    /// more than one cannot answer a lookup by ID token.
    public func decode(_ object: JSONObject) throws(AuthError) -> UserRecord {
        let users = ResponseReader(object).objects("users")
        // A deleted user's token is refused with USER_NOT_FOUND (an error envelope). A 200 without the
        // user is not that: it is an answer Hearth cannot use (iOS: internal error), and must not end
        // the session.
        guard let user = users.first else {
            throw .malformedResponse("no user in the lookup answer")
        }
        guard users.count == 1 else {
            throw .malformedResponse("\(users.count) users for one ID token")
        }
        return try UserRecord(decoding: user)
    }
}
