import HearthWire

/// `accounts:createAuthUri` for an email address: the providers it can sign in with (fetch providers).
/// With email-enumeration protection on, the lists come back empty.
public struct CreateAuthUri: TenantScopedRPC {
    public var identifier: String
    public var continueUri: String
    public var tenantId: String?

    public init(identifier: String, continueUri: String = "http://localhost", tenantId: String? = nil) {
        self.identifier = identifier
        self.continueUri = continueUri
        self.tenantId = tenantId
    }

    public var endpoint: Endpoint { .identityToolkitV1("accounts:createAuthUri") }

    public func encodeBody() -> [UInt8] {
        var body: JSONObject = ["identifier": .string(identifier), "continueUri": .string(continueUri)]
        body.setIfPresent("tenantId", tenantId)
        return JSONValue.object(body).serialized()
    }

    public func decode(_ object: JSONObject) throws(AuthError) -> Response {
        let reader = ResponseReader(object)
        return Response(signinMethods: reader.strings("signinMethods"), allProviders: reader.strings("allProviders"),
                        registered: reader.bool("registered"), sessionId: reader.string("sessionId"))
    }

    public struct Response: Sendable, Equatable {
        /// "password", "emailLink", "google.com", ...
        public var signinMethods: [String]
        /// Provider ids linked to the address (what the C++ SDK returns as providers).
        public var allProviders: [String]
        public var registered: Bool?
        public var sessionId: String?

        public init(signinMethods: [String], allProviders: [String], registered: Bool?, sessionId: String?) {
            self.signinMethods = signinMethods
            self.allProviders = allProviders
            self.registered = registered
            self.sessionId = sessionId
        }
    }
}
