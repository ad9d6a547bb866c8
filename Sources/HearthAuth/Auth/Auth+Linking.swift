import HearthBackend

/// One account reachable through several providers: link, unlink, and proving again who you are.
extension Auth {
    /// Links `credential` to the signed-in user `uid`. Result: an auth result. A credential that
    /// belongs to another account fails with CREDENTIAL_ALREADY_IN_USE (or EMAIL_ALREADY_IN_USE), and
    /// the failed future still carries an updated credential that signs in to that account.
    package func link(uid: String, with credential: Credential) -> FutureState {
        if let error = credential.validationError { return rejected(.linkWithCredential, error) }
        return perform(.linkWithCredential) { [self] future in startLink(future, uid: uid, with: credential) }
    }

    /// Links a checked credential, completing `future` (loop thread).
    func startLink(_ future: FutureState, uid: String, with credential: Credential) {
        withFreshToken(future, uid: uid) { [self] idToken, generation in
            let linked = state.withLock { $0.session?.profile.providerData.map(\.providerId) ?? [] }
            if linked.contains(credential.providerId) {
                return finish(future, .failure(AuthError(code: .providerAlreadyLinked,
                                                         message: "The user already has a \(credential.providerId) credential linked.")))
            }
            switch credential {
            case .emailPassword(let email, let password):
                send(SignUp.link(idToken: idToken, email: email, password: password)) { [self] result in
                    completeLink(future, result, idp: nil, generation: generation)
                }
            case .federated(let federated):
                send(federated.signInWithIdp(.link(idToken: idToken))) { [self] result in
                    completeLink(future, result.map(\.tokens).mapError { $0.carryingRawNonce(of: federated) },
                                 idp: result.success?.idp, generation: generation)
                }
            case .phone(let phone):
                send(phone.signInWithPhoneNumber(.link(idToken: idToken)), spending(phone) { [self] result in
                    completeLink(future, result.map(\.tokens), idp: nil, generation: generation,
                                 provider: ProviderID.phone)
                })
            case .emailLink(let link):
                send(link.signInWithEmailLink(idToken: idToken)) { [self] result in
                    completeLink(future, result, idp: nil, generation: generation)
                }
            }
        }
    }

    func completeLink(_ future: FutureState, _ tokens: Result<TokenResponse, AuthError>, idp: IdpResponse?,
                      generation: UInt64, provider: String = ProviderID.password,
                      resultKind: SignInResultKind = .authResult) {
        let issued: TokenResponse
        switch tokens {
        case .failure(let error): return failUserOperation(future, error, generation: generation)
        case .success(let value): issued = value
        }
        // The link re-issued the tokens; the account (providers, email) is read back as the server has it.
        send(GetAccountInfo(idToken: issued.idToken)) { [self] lookup in
            switch lookup {
            case .failure(let error):
                failUserOperation(future, error, generation: generation)
            case .success(let record):
                let updated = updateSession(generation: generation) { session in
                    session.profile = Self.profile(from: record, signInProvider: "")
                    session.tokens = tokenSet(issued, previous: session.tokens)
                }
                guard let updated else { return finish(future, .failure(Self.noUser)) }
                if resultKind == .user { return finish(future, .success(.user(snapshot(updated.profile)))) }
                finish(future, .success(.authResult(authResult(snapshot(updated.profile),
                                                               signInProvider: idp?.providerId ?? provider,
                                                               isNewUser: false, idp: idp))))
            }
        }
    }

    /// Unlinks `providerId` from the signed-in user `uid`. Result: an auth result with the updated
    /// user. Unlinking "password" removes the email, "phone" the phone number.
    package func unlink(uid: String, providerId: String) -> FutureState {
        if providerId.isEmpty {
            return rejected(.unlink, AuthError(code: .noSuchProvider, message: "A provider id is required."))
        }
        return userOperation(.unlink, uid: uid) { [self] future, idToken, generation in
            let linked = state.withLock { $0.session?.profile.providerData.map(\.providerId) ?? [] }
            guard linked.contains(providerId) else {
                return finish(future, .failure(AuthError(code: .noSuchProvider,
                                                         message: "The user has no \(providerId) credential linked.")))
            }
            send(SetAccountInfo(idToken: idToken, deleteProviders: [providerId])) { [self] result in
                switch result {
                case .failure(let error):
                    failUserOperation(future, error, generation: generation)
                case .success(let response):
                    let updated = updateSession(generation: generation) { session in
                        session.profile.providerData = response.providerUserInfo.map(UserInfoSnapshot.init)
                        if providerId == ProviderID.password { session.profile.email = "" }
                        if providerId == ProviderID.phone { session.profile.phoneNumber = "" }
                        session.tokens = tokenSet(after: response, previous: session.tokens)
                    }
                    guard let updated else { return finish(future, .failure(Self.noUser)) }
                    let info = AdditionalUserInfo(providerId: providerId, isNewUser: false)
                    finish(future, .success(.authResult(AuthResultSnapshot(user: snapshot(updated.profile),
                                                                           additionalUserInfo: info))))
                }
            }
        }
    }

