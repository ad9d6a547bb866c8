import HearthWire

/// `accounts:delete` for the signed-in user.
public struct DeleteAccount: BackendRPC {
    public var idToken: String

    public init(idToken: String) {
        self.idToken = idToken
    }

    public var endpoint: Endpoint { .identityToolkitV1("accounts:delete") }

    public func encodeBody() -> [UInt8] {
        let body: JSONValue = ["idToken": .string(idToken)]
        return body.serialized()
    }

    /// The answer carries nothing but `kind`.
    public func decode(_ object: JSONObject) throws(AuthError) {}
}
