import HearthWire

/// `accounts:createAuthUri` for an email address: the providers it can sign in with (fetch providers).
/// With email-enumeration protection on, the lists come back empty.
package struct CreateAuthUri: TenantScopedRPC {
    package var identifier: String
    package var continueUri: String
    package var tenantId: String?

    package init(identifier: String, continueUri: String = "http://localhost", tenantId: String? = nil) {
        self.identifier = identifier
        self.continueUri = continueUri
        self.tenantId = tenantId
    }

    package var endpoint: Endpoint { .identityToolkitV1("accounts:createAuthUri") }

    package func encodeBody() -> [UInt8] {
        var body: JSONObject = ["identifier": .string(identifier), "continueUri": .string(continueUri)]
        body.setIfPresent("tenantId", tenantId)
        return JSONValue.object(body).serialized()
    }

    package func decode(_ object: JSONObject) throws(AuthError) -> Response {
        let reader = ResponseReader(object)
        return Response(signinMethods: reader.strings("signinMethods"), allProviders: reader.strings("allProviders"),
                        registered: reader.bool("registered"), sessionId: reader.string("sessionId"))
    }

    package struct Response: Sendable, Equatable {
        /// "password", "emailLink", "google.com", ...
        package var signinMethods: [String]
        /// Provider ids linked to the address (what the C++ SDK returns as providers).
        package var allProviders: [String]
        package var registered: Bool?
        package var sessionId: String?

        package init(signinMethods: [String], allProviders: [String], registered: Bool?, sessionId: String?) {
            self.signinMethods = signinMethods
            self.allProviders = allProviders
            self.registered = registered
            self.sessionId = sessionId
        }
    }
}
