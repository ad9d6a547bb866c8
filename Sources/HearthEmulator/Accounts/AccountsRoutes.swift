/// The client-facing Identity Toolkit v1 methods.
enum AccountsRoutes {
    static let prefix = "/identitytoolkit.googleapis.com/v1"

    static let routes: [Route] = [
        Route(.post, "\(prefix)/accounts:signUp", SignUp.operation),
        Route(.post, "\(prefix)/accounts:signInWithPassword", SignInWithPassword.operation),
        Route(.post, "\(prefix)/accounts:signInWithCustomToken", SignInWithCustomToken.operation),
        Route(.post, "\(prefix)/accounts:lookup", Lookup.operation),
        Route(.post, "\(prefix)/accounts:update", UpdateAccount.operation),
        Route(.post, "\(prefix)/accounts:delete", DeleteAccount.operation),
        Route(.post, "\(prefix)/accounts:sendOobCode", SendOobCode.operation),
        Route(.post, "\(prefix)/accounts:resetPassword", ResetPassword.operation),
        Route(.post, "\(prefix)/accounts:signInWithIdp", SignInWithIdp.operation),
        Route(.post, "\(prefix)/accounts:signInWithEmailLink", SignInWithEmailLink.operation),
        Route(.post, "\(prefix)/accounts:createAuthUri", CreateAuthUri.operation),
        Route(.post, "\(prefix)/accounts:sendVerificationCode", SendVerificationCode.operation),
        Route(.post, "\(prefix)/accounts:signInWithPhoneNumber", SignInWithPhoneNumber.operation),
        Route(.get, "\(prefix)/projects", GetProjects.operation),
        Route(.get, "\(prefix)/recaptchaParams", GetRecaptchaParams.operation),
    ]
}
