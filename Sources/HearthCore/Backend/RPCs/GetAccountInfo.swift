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
        guard let user = users.first else {
            throw AuthError(code: .userNotFound, body: .object(object))
        }
        guard users.count == 1 else {
            throw .malformedResponse("\(users.count) users for one ID token")
        }
        return try UserRecord(decoding: user)
    }
}
