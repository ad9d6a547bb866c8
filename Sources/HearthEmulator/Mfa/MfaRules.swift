/// Who may enroll second factors, and how many.
enum MfaRules {
    /// At most this many second factors per account; one more is SECOND_FACTOR_LIMIT_EXCEEDED.
    /// (Identity Platform's limit; Firebase's emulator has none.)
    static let maximumSecondFactors = 5

    /// First factors that cannot carry a second factor, as in the reference.
    static let ineligibleFirstFactors: Set<String> = [
        ProviderID.anonymous, ProviderID.phone, ProviderID.custom, ProviderID.gameCenter,
    ]

    /// The ID token's sign-in provider, when it can be the first of two factors.
    static func eligibleFirstFactor(_ token: IdTokenVerifier.Verified) throws(ApiError) -> String {
        guard let provider = token.signInProvider, !ineligibleFirstFactors.contains(provider) else {
            throw .badRequest("UNSUPPORTED_FIRST_FACTOR : MFA is not available for the given first factor.")
        }
        return provider
    }

    static func requireVerifiedEmail(_ user: UserRecord) throws(ApiError) {
        try require(user.emailVerified == true,
                    "UNVERIFIED_EMAIL : Need to verify email first before enrolling second factors.")
    }

    static func requireRoomForAnother(_ user: UserRecord) throws(ApiError) {
        try require(user.secondFactors.count < maximumSecondFactors, "SECOND_FACTOR_LIMIT_EXCEEDED")
    }

    static func requireNotEnrolled(phoneNumber: String, _ user: UserRecord) throws(ApiError) {
        try require(
            !user.secondFactors.contains { $0.phoneNumber == phoneNumber },
            "SECOND_FACTOR_EXISTS : Phone number already enrolled as second factor for this account.")
    }

    /// One authenticator app per account: a second TOTP factor would share the account's name in it.
    static func requireNoTotpFactor(_ user: UserRecord) throws(ApiError) {
        try require(
            !user.secondFactors.contains { $0.totpInfo != nil },
            "SECOND_FACTOR_EXISTS : ((A TOTP authenticator is already enrolled as second factor for this account.))")
    }

    /// A new 28-character id no factor of the account uses.
    static func newEnrollmentId(for user: UserRecord) -> String {
        let taken = Set(user.secondFactors.map(\.mfaEnrollmentId))
        var id = RandomID.alphanumeric(28)
        while taken.contains(id) { id = RandomID.alphanumeric(28) }
        return id
    }
}
