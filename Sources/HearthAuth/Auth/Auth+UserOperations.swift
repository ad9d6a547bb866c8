import HearthBackend

/// Operations on the signed-in user. Each names the uid it was asked for (from a host snapshot) and
/// fails with NO_SIGNED_IN_USER when that user is no longer the signed-in one.
extension Auth {
    package func getToken(uid: String, forceRefresh: Bool) -> FutureState {
        perform(.getToken) { [self] future in
            guard signedInGeneration(uid: uid) != nil else { return finish(future, .failure(Self.noUser)) }
            refresher.token(force: forceRefresh) { [self] result in
                finish(future, result.map { .string($0) })
            }
        }
    }

    package func reload(uid: String) -> FutureState {
        userOperation(.reload, uid: uid) { [self] future, idToken, generation in
            send(GetAccountInfo(idToken: idToken)) { [self] result in
                switch result {
                case .failure(let error):
                    failUserOperation(future, error, generation: generation)
                case .success(let record):
                    let updated = updateSession(generation: generation) { session in
                        let wasAnonymous = session.profile.isAnonymous
                        session.profile = Self.profile(from: record, signInProvider: "")
                        session.profile.isAnonymous = wasAnonymous && Self.hasNoWayToSignIn(record)
                    }
                    finishWithUser(future, updated)
                }
            }
        }
    }

    /// nil keeps a field; "" deletes it.
    package func updateProfile(uid: String, displayName: String?, photoURL: String?) -> FutureState {
        var deletes: [UserAttribute] = []
        if displayName?.isEmpty == true { deletes.append(.displayName) }
        if photoURL?.isEmpty == true { deletes.append(.photoUrl) }
        return userOperation(.updateUserProfile, uid: uid) { [self] future, idToken, generation in
            let update = SetAccountInfo(idToken: idToken, displayName: displayName.flatMap { $0.isEmpty ? nil : $0 },
                                        photoUrl: photoURL.flatMap { $0.isEmpty ? nil : $0 }, deleteAttributes: deletes)
            send(update) { [self] result in
                switch result {
                case .failure(let error):
                    failUserOperation(future, error, generation: generation)
                case .success(let response):
                    let updated = updateSession(generation: generation) { session in
                        if let displayName { session.profile.displayName = displayName }
                        if let photoURL { session.profile.photoURL = photoURL }
                        session.tokens = tokenSet(after: response, previous: session.tokens)
                    }
                    finishWithUser(future, updated)
                }
            }
        }
    }

    package func updatePassword(uid: String, password: String) -> FutureState {
        if password.isEmpty {
            return rejected(.updatePassword, AuthError(code: .missingPassword, message: "A password is required."))
        }
        return userOperation(.updatePassword, uid: uid) { [self] future, idToken, generation in
            send(SetAccountInfo(idToken: idToken, password: password)) { [self] result in
                switch result {
                case .failure(let error):
                    failUserOperation(future, error, generation: generation)
                case .success(let response):
                    // A new password revokes older tokens; the response carries the new ones.
                    updateSession(generation: generation) { session in
                        session.tokens = tokenSet(after: response, previous: session.tokens)
                        session.profile.providerData = response.providerUserInfo.map(UserInfoSnapshot.init)
                        session.profile.isAnonymous = false
                    }
                    finish(future, .success(.none))
                }
            }
        }
    }

    /// Sets the email without verifying the new address first: the SDKs' deprecated updateEmail. Projects
    /// with email enumeration protection refuse it (OPERATION_NOT_ALLOWED); the new address starts
    /// unverified, and an email/password account signs in with it from now on.
    package func updateEmail(uid: String, email: String) -> FutureState {
        if email.isEmpty {
            return rejected(.updateEmail, AuthError(code: .missingEmail, message: "An email address is required."))
        }
        return userOperation(.updateEmail, uid: uid) { [self] future, idToken, generation in
            send(SetAccountInfo(idToken: idToken, email: email)) { [self] result in
                switch result {
                case .failure(let error):
                    failUserOperation(future, error, generation: generation)
                case .success(let response):
                    // A changed email revokes older tokens; the response carries the new ones.
                    updateSession(generation: generation) { session in
                        session.profile.email = response.email ?? email
                        session.profile.isEmailVerified = response.emailVerified ?? false
                        session.tokens = tokenSet(after: response, previous: session.tokens)
                        session.profile.providerData = response.providerUserInfo.map(UserInfoSnapshot.init)
                        // An email alone does not make an anonymous account signable-in; with a password it does.
                        if response.providerUserInfo.contains(where: { $0.providerId == ProviderID.password }) {
                            session.profile.isAnonymous = false
                        }
                    }
                    finish(future, .success(.none))
                }
            }
        }
    }

