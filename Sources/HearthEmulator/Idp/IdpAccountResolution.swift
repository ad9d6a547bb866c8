/// Which account an IdP sign-in lands on and what it changes there, by the reference's rules
/// (`handleLinkIdp`, `handleIdpSigninEmailRequired`, `handleIdpSigninEmailNotRequired`,
/// `handleIdpSignUp`). Deciding writes nothing, so a refused link leaves every account as it was.
struct IdpAccountResolution {
    enum Target {
        case existing(UserRecord)
        case newAccount
    }

    enum Outcome {
        case proceed(IdpAccountResolution)
        /// The email belongs to an account, but the provider did not verify it: the client must
        /// sign in to that account some other way and link this provider there.
        case needConfirmation(localId: String, verifiedProvider: [String]?)
    }

    var target: Target
    var emailRecycled = false
    var edits: [(inout UserRecord) -> Void] = []
    var deleteProviders: [String] = []

    var isNewUser: Bool {
        if case .newAccount = target { true } else { false }
    }

    /// Linking to the account of `idToken`. FEDERATED_USER_ID_ALREADY_LINKED when this identity is
    /// linked anywhere, even to that account; EMAIL_EXISTS when its email is another account's.
    static func link(
        _ profile: IdpProfile, to user: UserRecord, in project: ProjectState
    ) throws(ApiError) -> IdpAccountResolution {
        try require(project.user(providerId: profile.providerId, rawId: profile.rawId) == nil,
                    "FEDERATED_USER_ID_ALREADY_LINKED")
        var resolution = IdpAccountResolution(target: .existing(user))
        guard let email = profile.email else { return resolution }
        let oneAccountPerEmail = project.config.oneAccountPerEmail
        if oneAccountPerEmail, let owner = project.user(email: email) {
            try require(owner.localId == user.localId, "EMAIL_EXISTS")
        }
        var resultingEmail = user.email
        if oneAccountPerEmail, user.email == nil {
            let verified = profile.emailVerified
            resolution.edits.append { $0.email = email; $0.emailVerified = verified }
            resultingEmail = email
        }
        if profile.emailVerified, resultingEmail == email {
            resolution.edits.append { $0.emailVerified = true }
        }
        return resolution
    }

    /// Signing in without `idToken`.
    static func signIn(_ profile: IdpProfile, in project: ProjectState, clock: EmulatorClock) -> Outcome {
        if let linked = project.user(providerId: profile.providerId, rawId: profile.rawId) {
            return .proceed(IdpAccountResolution(target: .existing(linked)))
        }
        guard project.config.oneAccountPerEmail else {
            // With duplicate emails allowed, the email stays on the identity only.
            return .proceed(signUp(profile, copyingEmail: false))
        }
        guard let email = profile.email, let owner = project.user(email: email) else {
            return .proceed(signUp(profile, copyingEmail: true))
        }
        guard profile.emailVerified else {
            let verified = owner.providerUserInfo?.map(\.providerId)
                .filter { $0 != ProviderID.password && $0 != ProviderID.phone }
            return .needConfirmation(localId: owner.localId, verifiedProvider: verified)
        }

        var resolution = IdpAccountResolution(target: .existing(owner))
        resolution.emailRecycled = (owner.providerUserInfo ?? []).contains {
            $0.providerId == profile.providerId && $0.rawId != profile.rawId
        }
        if owner.emailVerified != true {
            // Whoever set up the account never proved they own the email; the provider just did,
            // so the account's other ways in are dropped and its sessions revoked.
            let now = String(clock.seconds)
            resolution.edits.append { $0.passwordHash = nil; $0.phoneNumber = nil; $0.validSince = now }
            resolution.deleteProviders = (owner.providerUserInfo ?? []).map(\.providerId)
        }
        let (displayName, photoUrl, screenName) = (profile.displayName, profile.photoUrl, profile.screenName)
        resolution.edits.append {
            $0.displayName = displayName
            $0.photoUrl = photoUrl
            $0.screenName = screenName
            $0.emailVerified = true
        }
        return .proceed(resolution)
    }

    private static func signUp(_ profile: IdpProfile, copyingEmail: Bool) -> IdpAccountResolution {
        var resolution = IdpAccountResolution(target: .newAccount)
        let (displayName, photoUrl, screenName) = (profile.displayName, profile.photoUrl, profile.screenName)
        resolution.edits.append { $0.displayName = displayName; $0.photoUrl = photoUrl; $0.screenName = screenName }
        if copyingEmail, let email = profile.email {
            let verified = profile.emailVerified
            resolution.edits.append { $0.email = email; $0.emailVerified = verified }
        }
        return resolution
    }
}
