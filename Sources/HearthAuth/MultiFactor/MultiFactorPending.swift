import HearthBackend
import HearthTransport
import HearthWire

/// What a first-factor sign-in that needs a second factor hands back (client-wire-reference §3.4): the
/// 200 answer the classifier turned into second factor required, read from `AuthError.body`. The pending
/// credential is the session the second step (mfaSignIn:start / :finalize) proves the first factor with.
///
/// Holds the pending credential: prints without it.
package struct MultiFactorPending: Sendable, Equatable, Redacted {
    /// `mfaPendingCredential`.
    package var pendingCredential: String
    /// The account's usable second factors (`mfaInfo[]`), in the server's order. May be empty when the
    /// server lists only factor kinds this client does not know.
    package var hints: [MultiFactorHint]
    /// The account's uid, when the answer names it (password and provider sign-ins do).
    package var localId: String?
    package var email: String?

    package init(pendingCredential: String, hints: [MultiFactorHint], localId: String? = nil, email: String? = nil) {
        self.pendingCredential = pendingCredential
        self.hints = hints
        self.localId = localId
        self.email = email
    }

    /// From a second-factor-required error. Nil for any other error, and when the body has no pending
    /// credential (an error from a local check or an error envelope has no body to resolve).
    package init?(from error: AuthError) {
        guard error.code == .secondFactorRequired, case .object(let object)? = error.body else { return nil }
        self.init(decoding: object)
    }

    /// From the answer's JSON object. Nil without a non-empty `mfaPendingCredential`.
    package init?(decoding object: JSONObject) {
        let reader = ResponseReader(object)
        guard let pending = reader.nonEmptyString("mfaPendingCredential") else { return nil }
        self.init(pendingCredential: pending,
                  hints: MultiFactorHint.list(MultiFactorInfoRecord.list(object["mfaInfo"]?.arrayValue ?? [])),
                  localId: reader.nonEmptyString("localId"), email: reader.nonEmptyString("email"))
    }

    package var redactedSummary: String {
        "hints: \(hints.map(\.factorId.rawValue)), localId: \(localId ?? "nil")"
    }
}
