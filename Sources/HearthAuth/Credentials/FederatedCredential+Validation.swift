import HearthBackend

extension FederatedCredential {
    /// Why this credential cannot work, checked before any request; nil when it may.
    ///
    /// - `.invalidCredential` when a token the provider requires is missing or empty. The C++ SDK has no
    ///   local check here (its `GetCredential` only asserts against NULL pointers) and sends the request;
    ///   the server rejects such an IdP response as INVALID_IDP_RESPONSE, which is invalid credential —
    ///   the code its integration test `TestSignInWithBadCredentials` expects. Checking first gives the
    ///   same code without the round trip and without sending half a credential.
    /// - `.invalidProviderId` when a generic credential's provider id is empty, not printable ASCII, or
    ///   names a sign-in method that is not an identity provider ("password", "phone", ...).
    package var validationError: AuthError? {
        switch self {
        case .google(let idToken, let accessToken):
            if idToken.nonEmpty == nil && accessToken.nonEmpty == nil {
                return missing("A Google credential needs an ID token or an access token.")
            }
        case .facebook(let accessToken):
            if accessToken.isEmpty { return missing("A Facebook credential needs an access token.") }
        case .facebookLimitedLogin(let idToken, let rawNonce):
            if idToken.isEmpty { return missing("A Facebook Limited Login credential needs the authentication token.") }
            if rawNonce.isEmpty { return missing("A Facebook Limited Login credential needs the raw nonce.") }
        case .twitter(let token, let secret):
            if token.isEmpty { return missing("A Twitter credential needs the token.") }
            if secret.isEmpty { return missing("A Twitter credential needs the token secret.") }
        case .gitHub(let token):
            if token.isEmpty { return missing("A GitHub credential needs an access token.") }
        case .playGames(let serverAuthCode):
            if serverAuthCode.isEmpty { return missing("A Play Games credential needs a server auth code.") }
        case .apple(let idToken, let rawNonce, _, _):
            if idToken.isEmpty { return missing("An Apple credential needs the identity token.") }
            if rawNonce.isEmpty { return missing("An Apple credential needs the raw nonce.") }
        case .oauth(let credential):
            if let error = Self.providerIdError(credential.providerId) { return error }
            if credential.idToken == nil && credential.accessToken == nil && credential.pendingToken == nil {
                return missing("An OAuth credential needs an ID token, an access token or a pending token.")
            }
            if credential.secret != nil && credential.accessToken == nil && credential.pendingToken == nil {
                return missing("An OAuth token secret needs its access token.")
            }
        case .idpRedirect(let redirect):
            if let error = Self.providerIdError(redirect.providerId) { return error }
            if !Self.isAbsoluteURL(redirect.requestUri) {
                return missing("The identity provider's redirect is not an absolute URL.")
            }
        }
        return nil
    }

    private func missing(_ message: String) -> AuthError {
        AuthError(code: .invalidCredential, message: message)
    }

    static func providerIdError(_ providerId: String) -> AuthError? {
        if providerId.isEmpty {
            return AuthError(code: .invalidProviderId, message: "A provider id is required.")
        }
        if !providerId.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) }) {
            return AuthError(code: .invalidProviderId, message: "A provider id must be printable ASCII without spaces.")
        }
        if ProviderID.notIdentityProviders.contains(providerId) {
            return AuthError(code: .invalidProviderId,
                             message: "\"\(providerId)\" is not an identity provider; use its own credential.")
        }
        return nil
    }

    /// RFC 3986 `scheme ":" …`: a letter, then letters, digits, '+', '-' or '.', then ':' and more.
    static func isAbsoluteURL(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0, colon + 1 < bytes.count else {
            return false
        }
        let isLetter = { (byte: UInt8) in (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
        let isSchemeByte = { (byte: UInt8) in
            isLetter(byte) || (0x30...0x39).contains(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: ".")
        }
        guard isLetter(bytes[0]), bytes[1..<colon].allSatisfy(isSchemeByte) else { return false }
        // Whitespace or control characters mean this is not one URL.
        return !bytes.contains { $0 <= 0x20 || $0 == 0x7F }
    }
}
