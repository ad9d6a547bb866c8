import HearthBackend
import HearthWire

/// Sign-in operations: each gets tokens, then loads the account (accounts:lookup) so the user's
/// profile is complete before the session is installed and the future completes.
extension Auth {
    enum SignInResultKind {
        case authResult
        case user
    }

    package func signInAnonymously() -> FutureState {
        perform(.signInAnonymously) { [self] future in
            // Already anonymous: the C++ SDK hands back the current user instead of replacing it.
            if let session = state.current.session, session.profile.isAnonymous {
                let info = AdditionalUserInfo(providerId: "anonymous", isNewUser: false)
                return finish(future, .success(.authResult(AuthResultSnapshot(user: snapshot(session.profile),
                                                                              additionalUserInfo: info))))
            }
            send(SignUp.anonymous) { [self] result in
                completeSignIn(future, result.map(Self.newUser), kind: .authResult, provider: "anonymous")
            }
        }
    }

    package func createUser(email: String, password: String) -> FutureState {
        if let error = Self.checkEmailAndPassword(email, password) {
            return rejected(.createUserWithEmailAndPassword, error)
        }
        return perform(.createUserWithEmailAndPassword) { [self] future in
            send(SignUp(email: email, password: password)) { [self] result in
                completeSignIn(future, result.map(Self.newUser), kind: .authResult, provider: "password")
            }
        }
    }

    package func signIn(email: String, password: String) -> FutureState {
        signInWithPassword(email: email, password: password, operation: .signInWithEmailAndPassword,
                           kind: .authResult)
    }

    package func signInWithCustomToken(_ token: String) -> FutureState {
        if token.isEmpty {
            return rejected(.signInWithCustomToken,
                            AuthError(code: .invalidCustomToken, message: "The custom token is empty."))
        }
        return perform(.signInWithCustomToken) { [self] future in
            send(SignInWithCustomToken(token: token)) { [self] result in
                completeSignIn(future, result, kind: .authResult, provider: "custom")
            }
        }
    }

    /// Result: the user (Future<User> in the C++ SDK).
    package func signIn(with credential: Credential) -> FutureState {
        signIn(with: credential, operation: .signInWithCredential, kind: .user)
    }

    /// Result: an auth result.
    package func signInAndRetrieveData(with credential: Credential) -> FutureState {
        signIn(with: credential, operation: .signInAndRetrieveDataWithCredential, kind: .authResult)
    }

    private func signIn(with credential: Credential, operation: Operation, kind: SignInResultKind) -> FutureState {
        if let error = credential.validationError { return rejected(operation, error) }
        return perform(operation) { [self] future in startSignIn(future, with: credential, kind: kind) }
    }

    /// Signs in with a checked credential, completing `future` (loop thread).
    func startSignIn(_ future: FutureState, with credential: Credential, kind: SignInResultKind) {
        switch credential {
        case .emailPassword(let email, let password):
            send(SignInWithPassword(email: email, password: password)) { [self] result in
                completeSignIn(future, result, kind: kind, provider: "password")
            }
        case .federated(let federated):
            send(federated.signInWithIdp(.signIn)) { [self] result in
                completeSignIn(future, result.map(\.tokens).mapError { $0.carryingRawNonce(of: federated) },
                               kind: kind, idp: result.success?.idp)
            }
        case .phone(let phone):
            send(phone.signInWithPhoneNumber(.signIn), spending(phone) { [self] result in
                completeSignIn(future, result.map(\.tokens), kind: kind, provider: "phone")
            })
        case .emailLink(let link):
            // Firebase writes "password" as the sign-in provider of an email link, too.
            send(link.signInWithEmailLink()) { [self] result in
                completeSignIn(future, result, kind: kind, provider: ProviderID.password)
            }
        }
    }

    /// accounts:signUp always creates (or upgrades) an account: new to the app, whatever the answer says.
    static func newUser(_ response: TokenResponse) -> TokenResponse {
        var response = response
        response.isNewUser = true
        return response
    }

    private func signInWithPassword(email: String, password: String, operation: Operation,
                                    kind: SignInResultKind) -> FutureState {
        if let error = Self.checkEmailAndPassword(email, password) { return rejected(operation, error) }
        return perform(operation) { [self] future in
            send(SignInWithPassword(email: email, password: password)) { [self] result in
                completeSignIn(future, result, kind: kind, provider: "password")
            }
        }
    }

    /// `settings`: where the link leads (nil: Firebase's own page, and back nowhere).
    package func sendPasswordResetEmail(_ email: String, settings: ActionCodeSettings? = nil) -> FutureState {
        if email.isEmpty {
            return rejected(.sendPasswordResetEmail, AuthError(code: .missingEmail, message: "An email address is required."))
        }
        if let error = settings?.validationError { return rejected(.sendPasswordResetEmail, error) }
        return perform(.sendPasswordResetEmail) { [self] future in
            send(SendOobCode(.passwordReset(email: email), settings: settings)) { [self] result in
                finish(future, result.map { _ in .none })
            }
        }
    }

