import HearthBackend

/// Email actions: sign-in links, and the out-of-band codes Firebase mails for password resets, email
/// verification and email changes. None of these needs a signed-in user except where they say.
extension Auth {
    /// Mails a link that signs in to `email`'s account (Firebase's sendSignInLinkToEmail). The settings
    /// are required and must let the app handle the code (Firebase's client-side check); the app keeps
    /// `email` to finish the sign-in when the link comes back.
    package func sendSignInLink(toEmail email: String, settings: ActionCodeSettings?) -> FutureState {
        if let error = Self.checkSignInLinkRequest(email: email, settings: settings) {
            return rejected(.sendSignInLinkToEmail, error)
        }
        return perform(.sendSignInLinkToEmail) { [self] future in
            send(SendOobCode(.emailSignIn(email: email), settings: settings)) { [self] result in
                finish(future, result.map { _ in .none })
            }
        }
    }

    static func checkSignInLinkRequest(email: String, settings: ActionCodeSettings?) -> AuthError? {
        if email.isEmpty { return AuthError(code: .missingEmail, message: "An email address is required.") }
        guard let settings else {
            return AuthError(code: .invalidArgument,
                             message: "Sign-in links need action code settings (at least a continue URL, with handle_code_in_app set).")
        }
        // The JS SDK refuses before anything else (argument-error): a sign-in link only works when the
        // app completes it.
        guard settings.handleCodeInApp else {
            return AuthError(code: .invalidArgument,
                             message: "Sign-in links must be completed in the app: set handle_code_in_app in the action code settings.")
        }
        return settings.validationError
    }

    /// Whether `link` is an email sign-in link (Firebase's isSignInWithEmailLink), also when wrapped in a
    /// Dynamic Link or Firebase Hosting link, or pasted with whitespace around it.
    package static func isSignInWithEmailLink(_ link: String) -> Bool {
        ActionCodeURL.isSignInLink(link)
    }

    /// Signs in with the email a sign-in link was sent to and the link (Firebase's signInWithEmailLink):
    /// the account of the email, created when there is none. Result: an auth result.
    package func signInWithEmailLink(email: String, link: String) -> FutureState {
        guard let credential = EmailLinkCredential(email: email, link: link) else {
            return rejected(.signInWithEmailLink, Self.notAnActionLink)
        }
        if let error = credential.validationError { return rejected(.signInWithEmailLink, error) }
        // A link names the tenant it was issued for (its `tenantId`): one for another tenant than the
        // Auth's is refused before any request, as Firebase's signInWithEmailLink does.
        let authTenant = tenantId
        if credential.tenantId != authTenant {
            return rejected(.signInWithEmailLink, AuthError(
                code: .tenantIdMismatch,
                message: "The link was issued for tenant \(Self.describeTenant(credential.tenantId)); the Auth's tenant is "
                    + "\(Self.describeTenant(authTenant)).")
            )
        }
        return perform(.signInWithEmailLink) { [self] future in
            startSignIn(future, with: .emailLink(credential), kind: .authResult)
        }
    }

    static let notAnActionLink = AuthError(
        code: .invalidArgument,
        message: "The link is not an email action link (it needs apiKey, oobCode and mode in its query).")

    /// Uses a VERIFY_EMAIL, VERIFY_AND_CHANGE_EMAIL or RECOVER_EMAIL code (Firebase's applyActionCode).
    /// The signed-in user, if any, learns of the change on its next reload. Result: none.
    package func applyActionCode(_ code: String) -> FutureState {
        if code.isEmpty { return rejected(.applyActionCode, Self.missingCode) }
        return perform(.applyActionCode) { [self] future in
            send(ApplyActionCode(oobCode: code)) { [self] result in
                finish(future, result.map { .none })
            }
        }
    }

    /// What a code is for and which addresses it concerns, without using it (Firebase's
    /// checkActionCode). Result: an action code info.
    package func checkActionCode(_ code: String) -> FutureState {
        if code.isEmpty { return rejected(.checkActionCode, Self.missingCode) }
        return perform(.checkActionCode) { [self] future in
            send(ResetPassword(oobCode: code)) { [self] result in
                finish(future, result.flatMap { response in
                    Result { () throws(AuthError) -> FutureValue in .actionCodeInfo(try response.actionCodeInfo()) }
                })
            }
        }
    }

    /// The email a password reset code was sent to, without using the code (Firebase's
    /// verifyPasswordResetCode: checkActionCode's email). Result: a string.
    package func verifyPasswordResetCode(_ code: String) -> FutureState {
        if code.isEmpty { return rejected(.verifyPasswordResetCode, Self.missingCode) }
        return perform(.verifyPasswordResetCode) { [self] future in
            send(ResetPassword(oobCode: code)) { [self] result in
                finish(future, result.flatMap { response in
                    Result { () throws(AuthError) -> FutureValue in .string(try response.actionCodeInfo().email) }
                })
            }
        }
    }

    /// Sets a new password with a PASSWORD_RESET code, which is used up (Firebase's
    /// confirmPasswordReset). Result: none.
    package func confirmPasswordReset(code: String, newPassword: String) -> FutureState {
        if code.isEmpty { return rejected(.confirmPasswordReset, Self.missingCode) }
        // The server reads an empty newPassword as "only look at the code" and answers success.
        if newPassword.isEmpty {
            return rejected(.confirmPasswordReset, AuthError(code: .missingPassword, message: "A new password is required."))
        }
        return perform(.confirmPasswordReset) { [self] future in
            send(ResetPassword(oobCode: code, newPassword: newPassword)) { [self] result in
                finish(future, result.map { _ in .none })
            }
        }
    }

    static let missingCode = AuthError(code: .invalidActionCode, message: "An action code is required.")
}
