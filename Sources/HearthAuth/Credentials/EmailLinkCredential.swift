import HearthBackend

/// An email address proven by following a sign-in link (Firebase's EmailAuthProvider.credentialWithLink):
/// the address the link was sent to and the link's out-of-band code. Its provider is "password", its
/// sign-in method "emailLink", as in Firebase. Used with accounts:signInWithEmailLink: to sign in,
/// with the user's ID token to link, without it to reauthenticate.
package struct EmailLinkCredential: Sendable, Equatable {
    package let email: String
    package let oobCode: String
    /// The tenant the link was issued for (its `tenantId`), nil for the project itself.
    package let tenantId: String?

    /// nil when `link` is not an email action link.
    package init?(email: String, link: String) {
        guard let parsed = ActionCodeURL(link: link) else { return nil }
        self.init(email: email, oobCode: parsed.code, tenantId: parsed.tenantId)
    }

    package init(email: String, oobCode: String, tenantId: String? = nil) {
        self.email = email
        self.oobCode = oobCode
        self.tenantId = tenantId
    }

    /// The request that uses this credential; `idToken` links it to that user.
    func signInWithEmailLink(idToken: String? = nil) -> SignInWithEmailLink {
        SignInWithEmailLink(email: email, oobCode: oobCode, idToken: idToken)
    }

    var validationError: AuthError? {
        if email.isEmpty { return AuthError(code: .missingEmail, message: "An email address is required.") }
        if oobCode.isEmpty { return AuthError(code: .invalidActionCode, message: "The link carries no action code.") }
        return nil
    }
}
