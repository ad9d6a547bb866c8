import HearthBackend

/// One enrolled second factor as hosts see it: in a resolver's hints after a sign-in that needs a second
/// factor, and in a user's enrolled factors (both come from `mfaInfo[]` entries).
package struct MultiFactorHint: Sendable, Equatable {
    package enum FactorID: String, Sendable, CaseIterable {
        case phone
        case totp
    }

    /// "phone" for an entry with `phoneInfo`, "totp" for one with `totpInfo`.
    package var factorId: FactorID
    /// `mfaEnrollmentId`: what mfaSignIn and mfaEnrollment:withdraw take (the C++/iOS factor `uid`).
    package var enrollmentId: String
    package var displayName: String?
    /// The phone factor's number as the server shows it: masked ("+*******0100") in a sign-in's hints,
    /// possibly in full in a lookup. Nil for TOTP.
    package var phoneNumber: String?
    /// `enrolledAt` in milliseconds since the Unix epoch; nil when absent or not RFC 3339.
    var enrollmentTimeMs: Int64?

    package init(factorId: FactorID, enrollmentId: String, displayName: String? = nil, phoneNumber: String? = nil,
                enrollmentTimeMs: Int64? = nil) {
        self.factorId = factorId
        self.enrollmentId = enrollmentId
        self.displayName = displayName
        self.phoneNumber = phoneNumber
        self.enrollmentTimeMs = enrollmentTimeMs
    }

    /// Nil for a factor kind this client does not know (neither `phoneInfo` nor `totpInfo`): such a
    /// factor can be neither used nor described, and the SDKs leave it out too.
    package init?(record: MultiFactorInfoRecord) {
        let factorId: FactorID
        if record.phoneInfo != nil {
            factorId = .phone
        } else if record.isTOTP {
            factorId = .totp
        } else {
            return nil
        }
        self.init(factorId: factorId, enrollmentId: record.mfaEnrollmentId,
                  displayName: record.displayName.flatMap { $0.isEmpty ? nil : $0 },
                  phoneNumber: factorId == .phone ? record.phoneInfo : nil,
                  enrollmentTimeMs: record.enrolledAt.flatMap(RFC3339Timestamp.milliseconds))
    }

    /// The usable factors of `mfaInfo[]`, in the server's order.
    package static func list(_ records: [MultiFactorInfoRecord]) -> [MultiFactorHint] {
        records.compactMap(MultiFactorHint.init(record:))
    }
}
