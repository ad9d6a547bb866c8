import HearthBackend
import HearthCrypto
import HearthTransport

/// A TOTP enrollment in progress, read from mfaEnrollment:start's `totpSessionInfo`: the shared secret
/// with the parameters to use it (the JS SDK's `TotpSecret`), the session that finalizes the enrollment,
/// and its deadline.
///
/// Parameters the server leaves out take RFC 6238's and authenticator apps' defaults (SHA-1, 6 digits,
/// 30 seconds), which is what an app scanning the URI would assume too.
///
/// Holds the shared secret: prints without it.
package struct TOTPSecret: Sendable, Equatable, Redacted {
    /// The secret as the server sent it (base32), for hosts that show it for manual entry.
    package let sharedSecretKey: String
    /// The secret and the code parameters.
    package let generator: TOTPGenerator
    /// Goes back with the first code in mfaEnrollment:finalize.
    package let sessionInfo: String
    /// `finalizeEnrollmentTime` in milliseconds since the Unix epoch; nil when absent or unreadable.
    let finalizeEnrollmentTimeMs: Int64?

    /// Fails (malformed response) when the secret is not base32 or the server names an algorithm, code
    /// length or period no authenticator can use.
    package init(session: TotpEnrollmentSession) throws(AuthError) {
        let algorithm: TOTPAlgorithm
        if let name = session.hashingAlgorithm {
            guard let known = TOTPAlgorithm(name: name) else {
                throw .malformedResponse("unsupported TOTP hashingAlgorithm \(name)")
            }
            algorithm = known
        } else {
            algorithm = .sha1
        }
        guard let secret = Base32.decode(session.sharedSecretKey), !secret.isEmpty else {
            throw .malformedResponse("the TOTP sharedSecretKey is not base32")
        }
        do {
            generator = try TOTPGenerator(secret: secret, algorithm: algorithm,
                                          digits: session.verificationCodeLength ?? TOTPGenerator.defaultDigits,
                                          periodSeconds: session.periodSec ?? TOTPGenerator.defaultPeriodSeconds)
        } catch {
            throw .malformedResponse("unusable TOTP parameters (\(error.message))")
        }
        sharedSecretKey = session.sharedSecretKey
        sessionInfo = session.sessionInfo
        finalizeEnrollmentTimeMs = session.finalizeEnrollmentTime.flatMap(RFC3339Timestamp.milliseconds)
    }

    /// The `otpauth://` URI for a QR code (see `OTPAuthURI`). The issuer is usually the app's name, the
    /// account name the user's email.
    package func qrCodeURI(accountName: String, issuer: String) -> String {
        OTPAuthURI.totp(generator, accountName: accountName, issuer: issuer)
    }

    package var redactedSummary: String { generator.redactedSummary }
}
