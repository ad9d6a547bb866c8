import HearthTransport
import HearthWire

/// `accounts:createAuthUri` with a provider id: the production start of a provider sign-in flow
/// (client-wire-reference §1.6, design "Provider sign-in on a desktop"). The server answers with the
/// IdP's authorization URL for the user's browser and a session id that must come back with the
/// redirect in signInWithIdp. (`CreateAuthUri` is the email-probing use of the same endpoint.)
///
/// Reserved custom parameters are the caller's to refuse first (`OAuthCustomParameters.validate`).
public struct CreateAuthUriForProvider: TenantScopedRPC {
    public var providerId: String
    /// Where the IdP sends the browser back: the loopback receiver's URL or the app's custom scheme.
    public var continueUri: String
    /// OAuth scopes, sent space-separated as `oauthScope`; empty ones and repeats are dropped, and the
    /// field is left out when none remain (for Google, any scope switches the server to the code flow).
    public var scopes: [String]
    /// Extra query parameters for the IdP's authorization URL (`customParameter`), e.g. Microsoft's
    /// `tenant`, `prompt`, `login_hint`, Twitter's `lang`, Apple's `locale`.
    public var customParameters: [String: String]
    /// A session id of the caller's choosing; the server makes one up when absent.
    public var sessionId: String?
    public var tenantId: String?

    public init(providerId: String, continueUri: String, scopes: [String] = [],
                customParameters: [String: String] = [:], sessionId: String? = nil, tenantId: String? = nil) {
        self.providerId = providerId
        self.continueUri = continueUri
        self.scopes = scopes
        self.customParameters = customParameters
        self.sessionId = sessionId
        self.tenantId = tenantId
    }

    public var endpoint: Endpoint { .identityToolkitV1("accounts:createAuthUri") }

    /// The scopes as sent: non-empty, first occurrence kept, in the given order.
    public var oauthScope: String? {
        var seen: Set<String> = []
        let kept = scopes.filter { !$0.isEmpty && seen.insert($0).inserted }
        return kept.isEmpty ? nil : kept.joined(separator: " ")
    }

    public func encodeBody() -> [UInt8] {
        var body: JSONObject = ["providerId": .string(providerId), "continueUri": .string(continueUri)]
        body.setIfPresent("oauthScope", oauthScope)
        if !customParameters.isEmpty {
            // Sorted: a dictionary's order changes from run to run, the body should not.
            body["customParameter"] = .object(JSONObject(customParameters.sorted { $0.key < $1.key }
                .map { ($0.key, JSONValue.string($0.value)) }))
        }
        body.setIfPresent("sessionId", sessionId)
        body.setIfPresent("tenantId", tenantId)
        return JSONValue.object(body).serialized()
    }

    public func decode(_ object: JSONObject) throws(AuthError) -> Response {
        let reader = ResponseReader(object)
        let authUri = try reader.requiredString("authUri")
        // The server echoes ours or makes one; without any, the redirect could not be verified later.
        guard let session = reader.nonEmptyString("sessionId") ?? sessionId else {
            throw .malformedResponse("missing sessionId")
        }
        return Response(authUri: authUri, sessionId: session,
                        providerId: reader.nonEmptyString("providerId") ?? providerId)
    }

    public struct Response: Sendable, Equatable, Redacted {
        /// Where to send the user's browser.
        public var authUri: String
        /// Goes back with the redirect as signInWithIdp `sessionId`.
        public var sessionId: String
        public var providerId: String

        public init(authUri: String, sessionId: String, providerId: String) {
            self.authUri = authUri
            self.sessionId = sessionId
            self.providerId = providerId
        }

        package var redactedSummary: String { "providerId: \(providerId)" }
    }
}
