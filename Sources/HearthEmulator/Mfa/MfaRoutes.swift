/// The Identity Toolkit v2 multi-factor methods.
enum MfaRoutes {
    static let prefix = "/identitytoolkit.googleapis.com/v2/accounts"

    static let routes: [Route] = [
        Route(.post, "\(prefix)/mfaEnrollment:start", StartMfaEnrollment.operation),
        Route(.post, "\(prefix)/mfaEnrollment:finalize", FinalizeMfaEnrollment.operation),
        Route(.post, "\(prefix)/mfaEnrollment:withdraw", WithdrawMfa.operation),
        Route(.post, "\(prefix)/mfaSignIn:start", StartMfaSignIn.operation),
        Route(.post, "\(prefix)/mfaSignIn:finalize", FinalizeMfaSignIn.operation),
    ]
}
