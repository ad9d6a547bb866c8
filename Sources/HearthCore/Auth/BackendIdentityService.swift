/// Auth's remote operations over the Identity Toolkit protocol (the backend layer). Loop-confined.
final class BackendIdentityService: IdentityService {
    private let backend: Backend
    private let transport: CurlTransport
    /// Read per request: the language code and emulator address may change at any time.
    private let config: () -> BackendConfig

    init(backend: Backend, transport: CurlTransport, config: @escaping () -> BackendConfig) {
        self.backend = backend
        self.transport = transport
        self.config = config
    }

    func signUp(_ request: SignUpParameters, _ completion: @escaping (Result<IssuedTokens, AuthError>) -> Void) {
        let rpc = SignUp(email: request.email, password: request.password, displayName: request.displayName,
                         idToken: request.idToken)
        backend.perform(rpc, config: config()) { result in
            // accounts:signUp always creates (or upgrades) an account: new to the app.
            completion(result.map { Self.tokens($0, isNewUser: request.idToken == nil) })
        }
    }

    func signInWithPassword(email: String, password: String,
                            _ completion: @escaping (Result<IssuedTokens, AuthError>) -> Void) {
        backend.perform(SignInWithPassword(email: email, password: password), config: config()) { result in
            completion(result.map { Self.tokens($0, isNewUser: false) })
        }
    }

    func signInWithCustomToken(_ token: String, _ completion: @escaping (Result<IssuedTokens, AuthError>) -> Void) {
        backend.perform(SignInWithCustomToken(token: token), config: config()) { result in
            completion(result.map { Self.tokens($0, isNewUser: $0.isNewUser) })
        }
    }

    func lookup(idToken: String, _ completion: @escaping (Result<AccountRecord, AuthError>) -> Void) {
        backend.perform(GetAccountInfo(idToken: idToken), config: config()) { result in
            completion(result.map(Self.account))
        }
    }

    func update(idToken: String, _ changes: AccountChanges,
                _ completion: @escaping (Result<AccountUpdateResult, AuthError>) -> Void) {
        var deletes: [UserAttribute] = []
        if changes.deleteDisplayName { deletes.append(.displayName) }
        if changes.deletePhotoURL { deletes.append(.photoUrl) }
        var rpc = SetAccountInfo(idToken: idToken, displayName: changes.displayName, photoUrl: changes.photoURL,
                                 email: changes.email, password: changes.password)
        rpc.deleteAttributes = deletes
        rpc.deleteProviders = changes.deleteProviders
        backend.perform(rpc, config: config()) { result in
            completion(result.map { response in
                var update = AccountUpdateResult()
                if let idToken = response.idToken {
                    update.tokens = IssuedTokens(idToken: idToken, refreshToken: response.refreshToken ?? "",
                                                 expiresIn: response.expiresIn, localId: response.localId)
                }
                update.email = response.email
                update.displayName = response.displayName
                update.photoURL = response.photoUrl
                update.emailVerified = response.emailVerified
                update.providers = response.providerUserInfo.map(Self.userInfo)
                return update
            })
        }
    }

    func deleteAccount(idToken: String, _ completion: @escaping (Result<Void, AuthError>) -> Void) {
        backend.perform(DeleteAccount(idToken: idToken), config: config()) { result in completion(result) }
    }

    func sendOobCode(_ request: OobCodeRequest, settings: ActionCodeSettings?,
                     _ completion: @escaping (Result<Void, AuthError>) -> Void) {
        let wire: SendOobCode.Request
        switch request {
        case .passwordReset(let email): wire = .passwordReset(email: email)
        case .verifyEmail(let idToken): wire = .verifyEmail(idToken: idToken)
        case .verifyAndChangeEmail(let idToken, let newEmail): wire = .verifyAndChangeEmail(idToken: idToken, newEmail: newEmail)
        case .emailSignIn(let email): wire = .emailSignIn(email: email)
        }
        backend.perform(SendOobCode(wire, settings: settings), config: config()) { result in
            completion(result.map { _ in () })
        }
    }

    func signInMethods(forEmail email: String, _ completion: @escaping (Result<[String], AuthError>) -> Void) {
        backend.perform(CreateAuthUri(identifier: email), config: config()) { result in
            // The C++ SDK reports allProviders; signinMethods is the newer field with the same content
            // for email accounts ("password", "emailLink").
            completion(result.map { $0.allProviders.isEmpty ? $0.signinMethods : $0.allProviders })
        }
    }

    func refresh(refreshToken: String, _ completion: @escaping (Result<IssuedTokens, AuthError>) -> Void) {
        backend.perform(SecureTokenRefresh(refreshToken: refreshToken), config: config()) { result in
            completion(result.map {
                IssuedTokens(idToken: $0.idToken, refreshToken: $0.refreshToken ?? "", expiresIn: $0.expiresIn,
                             localId: $0.userId)
            })
        }
    }

    func signInWithIdp(_ request: SignInWithIdp, _ completion: @escaping (Result<IdpSignIn, AuthError>) -> Void) {
        backend.perform(request, config: config()) { result in
            completion(result.map { IdpSignIn(tokens: Self.tokens($0.tokens, isNewUser: $0.idp.isNewUser), idp: $0.idp) })
        }
    }

    func createAuthUri(_ request: CreateAuthUriForProvider,
                       _ completion: @escaping (Result<CreateAuthUriForProvider.Response, AuthError>) -> Void) {
        backend.perform(request, config: config()) { result in completion(result) }
    }

    func call<R: BackendRPC>(_ rpc: R, _ completion: @escaping (Result<R.Response, AuthError>) -> Void) {
        backend.perform(rpc, config: config()) { result in completion(result) }
    }

    func shutdown() {
        transport.close()
    }

    private static func tokens(_ response: TokenResponse, isNewUser: Bool) -> IssuedTokens {
        IssuedTokens(idToken: response.idToken, refreshToken: response.refreshToken, expiresIn: response.expiresIn,
                     localId: response.localId, isNewUser: isNewUser)
    }

    private static func userInfo(_ info: ProviderUserInfo) -> UserInfoSnapshot {
        UserInfoSnapshot(uid: info.uid ?? "", providerId: info.providerId, email: info.email ?? "",
                         displayName: info.displayName ?? "", photoURL: info.photoUrl ?? "",
                         phoneNumber: info.phoneNumber ?? "")
    }

    private static func account(_ record: UserRecord) -> AccountRecord {
        var account = AccountRecord(localId: record.localId)
        account.email = record.email ?? ""
        account.emailVerified = record.emailVerified
        account.displayName = record.displayName ?? ""
        account.photoURL = record.photoUrl ?? ""
        account.phoneNumber = record.phoneNumber ?? ""
        account.hasPassword = record.hasPassword
        account.providers = record.providerUserInfo.map(userInfo)
        account.createdAtMs = record.createdAt ?? 0
        account.lastLoginAtMs = record.lastLoginAt ?? 0
        account.multiFactor = MultiFactorHint.list(record.mfaInfo).map(MultiFactorInfoSnapshot.init)
        account.tenantId = record.tenantId
        return account
    }
}
