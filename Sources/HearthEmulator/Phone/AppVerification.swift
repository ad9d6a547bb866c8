/// Proof that a verification SMS is requested by the real app (hearth-emulator only; Firebase's
/// emulator ignores app credentials). Off unless the project's `appVerificationRequired` is set.
/// Then every SMS to a number that is not a test number needs a reCAPTCHA token from the fake
/// reCAPTCHA page (`/emulator/auth/handler?authType=verifyApp`, see `VerifyAppPage`), sent as
/// `recaptchaToken` (or as reCAPTCHA Enterprise's `captchaResponse`); each token works once.
/// Test numbers need none, which is Firebase's "app verification disabled for testing": only
/// fictional numbers work then.
struct AppCredentials: Sendable {
    var recaptchaToken: String?
    var captchaResponse: String?
    /// Credentials the emulator cannot check (APNs receipts, SafetyNet, Play Integrity).
    var platformCredentials: [String?] = []
}

enum AppVerification {
    static let tokenLifetimeMilliseconds: Int64 = 600_000

    static func require(
        _ credentials: AppCredentials, for phoneNumber: String, in project: inout ProjectState, now: Int64
    ) throws(ApiError) {
        guard project.config.appVerificationRequired,
              project.config.testPhoneNumbers.code(for: phoneNumber) == nil
        else { return }
        let token = [credentials.recaptchaToken, credentials.captchaResponse].compactMap { $0 }.first { !$0.isEmpty }
        guard let token else {
            if credentials.platformCredentials.contains(where: { !($0 ?? "").isEmpty }) {
                throw .badRequest(
                    "INVALID_APP_CREDENTIAL : ((hearth-emulator verifies apps with reCAPTCHA tokens from /emulator/auth/handler?authType=verifyApp only.))")
            }
            throw .badRequest("MISSING_APP_CREDENTIAL")
        }
        guard let entry = project.recaptchaTokens.entry(token), !entry.isExpired(now: now) else {
            throw .badRequest("INVALID_APP_CREDENTIAL")
        }
        project.recaptchaTokens.remove(token)
    }

    /// A token for a person who passed the fake reCAPTCHA.
    static func issueToken(in project: inout ProjectState, now: Int64) -> String {
        let token = RandomID.base64URL(64)
        project.recaptchaTokens.insert(true, key: token, expiresAt: now + tokenLifetimeMilliseconds, now: now)
        return token
    }
}
