/// Firebase's "requires recent login" (hearth-emulator only; Firebase's emulator never asks): a
/// password change, an email change, an account deletion, or enrolling or withdrawing a second
/// factor (mfaEnrollment:start, mfaEnrollment:withdraw) made with an ID token whose sign-in
/// (`auth_time`) is older than the project's `recentLoginMaxAgeSeconds` fails with
/// CREDENTIAL_TOO_OLD_LOGIN_AGAIN, and the app must reauthenticate first. Refreshing a token keeps its
/// `auth_time`; only signing in again renews it. Admin requests are never asked.
enum RecentLogin {
    static func require(
        _ token: IdTokenVerifier.Verified, in project: ProjectState, clock: EmulatorClock
    ) throws(ApiError) {
        let maxAge = project.config.recentLoginMaxAgeSeconds
        guard maxAge > 0 else { return }
        let signedInAt = token.claims["auth_time"]?.doubleValue ?? token.claims["iat"]?.doubleValue ?? 0
        if Double(clock.seconds) - signedInAt > Double(maxAge) {
            throw .badRequest("CREDENTIAL_TOO_OLD_LOGIN_AGAIN")
        }
    }
}
