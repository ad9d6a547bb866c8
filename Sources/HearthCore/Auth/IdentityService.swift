/// The remote operations Auth needs, in Auth's own terms. The production implementation
/// (`BackendIdentityService`) speaks the Identity Toolkit protocol through the backend layer; tests
/// substitute a fake. Called and completed on the loop thread.
protocol IdentityService: AnyObject {
    func signUp(_ request: SignUpParameters, _ completion: @escaping (Result<IssuedTokens, AuthError>) -> Void)
    func signInWithPassword(email: String, password: String,
                            _ completion: @escaping (Result<IssuedTokens, AuthError>) -> Void)
    func signInWithCustomToken(_ token: String, _ completion: @escaping (Result<IssuedTokens, AuthError>) -> Void)
    func lookup(idToken: String, _ completion: @escaping (Result<AccountRecord, AuthError>) -> Void)
    func update(idToken: String, _ changes: AccountChanges,
                _ completion: @escaping (Result<AccountUpdateResult, AuthError>) -> Void)
    func deleteAccount(idToken: String, _ completion: @escaping (Result<Void, AuthError>) -> Void)
    func sendOobCode(_ request: OobCodeRequest, settings: ActionCodeSettings?,
                     _ completion: @escaping (Result<Void, AuthError>) -> Void)
    func signInMethods(forEmail email: String, _ completion: @escaping (Result<[String], AuthError>) -> Void)
    func refresh(refreshToken: String, _ completion: @escaping (Result<IssuedTokens, AuthError>) -> Void)
    /// accounts:signInWithIdp: sign in, link or reauthenticate with an identity provider's credential.
    func signInWithIdp(_ request: SignInWithIdp, _ completion: @escaping (Result<IdpSignIn, AuthError>) -> Void)
    /// accounts:createAuthUri for a provider: where to send the browser (production provider flow).
    func createAuthUri(_ request: CreateAuthUriForProvider,
                       _ completion: @escaping (Result<CreateAuthUriForProvider.Response, AuthError>) -> Void)
    /// Any other RPC (phone, multi-factor), decoded by the backend layer.
    func call<R: BackendRPC>(_ rpc: R, _ completion: @escaping (Result<R.Response, AuthError>) -> Void)
    /// Aborts everything in flight without completing it (the app is going away).
    func shutdown()
}

struct SignUpParameters: Equatable {
    var email: String?
    var password: String?
    var displayName: String?
    /// Links the email/password to this signed-in user instead of creating one.
    var idToken: String?
}

/// Tokens from any sign-in, sign-up or refresh.
struct IssuedTokens: Equatable {
    var idToken: String
    var refreshToken: String
    /// Seconds; nil when the server did not say (then the JWT's exp decides).
    var expiresIn: Int64?
    var localId: String?
    var isNewUser: Bool = false
}

/// What a successful signInWithIdp brings: tokens plus what the identity provider said.
struct IdpSignIn: Equatable {
    var tokens: IssuedTokens
    var idp: IdpResponse
}

/// A user as accounts:lookup describes it.
struct AccountRecord: Equatable {
    var localId: String
    var email: String = ""
    var emailVerified: Bool = false
    var displayName: String = ""
    var photoURL: String = ""
    var phoneNumber: String = ""
    var hasPassword: Bool = false
    var providers: [UserInfoSnapshot] = []
    var createdAtMs: UInt64 = 0
    var lastLoginAtMs: UInt64 = 0
    var multiFactor: [MultiFactorInfoSnapshot] = []
    /// The Identity Platform tenant the account belongs to; nil for the project's own users.
    var tenantId: String?
}

/// accounts:update changes. nil fields are left alone.
struct AccountChanges: Equatable {
    var displayName: String?
    var photoURL: String?
    var email: String?
    var password: String?
    var deleteDisplayName = false
    var deletePhotoURL = false
    var deleteProviders: [String] = []
}

struct AccountUpdateResult: Equatable {
    /// New tokens when the server re-issued them (password or email changed).
    var tokens: IssuedTokens?
    var email: String?
    var displayName: String?
    var photoURL: String?
    var emailVerified: Bool?
    var providers: [UserInfoSnapshot]?
}

enum OobCodeRequest: Equatable {
    case passwordReset(email: String)
    case verifyEmail(idToken: String)
    case verifyAndChangeEmail(idToken: String, newEmail: String)
    case emailSignIn(email: String)
}
