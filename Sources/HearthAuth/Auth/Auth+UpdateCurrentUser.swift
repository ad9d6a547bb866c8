import HearthBackend

/// Making a user signed in to one Auth the current user of another (Firebase's `updateCurrentUser`), for
/// hosts with several apps of one project, say one per tenant.
extension Auth {
    /// Makes `user` this Auth's current user, with the session (tokens) it has in its own Auth, which
    /// keeps it too; the session is persisted here and listeners are told. Result: none.
    ///
    /// As Firebase's SDKs: a user of an app with another API key fails with INVALID_USER_TOKEN, and a
    /// user of another tenant than this Auth's (`tenantId`) with TENANT_ID_MISMATCH; this Auth's user
    /// stays signed in then. A snapshot holds no tokens, so the user must still be signed in to its
    /// own Auth (else NO_SIGNED_IN_USER); its current profile is the one installed. Making the current
    /// user current again changes nothing.
    package func updateCurrentUser(_ user: UserSnapshot) -> FutureState {
        perform(.updateCurrentUser) { [self] future in
            let source = user.auth
            guard source.configuration.apiKey == configuration.apiKey else {
                return finish(future, .failure(AuthError(
                    code: .invalidUserToken,
                    message: "The user belongs to an app with another API key: it cannot become this Auth's user.")))
            }
            guard let session = source.state.withLock({ $0.session?.profile.uid == user.uid ? $0.session : nil })
            else {
                return finish(future, .failure(AuthError(
                    code: .noSignedInUser,
                    message: "That user is no longer signed in to its own Auth, so there is no session to take over.")))
            }
            if let mismatch = tenantMismatch(session.profile) { return finish(future, .failure(mismatch)) }
            if state.current.session != session { installSession(session) }
            finish(future, .success(.none))
        }
    }
}
