/// A second factor of an account (`mfaInfo[]`), as accounts:lookup returns it: a phone number
/// (`phoneInfo` and `unobfuscatedPhoneInfo`) or a TOTP authenticator (`totpInfo: {}`).
///
/// A TOTP factor's shared secret stays inside the emulator: it is not one of the coded fields, so no
/// response (lookup, batchGet, query) ever carries it.
struct MfaEnrollment: Codable, Sendable, Equatable {
    struct TotpInfo: Codable, Sendable, Equatable {}

    var mfaEnrollmentId: String
    var displayName: String?
    /// RFC 3339 with milliseconds.
    var enrolledAt: String?
    var phoneInfo: String?
    var unobfuscatedPhoneInfo: String?
    var totpInfo: TotpInfo?
    var totpSecret: [UInt8]? = nil

    enum CodingKeys: String, CodingKey {
        case mfaEnrollmentId, displayName, enrolledAt, phoneInfo, unobfuscatedPhoneInfo, totpInfo
    }

    /// The phone number of an SMS factor.
    var phoneNumber: String? { totpInfo == nil ? (unobfuscatedPhoneInfo ?? phoneInfo) : nil }

    /// The factor id of the `sign_in_second_factor` claim and of the SDKs' hints.
    var factorId: String { totpInfo != nil ? SecondFactor.totp : SecondFactor.phone }

    /// What a sign-in that still needs this factor shows: the phone number masked, no secrets.
    var hint: MfaHint {
        MfaHint(mfaEnrollmentId: mfaEnrollmentId, displayName: displayName, enrolledAt: enrolledAt,
                phoneInfo: phoneNumber.map(PhoneNumber.masked), totpInfo: totpInfo)
    }
}

/// An `mfaInfo[]` entry of a sign-in that needs a second factor.
struct MfaHint: Encodable, Sendable, Equatable {
    var mfaEnrollmentId: String
    var displayName: String?
    var enrolledAt: String?
    var phoneInfo: String?
    var totpInfo: MfaEnrollment.TotpInfo?
}

/// The second factor a sign-in completed, recorded in its tokens (`firebase.sign_in_second_factor`
/// and `firebase.second_factor_identifier`) and kept across refreshes.
struct SecondFactor: Sendable, Equatable {
    static let phone = "phone"
    static let totp = "totp"

    /// The enrollment's mfaEnrollmentId.
    var identifier: String
    /// "phone" or "totp".
    var provider: String

    init(identifier: String, provider: String) {
        self.identifier = identifier
        self.provider = provider
    }

    init(_ enrollment: MfaEnrollment) {
        self.init(identifier: enrollment.mfaEnrollmentId, provider: enrollment.factorId)
    }
}
