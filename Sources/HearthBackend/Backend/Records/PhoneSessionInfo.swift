import HearthTransport
import HearthWire

/// The `sessionInfo` a phone verification starts with: what sendVerificationCode, mfaEnrollment:start
/// (`phoneSessionInfo`) and mfaSignIn:start (`phoneResponseInfo`) answer. Hosts know it as the
/// verification id; it goes back with the SMS code.
///
/// It stands for a pending verification: prints without it.
package struct PhoneSessionInfo: Sendable, Equatable, Redacted {
    package var sessionInfo: String

    package init(sessionInfo: String) {
        self.sessionInfo = sessionInfo
    }

    /// Reads the non-empty string `sessionInfo` of `object`, or of its member object `container`
    /// (`phoneSessionInfo`, `phoneResponseInfo`) when one is named.
    init(decoding object: JSONObject, container: String? = nil) throws(AuthError) {
        let source = container.map { object[$0]?.objectValue } ?? object
        guard let value = source?["sessionInfo"]?.nonEmptyStringValue else {
            throw .malformedResponse("missing " + (container.map { $0 + "." } ?? "") + "sessionInfo")
        }
        sessionInfo = value
    }

    package var redactedSummary: String { "sessionInfo: present" }
}