    /// Proves again that the signed-in user `uid` owns `credential` (before sensitive operations).
    /// A credential of another account fails with USER_MISMATCH and the user stays signed in.
    /// Result: none, or an auth result with `retrieveData`.
    package func reauthenticate(uid: String, with credential: Credential, retrieveData: Bool) -> FutureState {
        let operation: Operation = retrieveData ? .reauthenticateAndRetrieveData : .reauthenticate
        if let error = credential.validationError { return rejected(operation, error) }
        return perform(operation) { [self] future in
            startReauthentication(future, uid: uid, with: credential, retrieveData: retrieveData)
        }
    }

    /// Reauthenticates with a checked credential, completing `future` (loop thread).
    func startReauthentication(_ future: FutureState, uid: String, with credential: Credential, retrieveData: Bool) {
        guard let generation = signedInGeneration(uid: uid) else { return finish(future, .failure(Self.noUser)) }
        let done: (Result<TokenResponse, AuthError>, IdpResponse?) -> Void = { [self] result, idp in
            completeReauthentication(future, result, idp: idp, uid: uid, generation: generation,
                                     retrieveData: retrieveData)
        }
        switch credential {
        case .emailPassword(let email, let password):
            send(SignInWithPassword(email: email, password: password)) { done($0, nil) }
        case .federated(let federated):
            send(federated.signInWithIdp(.reauthenticate)) { result in
                done(result.map(\.tokens), result.success?.idp)
            }
        case .phone(let phone):
            send(phone.signInWithPhoneNumber(.reauthenticate), spending(phone) { result in
                done(result.map(\.tokens), nil)
            })
        case .emailLink(let link):
            send(link.signInWithEmailLink()) { result in done(result, nil) }
        }
    }

    private func completeReauthentication(_ future: FutureState, _ tokens: Result<TokenResponse, AuthError>,
                                          idp: IdpResponse?, uid: String, generation: UInt64, retrieveData: Bool) {
        let issued: TokenResponse
        switch tokens {
        case .failure(let error):
            // The credential's account does not exist: it is not this user's (both SDKs say mismatch).
            if error.code == .userNotFound {
                return finish(future, .failure(AuthError(code: .userMismatch, message: Self.mismatchMessage)))
            }
            return finish(future, .failure(error))
        case .success(let value):
            issued = value
        }
        let claims = try? JWTClaims(token: issued.idToken)
        guard (claims?.subject ?? issued.localId) == uid else {
            return finish(future, .failure(AuthError(code: .userMismatch, message: Self.mismatchMessage)))
        }
        send(GetAccountInfo(idToken: issued.idToken)) { [self] lookup in
            switch lookup {
            case .failure(let error):
                failUserOperation(future, error, generation: generation)
            case .success(let record):
                let updated = updateSession(generation: generation) { session in
                    let wasAnonymous = session.profile.isAnonymous
                    session.profile = Self.profile(from: record, signInProvider: "")
                    session.profile.isAnonymous = wasAnonymous && record.providerUserInfo.isEmpty
                        && (record.email ?? "").isEmpty
                    session.tokens = tokenSet(issued, previous: session.tokens)
                }
                guard let updated else { return finish(future, .failure(Self.noUser)) }
                guard retrieveData else { return finish(future, .success(.none)) }
                let provider = idp?.providerId ?? claims?.signInProvider ?? ""
                finish(future, .success(.authResult(authResult(snapshot(updated.profile), signInProvider: provider,
                                                               isNewUser: false, idp: idp))))
            }
        }
    }

    static let mismatchMessage = "The supplied credentials do not correspond to the previously signed in user."
}
