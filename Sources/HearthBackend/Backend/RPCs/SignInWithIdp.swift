import HearthTransport
import HearthWire

/// `accounts:signInWithIdp` (iOS: verifyAssertion): signs in, links or reauthenticates with an
/// identity provider's credential (client-wire-reference §1.5). `FederatedCredential.signInWithIdp(_:)`
/// builds one from a credential.
///
/// Always sends `returnSecureToken: true` and `returnIdpCredential: true`. The latter makes the server
/// answer FEDERATED_USER_ID_ALREADY_LINKED and EMAIL_EXISTS as 200 bodies that still carry the IdP's
/// tokens, from which the app gets an updated credential (§4.3); without it those come as plain 400s and
/// the tokens are lost. iOS always sends it; the reference recommends it.
package struct SignInWithIdp: TenantScopedRPC {
    package enum Purpose: Sendable, Equatable {
        /// Sign in (or sign up) with the credential.
        case signIn
        /// Link the credential to the user whose Firebase ID token this is.
        case link(idToken: String)
        /// Prove again that the current user owns the credential. Sends `autoCreate: false`, so an
        /// unknown IdP account is refused instead of becoming a new user (both SDKs, §4.2).
        case reauthenticate
    }

    /// Where the IdP sent the user back: "http://localhost" for credentials the app supplies (the
    /// server requires the field but does not use it then), the redirect URL after a provider flow.
    package var requestUri: String
    /// The credential as a form body (`providerId=…&id_token=…`), or the IdP's own POST body.
    package var postBody: String
    package var sessionId: String?
    package var pendingToken: String?
    package var purpose: Purpose
    /// Sent for sign-in, link and reauthentication alike (the JS SDK adds it to every signInWithIdp).
    package var tenantId: String?

    package static let manualCredentialRequestUri = "http://localhost"

    package init(requestUri: String = SignInWithIdp.manualCredentialRequestUri, postBody: String,
                sessionId: String? = nil, pendingToken: String? = nil, purpose: Purpose = .signIn,
                tenantId: String? = nil) {
        self.requestUri = requestUri
        self.postBody = postBody
        self.sessionId = sessionId
        self.pendingToken = pendingToken
        self.purpose = purpose
        self.tenantId = tenantId
    }

    package var endpoint: Endpoint { .identityToolkitV1("accounts:signInWithIdp") }

    // A first-factor sign-in: errorMessage, needConfirmation and mfaPendingCredential all apply (JS runs
    // every signInWithIdp through _performSignInRequest, link and reauthenticate included).
    package var successShapedErrors: SuccessShapedErrors { .signIn }

    package func encodeBody() -> [UInt8] {
        var body: JSONObject = [
            "requestUri": .string(requestUri),
            "postBody": .string(postBody),
            "returnSecureToken": true,
            "returnIdpCredential": true,
        ]
        body.setIfPresent("sessionId", sessionId)
        body.setIfPresent("pendingToken", pendingToken)
        body.setIfPresent("tenantId", tenantId)
        switch purpose {
        case .signIn:
            // Omitted: the server's default creates the account, which is what sign-in wants (iOS sends
            // true, JS nothing; both mean the same).
            break
        case .link(let idToken):
            // Omitted as for sign-in: linking never creates a second user, and neither SDK sends false.
            body["idToken"] = .string(idToken)
        case .reauthenticate:
            body["autoCreate"] = false
        }
        return JSONValue.object(body).serialized()
    }

    package func decode(_ object: JSONObject) throws(AuthError) -> Response {
        try Response(decoding: object)
    }

    /// A successful answer: the Firebase tokens and what the IdP said about the user.
    package struct Response: Sendable, Equatable, Redacted {
        package var tokens: TokenResponse
        package var idp: IdpResponse

        /// idToken, refreshToken and a non-empty providerId are required (iOS rejects an answer without
        /// providerId as unexpected).
        package init(decoding object: JSONObject) throws(AuthError) {
            tokens = try TokenResponse(decoding: object)
            idp = IdpResponse(decoding: object)
            if idp.providerId == nil { throw .malformedResponse("missing providerId") }
        }

        package var redactedSummary: String { "localId: \(tokens.localId ?? "nil"), providerId: \(idp.providerId ?? "nil")" }
    }
}
