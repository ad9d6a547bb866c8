import HearthTransport
import HearthWire

/// `totpSessionInfo` of a TOTP mfaEnrollment:start answer, as sent. `TOTPSecret` turns it into a code
/// generator and an `otpauth://` URI.
///
/// Holds the shared secret: prints without it.
package struct TotpEnrollmentSession: Sendable, Equatable, Redacted {
    /// The shared secret, base32.
    package var sharedSecretKey: String
    /// Goes back with the first code in mfaEnrollment:finalize.
    package var sessionInfo: String
    /// Digits per code; nil when not sent.
    package var verificationCodeLength: Int?
    /// "SHA1", "SHA256" or "SHA512" as the server spells it; nil when not sent.
    package var hashingAlgorithm: String?
    /// Seconds per code; nil when not sent.
    package var periodSec: Int?
    /// RFC 3339 deadline for finalizing the enrollment, as sent.
    package var finalizeEnrollmentTime: String?

    package init(sharedSecretKey: String, sessionInfo: String, verificationCodeLength: Int? = nil,
                hashingAlgorithm: String? = nil, periodSec: Int? = nil, finalizeEnrollmentTime: String? = nil) {
        self.sharedSecretKey = sharedSecretKey
        self.sessionInfo = sessionInfo
        self.verificationCodeLength = verificationCodeLength
        self.hashingAlgorithm = hashingAlgorithm
        self.periodSec = periodSec
        self.finalizeEnrollmentTime = finalizeEnrollmentTime
    }

    /// `sharedSecretKey` and `sessionInfo` are required. The int32 fields are read from numbers or from
    /// strings of digits (proto3 JSON allows both).
    package init(decoding object: JSONObject) throws(AuthError) {
        let reader = ResponseReader(object)
        guard let key = reader.nonEmptyString("sharedSecretKey") else {
            throw .malformedResponse("missing totpSessionInfo.sharedSecretKey")
        }
        guard let session = reader.nonEmptyString("sessionInfo") else {
            throw .malformedResponse("missing totpSessionInfo.sessionInfo")
        }
        self.init(sharedSecretKey: key, sessionInfo: session,
                  verificationCodeLength: reader.int64("verificationCodeLength").flatMap { Int(exactly: $0) },
                  hashingAlgorithm: reader.nonEmptyString("hashingAlgorithm"),
                  periodSec: reader.int64("periodSec").flatMap { Int(exactly: $0) },
                  finalizeEnrollmentTime: reader.nonEmptyString("finalizeEnrollmentTime"))
    }

    package var redactedSummary: String {
        "hashingAlgorithm: \(hashingAlgorithm ?? "nil"), verificationCodeLength: "
            + "\(verificationCodeLength.map(String.init) ?? "nil"), periodSec: \(periodSec.map(String.init) ?? "nil")"
    }
}
