import HearthTransport

/// The operations a host can ask for, each with its own "last result".
package enum Operation: Int, CaseIterable, Sendable {
    case signInAnonymously
    case createUserWithEmailAndPassword
    case signInWithEmailAndPassword
    case signInWithCustomToken
    case signInWithCredential
    case signInAndRetrieveDataWithCredential
    case sendPasswordResetEmail
    case fetchProvidersForEmail
    case getToken
    case reload
    case updateUserProfile
    case updatePassword
    case sendEmailVerification
    case sendEmailVerificationBeforeUpdatingEmail
    case deleteUser
    case linkWithCredential
    case unlink
    case reauthenticate
    case reauthenticateAndRetrieveData
    case signInWithProvider
    case linkWithProvider
    case reauthenticateWithProvider
    case verifyPhoneNumber
    case updatePhoneNumberCredential
    case multiFactorSession
    case multiFactorEnroll
    case multiFactorUnenroll
    case totpGenerateSecret
    case resolveSignIn
    case getCredentialWithProvider
    case updateEmail
    case sendSignInLinkToEmail
    case signInWithEmailLink
    case applyActionCode
    case checkActionCode
    case verifyPasswordResetCode
    case confirmPasswordReset
    case updateCurrentUser
}

extension Operation {
    /// Whether the request carries a credential: an identity provider's tokens, a custom token, a
    /// refresh token, a phone or second-factor code or session, or an email action code.
    var carriesCredential: Bool {
        switch self {
        case .signInWithCustomToken, .signInWithCredential, .signInAndRetrieveDataWithCredential,
             .linkWithCredential, .reauthenticate, .reauthenticateAndRetrieveData, .signInWithProvider,
             .linkWithProvider, .reauthenticateWithProvider, .getCredentialWithProvider, .verifyPhoneNumber,
             .updatePhoneNumberCredential, .multiFactorSession, .multiFactorEnroll, .totpGenerateSecret,
             .resolveSignIn, .getToken, .signInWithEmailLink, .applyActionCode, .checkActionCode,
             .verifyPasswordResetCode, .confirmPasswordReset:
            return true
        case .signInAnonymously, .createUserWithEmailAndPassword, .signInWithEmailAndPassword,
             .sendPasswordResetEmail, .fetchProvidersForEmail, .reload, .updateUserProfile, .updatePassword,
             .updateEmail, .sendEmailVerification, .sendEmailVerificationBeforeUpdatingEmail, .deleteUser,
             .unlink, .multiFactorUnenroll, .sendSignInLinkToEmail, .updateCurrentUser:
            return false
        }
    }
}

/// Futures of one Auth: each operation's most recent future, and every pending one (so that
/// destroying the app can complete them as cancelled).
final class OperationTracker: @unchecked Sendable {
    /// Each operation's last future, by `Operation.rawValue` (a table, not a dictionary: every
    /// operation begins here, bench, issue 5); every pending future with its operation (for the log)
    /// and the order it started in (a destroy cancels them in that order).
    private let state = Locked<(last: [FutureState?], pending: [ObjectIdentifier: (FutureState, Operation, UInt64)],
                                started: UInt64)>(
        (Array(repeating: nil, count: Operation.allCases.count), [:], 0))
    /// Names the app in log messages.
    var logLabel = ""

    func begin(_ operation: Operation, _ future: FutureState) {
        let isComplete = future.isComplete
        state.withLock {
            $0.last[operation.rawValue] = future
            if !isComplete {
                $0.started += 1
                $0.pending[ObjectIdentifier(future)] = (future, operation, $0.started)
            }
        }
        // error and successValue rather than result: see FutureState's storage. Read only for a future
        // that came complete (each copies the outcome).
        if !isComplete {
            Log.debug("\(logLabel)\(operation) started")
        } else if let error = future.error {
            log(operation, .failure(error), refused: true)
        } else if let value = future.successValue {
            log(operation, .success(value), refused: true)
        } else {
            Log.debug("\(logLabel)\(operation) started")
        }
    }

    func finish(_ future: FutureState, _ result: FutureState.Outcome) {
        // Logged before completing, so the log tells the outcome before anyone waiting acts on it.
        if let (_, operation, _) = state.withLock({ $0.pending.removeValue(forKey: ObjectIdentifier(future)) }) {
            log(operation, result, refused: false)
        }
        future.complete(result)
    }

    private func log(_ operation: Operation, _ outcome: FutureState.Outcome, refused: Bool) {
        switch outcome {
        case .success:
            Log.info("\(logLabel)\(operation) succeeded")
        case .failure(let error):
            let verb = refused ? "refused" : "failed"
            if operation.carriesCredential, let serverCode = error.serverCode {
                // The server's text may echo what it was sent (an IdP's id_token, a code): the code only;
                // the host reads the text from the future.
                Log.warning("\(logLabel)\(operation) \(verb): \(error.code.name) (\(serverCode))")
            } else {
                Log.warning("\(logLabel)\(operation) \(verb): \(error.code.name): \(error.message)")
            }
        }
    }

    func lastResult(_ operation: Operation) -> FutureState? {
        state.withLock { $0.last[operation.rawValue] }
    }

    /// Forgets every future (the app is going away) and returns the pending ones for cancellation, in
    /// the order they started.
    /// Last results must go too: a finished future holds user snapshots, which hold the Auth, so
    /// keeping them would make the Auth own itself.
    func drainAll() -> [FutureState] {
        state.withLock { s in
            let pending = s.pending.values.sorted { $0.2 < $1.2 }.map { $0.0 }
            s.pending.removeAll()
            s.last = Array(repeating: nil, count: s.last.count)
            return pending
        }
    }
}