    package func fetchProviders(forEmail email: String) -> FutureState {
        if email.isEmpty {
            return rejected(.fetchProvidersForEmail, AuthError(code: .missingEmail, message: "An email address is required."))
        }
        return perform(.fetchProvidersForEmail) { [self] future in
            send(CreateAuthUri(identifier: email)) { [self] result in
                // The C++ SDK reports allProviders; signinMethods is the newer field with the same content
                // for email accounts ("password", "emailLink").
                finish(future, result.map { .strings($0.allProviders.isEmpty ? $0.signinMethods : $0.allProviders) })
            }
        }
    }

    static func checkEmailAndPassword(_ email: String, _ password: String) -> AuthError? {
        if email.isEmpty { return AuthError(code: .missingEmail, message: "An email address is required.") }
        if password.isEmpty { return AuthError(code: .missingPassword, message: "A password is required.") }
        return nil
    }

    /// Second half of every sign-in: tokens → account → session → future. `provider`: the sign-in
    /// provider the RPC itself implies (Firebase writes it as the ID token's
    /// `firebase.sign_in_provider`: "password" for signInWithPassword, ...); nil where only the token
    /// tells (an identity provider's or a second factor's sign-in), and only then is it decoded.
    func completeSignIn(_ future: FutureState, _ tokens: Result<TokenResponse, AuthError>, kind: SignInResultKind,
                        idp: IdpResponse? = nil, provider: String? = nil) {
        let issued: TokenResponse
        switch tokens {
        case .failure(let error): return finish(future, .failure(error))
        case .success(let value): issued = value
        }
        send(GetAccountInfo(idToken: issued.idToken)) { [self] lookup in
            switch lookup {
            case .failure(let error):
                finish(future, .failure(error))
            case .success(let record):
                let signInProvider = provider ?? JWTClaims.signInProvider(of: issued.idToken) ?? ""
                let profile = Self.profile(from: record, signInProvider: signInProvider)
                // A user belongs to one tenant: one of another never becomes this Auth's current user
                // (Firebase's SDKs check the same before they install a user).
                if let mismatch = tenantMismatch(profile) { return finish(future, .failure(mismatch)) }
                let session = Session(profile: profile, tokens: tokenSet(issued))
                installSession(session)
                let user = snapshot(profile)
                switch kind {
                case .user:
                    finish(future, .success(.user(user)))
                case .authResult:
                    finish(future, .success(.authResult(authResult(user, signInProvider: signInProvider,
                                                                   isNewUser: issued.isNewUser, idp: idp))))
                }
            }
        }
    }

    /// TENANT_ID_MISMATCH when `profile` belongs to another tenant than the Auth's (either may be the
    /// project's own users, nil); nil when they agree.
    func tenantMismatch(_ profile: UserProfile) -> AuthError? {
        let authTenant = tenantId
        guard profile.tenantId != authTenant else { return nil }
        return AuthError(code: .tenantIdMismatch,
                         message: "The user's tenant is \(Self.describeTenant(profile.tenantId)); the Auth's tenant is "
                             + "\(Self.describeTenant(authTenant)).")
    }

    /// "\"t-1\"", or "none (the project's own users)", for messages (tenant ids are not secrets).
    static func describeTenant(_ tenantId: String?) -> String {
        tenantId.map { "\"\($0)\"" } ?? "none (the project's own users)"
    }

    /// The profile hosts see of the account accounts:lookup described.
    static func profile(from record: UserRecord, signInProvider: String) -> UserProfile {
        var profile = UserProfile(uid: record.localId)
        profile.email = record.email ?? ""
        profile.displayName = record.displayName ?? ""
        profile.photoURL = record.photoUrl ?? ""
        profile.phoneNumber = record.phoneNumber ?? ""
        profile.isEmailVerified = record.emailVerified
        profile.creationTimestamp = record.createdAt ?? 0
        profile.lastSignInTimestamp = record.lastLoginAt ?? 0
        profile.providerData = record.providerUserInfo.map(UserInfoSnapshot.init)
        profile.multiFactor = MultiFactorHint.list(record.mfaInfo).map(MultiFactorInfoSnapshot.init)
        profile.tenantId = record.tenantId
        // Anonymous until the account gains any way to sign in again.
        profile.isAnonymous = signInProvider == "anonymous" && hasNoWayToSignIn(record)
        return profile
    }

    /// No email, password or linked provider: nothing to sign in with again.
    static func hasNoWayToSignIn(_ record: UserRecord) -> Bool {
        (record.email ?? "").isEmpty && !record.hasPassword && record.providerUserInfo.isEmpty
    }

    /// The C++ SDK's AuthResult: the user, what the provider said about them, and the provider's
    /// own credential as the server returned it.
    func authResult(_ user: UserSnapshot, signInProvider: String, isNewUser: Bool, idp: IdpResponse?) -> AuthResultSnapshot {
        guard let idp else {
            return AuthResultSnapshot(user: user, additionalUserInfo: AdditionalUserInfo(providerId: signInProvider,
                                                                                         isNewUser: isNewUser))
        }
        let info = AdditionalUserInfo(providerId: idp.providerId ?? signInProvider, userName: idp.userName ?? "",
                                      profileJSON: JSONValue.object(idp.rawUserInfo ?? [:]).jsonText,
                                      isNewUser: idp.isNewUser)
        return AuthResultSnapshot(user: user, additionalUserInfo: info,
                                  credential: UpdatedCredential(response: idp).credential.map(Credential.federated))
    }
}

extension Result {
    var success: Success? {
        if case .success(let value) = self { return value }
        return nil
    }
}
