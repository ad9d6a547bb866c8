import HearthBackend
import HearthWire

/// How each credential goes on the wire as signInWithIdp fields (client-wire-reference §1.5's table).
extension FederatedCredential {
    /// The request that signs in, links or reauthenticates with this credential. Check
    /// `validationError` first: this builds whatever the credential holds.
    package func signInWithIdp(_ purpose: SignInWithIdp.Purpose = .signIn) -> SignInWithIdp {
        SignInWithIdp(requestUri: requestUri, postBody: postBody, sessionId: sessionId, pendingToken: pendingToken,
                      purpose: purpose)
    }

    /// "http://localhost" for credentials the app supplies; the redirect URL after a provider flow.
    package var requestUri: String {
        if case .idpRedirect(let redirect) = self { return redirect.requestUri }
        return SignInWithIdp.manualCredentialRequestUri
    }

    package var sessionId: String? {
        if case .idpRedirect(let redirect) = self { return redirect.sessionId }
        return nil
    }

    package var pendingToken: String? {
        if case .oauth(let credential) = self { return credential.pendingToken }
        return nil
    }

    /// The `postBody` form: `application/x-www-form-urlencoded`, every key and value percent-encoded
    /// with only the RFC 3986 unreserved characters left as they are (so '+', '&', '=' and spaces in a
    /// token cannot change the form's meaning), `providerId` always present.
    ///
    /// Fields in JS's order: id_token, access_token, oauth_token_secret, code, providerId, nonce, user.
    /// A redirect sends the IdP's own POST body verbatim, adding `providerId` when the IdP's body lacks
    /// one (iOS sends `providerId=<id>` as the whole body after a redirect).
    package var postBody: String {
        if case .idpRedirect(let redirect) = self {
            guard let idpBody = redirect.postBody else {
                return FormEncoding.encode([("providerId", redirect.providerId)])
            }
            if Self.formBody(idpBody, containsKey: "providerId") { return idpBody }
            return idpBody + "&" + FormEncoding.encode([("providerId", redirect.providerId)])
        }
        return FormEncoding.encode(postBodyFields)
    }

    /// The postBody's key/value pairs for every credential the app supplies.
    var postBodyFields: [(name: String, value: String)] {
        var fields = PostBodyFields()
        switch self {
        case .google(let idToken, let accessToken):
            fields.idToken = idToken.nonEmpty
            fields.accessToken = accessToken.nonEmpty
        case .facebook(let accessToken):
            fields.accessToken = accessToken
        case .facebookLimitedLogin(let idToken, let rawNonce):
            fields.idToken = idToken
            fields.nonce = rawNonce
        case .twitter(let token, let secret):
            fields.accessToken = token
            fields.secret = secret
        case .gitHub(let token):
            fields.accessToken = token
        case .playGames(let serverAuthCode):
            fields.code = serverAuthCode
        case .apple(let idToken, let rawNonce, let authorizationCode, let fullName):
            fields.idToken = idToken
            fields.nonce = rawNonce
            fields.accessToken = authorizationCode.nonEmpty
            fields.user = fullName?.appleUserJSON
        case .oauth(let credential):
            // A pending token replaces the IdP tokens (JS sends it instead of them, §4.3); the form
            // keeps providerId, as iOS's does.
            if credential.pendingToken == nil {
                fields.idToken = credential.idToken
                fields.accessToken = credential.accessToken
                fields.secret = credential.secret
                fields.nonce = credential.rawNonce
            }
        case .idpRedirect:
            break
        }
        return fields.pairs(providerId: providerId)
    }

    /// Whether an `application/x-www-form-urlencoded` body has a field named `key`.
    static func formBody(_ body: String, containsKey key: String) -> Bool {
        body.split(separator: "&", omittingEmptySubsequences: true).contains { field in
            let name = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            return name == Substring(key)
        }
    }
}

/// The fields a credential may put in a postBody, written in one fixed order.
private struct PostBodyFields {
    var idToken: String?
    var accessToken: String?
    var secret: String?
    var code: String?
    var nonce: String?
    var user: String?

    func pairs(providerId: String) -> [(name: String, value: String)] {
        var pairs: [(name: String, value: String)] = []
        if let idToken { pairs.append(("id_token", idToken)) }
        if let accessToken { pairs.append(("access_token", accessToken)) }
        if let secret { pairs.append(("oauth_token_secret", secret)) }
        if let code { pairs.append(("code", code)) }
        pairs.append(("providerId", providerId))
        if let nonce { pairs.append(("nonce", nonce)) }
        if let user { pairs.append(("user", user)) }
        return pairs
    }
}
