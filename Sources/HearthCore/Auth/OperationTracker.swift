/// The operations a host can ask for, each with its own "last result".
public enum Operation: Int, CaseIterable, Sendable {
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
}

/// Futures of one Auth: each operation's most recent future, and every pending one (so that
/// destroying the app can complete them as cancelled).
final class OperationTracker: @unchecked Sendable {
    private let state = Locked<(last: [Operation: FutureState], pending: [ObjectIdentifier: FutureState])>(([:], [:]))
    /// Which operation each pending future belongs to, for the log.
    private let pendingOperations = Locked<[ObjectIdentifier: Operation]>([:])
    /// Names the app in log messages.
    var logLabel = ""

    func begin(_ operation: Operation, _ future: FutureState) {
        state.withLock {
            $0.last[operation] = future
            if !future.isComplete { $0.pending[ObjectIdentifier(future)] = future }
        }
        // error and successValue rather than result: see FutureState's storage.
        if let error = future.error {
            log(operation, .failure(error), refused: true)
        } else if let value = future.successValue {
            log(operation, .success(value), refused: true)
        } else {
            pendingOperations.withLock { $0[ObjectIdentifier(future)] = operation }
            Log.debug("\(logLabel)\(operation) started")
        }
    }

    func finish(_ future: FutureState, _ result: FutureState.Outcome) {
        _ = state.withLock { $0.pending.removeValue(forKey: ObjectIdentifier(future)) }
        // Logged before completing, so the log tells the outcome before anyone waiting acts on it.
        if let operation = pendingOperations.withLock({ $0.removeValue(forKey: ObjectIdentifier(future)) }) {
            log(operation, result, refused: false)
        }
        future.complete(result)
    }

    private func log(_ operation: Operation, _ outcome: FutureState.Outcome, refused: Bool) {
        switch outcome {
        case .success:
            Log.info("\(logLabel)\(operation) succeeded")
        case .failure(let error):
            // The message is the server's detail or Hearth's own sentence: no tokens, passwords or codes.
            let verb = refused ? "refused" : "failed"
            Log.warning("\(logLabel)\(operation) \(verb): \(error.code.name): \(error.message)")
        }
    }

    func lastResult(_ operation: Operation) -> FutureState? {
        state.withLock { $0.last[operation] }
    }

    /// Forgets every future (the app is going away) and returns the pending ones for cancellation.
    /// Last results must go too: a finished future holds user snapshots, which hold the Auth, so
    /// keeping them would make the Auth own itself.
    func drainAll() -> [FutureState] {
        pendingOperations.withLock { $0.removeAll() }
        return state.withLock { s in
            let pending = Array(s.pending.values)
            s.pending.removeAll()
            s.last.removeAll()
            return pending
        }
    }
}