    /// `settings`: where the link leads (nil: Firebase's own page, and back nowhere).
    package func sendEmailVerification(uid: String, settings: ActionCodeSettings? = nil) -> FutureState {
        if let error = settings?.validationError { return rejected(.sendEmailVerification, error) }
        return userOperation(.sendEmailVerification, uid: uid) { [self] future, idToken, generation in
            send(SendOobCode(.verifyEmail(idToken: idToken), settings: settings)) { [self] result in
                completeVoid(future, result.map { _ in () }, generation: generation)
            }
        }
    }

    package func sendEmailVerificationBeforeUpdatingEmail(uid: String, newEmail: String,
                                                         settings: ActionCodeSettings? = nil) -> FutureState {
        if newEmail.isEmpty {
            return rejected(.sendEmailVerificationBeforeUpdatingEmail,
                            AuthError(code: .missingEmail, message: "An email address is required."))
        }
        if let error = settings?.validationError { return rejected(.sendEmailVerificationBeforeUpdatingEmail, error) }
        return userOperation(.sendEmailVerificationBeforeUpdatingEmail, uid: uid) { [self] future, idToken, generation in
            let rpc = SendOobCode(.verifyAndChangeEmail(idToken: idToken, newEmail: newEmail), settings: settings)
            send(rpc) { [self] result in
                completeVoid(future, result.map { _ in () }, generation: generation)
            }
        }
    }

    package func deleteUser(uid: String) -> FutureState {
        userOperation(.deleteUser, uid: uid) { [self] future, idToken, generation in
            send(DeleteAccount(idToken: idToken)) { [self] result in
                switch result {
                case .failure(let error):
                    failUserOperation(future, error, generation: generation)
                case .success:
                    expireSession(generation: generation)
                    finish(future, .success(.none))
                }
            }
        }
    }

    // MARK: - Plumbing

    static var noUser: AuthError { AuthError(code: .noSignedInUser, message: "That user is not signed in.") }

    func signedInGeneration(uid: String) -> UInt64? {
        state.withLock { s in s.session?.profile.uid == uid ? s.generation : nil }
    }

    /// Runs `body` with a fresh ID token of the signed-in user `uid`.
    func userOperation(
        _ operation: Operation, uid: String,
        _ body: @escaping (FutureState, _ idToken: String, _ generation: UInt64) -> Void
    ) -> FutureState {
        perform(operation) { [self] future in
            withFreshToken(future, uid: uid) { idToken, generation in body(future, idToken, generation) }
        }
    }

    /// On the loop thread: gets a fresh ID token of the signed-in user `uid`, or fails `future`.
    func withFreshToken(_ future: FutureState, uid: String,
                        _ body: @escaping (_ idToken: String, _ generation: UInt64) -> Void) {
        guard let generation = signedInGeneration(uid: uid) else { return finish(future, .failure(Self.noUser)) }
        refresher.token(force: false) { [self] result in
            switch result {
            case .failure(let error):
                finish(future, .failure(error))
            case .success(let idToken):
                guard signedInGeneration(uid: uid) == generation else { return finish(future, .failure(Self.noUser)) }
                body(idToken, generation)
            }
        }
    }

    /// A user-scoped call failed: if the server says the session is dead, sign out (as the
    /// Firebase SDKs do), then fail the future.
    func failUserOperation(_ future: FutureState, _ error: AuthError, generation: UInt64) {
        if error.isPermanentSessionFailure { expireSession(generation: generation) }
        finish(future, .failure(error))
    }

    private func completeVoid(_ future: FutureState, _ result: Result<Void, AuthError>, generation: UInt64) {
        switch result {
        case .failure(let error): failUserOperation(future, error, generation: generation)
        case .success: finish(future, .success(.none))
        }
    }

    private func finishWithUser(_ future: FutureState, _ session: Session?) {
        guard let session else { return finish(future, .failure(Self.noUser)) }
        finish(future, .success(.user(snapshot(session.profile))))
    }

    /// The session's tokens after accounts:update: new ones when the server re-issued them (a changed
    /// email or password revokes the old ones), else `previous`.
    func tokenSet(after response: SetAccountInfo.Response, previous: TokenSet) -> TokenSet {
        guard let idToken = response.idToken else { return previous }
        return tokenSet(idToken: idToken, refreshToken: response.refreshToken, expiresIn: response.expiresIn,
                        previous: previous)
    }
}
