import HearthTransport
import HearthWire

/// `accounts:createAuthUri` with a provider id: the production start of a provider sign-in flow
/// (client-wire-reference §1.6, design "Provider sign-in on a desktop"). The server answers with the
/// IdP's authorization URL for the user's browser and a session id that must come back with the
/// redirect in signInWithIdp. (`CreateAuthUri` is the email-probing use of the same endpoint.)
///
/// Reserved custom parameters are the caller's to refuse first (`OAuthCustomParameters.validate`).
package struct CreateAuthUriForProvider: TenantScopedRPC {
    package var providerId: String
    /// Where the IdP sends the browser back: the loopback receiver's URL or the app's custom scheme.
    package var continueUri: String
    /// OAuth scopes, sent space-separated as `oauthScope`; empty ones and repeats are dropped, and the
    /// field is left out when none remain (for Google, any scope switches the server to the code flow).
    package var scopes: [String]
    /// Extra query parameters for the IdP's authorization URL (`customParameter`), e.g. Microsoft's
    /// `tenant`, `prompt`, `login_hint`, Twitter's `lang`, Apple's `locale`.
    package var customParameters: [String: String]
    /// A session id of the caller's choosing; the server makes one up when absent.
    package var sessionId: String?
    package var tenantId: String?

    package init(providerId: String, continueUri: String, scopes: [String] = [],
                customParameters: [String: String] = [:], sessionId: String? = nil, tenantId: String? = nil) {
        self.providerId = providerId
        self.continueUri = continueUri
        self.scopes = scopes
        self.customParameters = customParameters
        self.sessionId = sessionId
        self.tenantId = tenantId
    }

    package var endpoint: Endpoint { .identityToolkitV1("accounts:createAuthUri") }

    /// The scopes as sent: non-empty, first occurrence kept, in the given order.
    var oauthScope: String? {
        var seen: Set<String> = []
        let kept = scopes.filter { !$0.isEmpty && seen.insert($0).inserted }
        return kept.isEmpty ? nil : kept.joined(separator: " ")
    }

    package func encodeBody() -> [UInt8] {
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

    package func decode(_ object: JSONObject) throws(AuthError) -> Response {
        let reader = ResponseReader(object)
        let authUri = try reader.requiredString("authUri")
        // The server echoes ours or makes one; without any, the redirect could not be verified later.
        guard let session = reader.nonEmptyString("sessionId") ?? sessionId else {
            throw .malformedResponse("missing sessionId")
        }
        return Response(authUri: authUri, sessionId: session,
                        providerId: reader.nonEmptyString("providerId") ?? providerId)
    }

    package struct Response: Sendable, Equatable, Redacted {
        /// Where to send the user's browser.
        package var authUri: String
        /// Goes back with the redirect as signInWithIdp `sessionId`.
        package var sessionId: String
        package var providerId: String

        package init(authUri: String, sessionId: String, providerId: String) {
            self.authUri = authUri
            self.sessionId = sessionId
            self.providerId = providerId
        }

        package var redactedSummary: String { "providerId: \(providerId)" }
    }
}
