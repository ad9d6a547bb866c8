/// A TOTP second factor being enrolled: the shared secret handed to the account, kept until
/// mfaEnrollment:finalize proves the authenticator app has it.
struct TotpEnrollmentSession: Sendable {
    var localId: String
    var secret: [UInt8]
}
