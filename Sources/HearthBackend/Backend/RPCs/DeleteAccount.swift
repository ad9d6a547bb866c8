import HearthWire

/// `accounts:delete` for the signed-in user.
package struct DeleteAccount: BackendRPC {
    package var idToken: String

    package init(idToken: String) {
        self.idToken = idToken
    }

    package var endpoint: Endpoint { .identityToolkitV1("accounts:delete") }

    package func encodeBody() -> [UInt8] {
        let body: JSONValue = ["idToken": .string(idToken)]
        return body.serialized()
    }

    /// The answer carries nothing but `kind`.
    package func decode(_ object: JSONObject) throws(AuthError) {}
}
