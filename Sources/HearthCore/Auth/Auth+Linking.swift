/// One account reachable through several providers: link, unlink, and proving again who you are.
extension Auth {
    /// Links `credential` to the signed-in user `uid`. Result: an auth result. A credential that
    /// belongs to another account fails with CREDENTIAL_ALREADY_IN_USE (or EMAIL_ALREADY_IN_USE), and
    /// the failed future still carries an updated credential that signs in to that account.
    public func link(uid: String, with credential: Credential) -> FutureState {
        if let error = credential.validationError { return rejected(.linkWithCredential, error) }
        return perform(.linkWithCredential) { [self] future in startLink(future, uid: uid, with: credential) }
    }

    /// Links a checked credential, completing `future` (loop thread).
    func startLink(_ future: FutureState, uid: String, with credential: Credential) {
        withFreshToken(future, uid: uid) { [self] idToken, generation, service in
            let linked = state.withLock { $0.session?.profile.providerData.map(\.providerId) ?? [] }
            if linked.contains(credential.providerId) {
                return finish(future, .failure(AuthError(code: .providerAlreadyLinked,
                                                         message: "The user already has a \(credential.providerId) credential linked.")))
            }
            switch credential {
            case .emailPassword(let email, let password):
                service.signUp(SignUpParameters(email: email, password: password, idToken: idToken)) { [self] result in
                    completeLink(future, result, idp: nil, generation: generation, service: service)
                }
            case .federated(let federated):
                service.signInWithIdp(federated.signInWithIdp(.link(idToken: idToken))) { [self] result in
                    completeLink(future, result.map(\.tokens).mapError { $0.carryingRawNonce(of: federated) },
                                 idp: result.success?.idp, generation: generation, service: service)
                }
            case .phone(let phone):
                service.call(phone.signInWithPhoneNumber(.link(idToken: idToken)), spending(phone) { [self] result in
                    completeLink(future, result.map { Self.issued($0.tokens) }, idp: nil, generation: generation,
                                 service: service, provider: ProviderID.phone)
                })
            case .emailLink(let link):
                service.call(link.signInWithEmailLink(idToken: idToken)) { [self] result in
                    completeLink(future, result.map(Self.issued), idp: nil, generation: generation, service: service)
                }
            }
        }
    }

    func completeLink(_ future: FutureState, _ tokens: Result<IssuedTokens, AuthError>, idp: IdpResponse?,
                      generation: UInt64, service: IdentityService, provider: String = ProviderID.password,
                      resultKind: SignInResultKind = .authResult) {
        let issued: IssuedTokens
        switch tokens {
        case .failure(let error): return failUserOperation(future, error, generation: generation)
        case .success(let value): issued = value
        }
        // The link re-issued the tokens; the account (providers, email) is read back as the server has it.
        service.lookup(idToken: issued.idToken) { [self] lookup in
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
    public func unlink(uid: String, providerId: String) -> FutureState {
        if providerId.isEmpty {
            return rejected(.unlink, AuthError(code: .noSuchProvider, message: "A provider id is required."))
        }
        return userOperation(.unlink, uid: uid) { [self] future, idToken, generation, service in
            let linked = state.withLock { $0.session?.profile.providerData.map(\.providerId) ?? [] }
            guard linked.contains(providerId) else {
                return finish(future, .failure(AuthError(code: .noSuchProvider,
                                                         message: "The user has no \(providerId) credential linked.")))
            }
            var changes = AccountChanges()
            changes.deleteProviders = [providerId]
            service.update(idToken: idToken, changes) { [self] result in
                switch result {
                case .failure(let error):
                    failUserOperation(future, error, generation: generation)
                case .success(let response):
                    let updated = updateSession(generation: generation) { session in
                        let remaining = response.providers ?? session.profile.providerData.filter { $0.providerId != providerId }
                        session.profile.providerData = remaining
                        if providerId == ProviderID.password { session.profile.email = "" }
                        if providerId == ProviderID.phone { session.profile.phoneNumber = "" }
                        if let tokens = response.tokens { session.tokens = tokenSet(tokens, previous: session.tokens) }
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
    public func reauthenticate(uid: String, with credential: Credential, retrieveData: Bool) -> FutureState {
        let operation: Operation = retrieveData ? .reauthenticateAndRetrieveData : .reauthenticate
        if let error = credential.validationError { return rejected(operation, error) }
        return perform(operation) { [self] future in
            startReauthentication(future, uid: uid, with: credential, retrieveData: retrieveData)
        }
    }

    /// Reauthenticates with a checked credential, completing `future` (loop thread).
    func startReauthentication(_ future: FutureState, uid: String, with credential: Credential, retrieveData: Bool) {
        guard let generation = signedInGeneration(uid: uid) else { return finish(future, .failure(Self.noUser)) }
        withService(future) { service in
            let done: (Result<IssuedTokens, AuthError>, IdpResponse?) -> Void = { [self] result, idp in
                completeReauthentication(future, result, idp: idp, uid: uid, generation: generation,
                                         retrieveData: retrieveData, service: service)
            }
            switch credential {
            case .emailPassword(let email, let password):
                service.signInWithPassword(email: email, password: password) { done($0, nil) }
            case .federated(let federated):
                service.signInWithIdp(federated.signInWithIdp(.reauthenticate)) { result in
                    done(result.map(\.tokens), result.success?.idp)
                }
            case .phone(let phone):
                service.call(phone.signInWithPhoneNumber(.reauthenticate), spending(phone) { result in
                    done(result.map { Self.issued($0.tokens) }, nil)
                })
            case .emailLink(let link):
                service.call(link.signInWithEmailLink()) { result in done(result.map(Self.issued), nil) }
            }
        }
    }

    private func completeReauthentication(_ future: FutureState, _ tokens: Result<IssuedTokens, AuthError>,
                                          idp: IdpResponse?, uid: String, generation: UInt64, retrieveData: Bool,
                                          service: IdentityService) {
        let issued: IssuedTokens
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
        service.lookup(idToken: issued.idToken) { [self] lookup in
            switch lookup {
            case .failure(let error):
                failUserOperation(future, error, generation: generation)
            case .success(let record):
                let updated = updateSession(generation: generation) { session in
                    let wasAnonymous = session.profile.isAnonymous
                    session.profile = Self.profile(from: record, signInProvider: "")
                    session.profile.isAnonymous = wasAnonymous && record.providers.isEmpty && record.email.isEmpty
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
