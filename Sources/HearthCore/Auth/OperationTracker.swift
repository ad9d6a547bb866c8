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

    func begin(_ operation: Operation, _ future: FutureState) {
        state.withLock {
            $0.last[operation] = future
            if !future.isComplete { $0.pending[ObjectIdentifier(future)] = future }
        }
    }

    func finish(_ future: FutureState, _ result: FutureState.Outcome) {
        _ = state.withLock { $0.pending.removeValue(forKey: ObjectIdentifier(future)) }
        future.complete(result)
    }

    func lastResult(_ operation: Operation) -> FutureState? {
        state.withLock { $0.last[operation] }
    }

    /// Forgets every future (the app is going away) and returns the pending ones for cancellation.
    /// Last results must go too: a finished future holds user snapshots, which hold the Auth, so
    /// keeping them would make the Auth own itself.
    func drainAll() -> [FutureState] {
        state.withLock { s in
            let pending = Array(s.pending.values)
            s.pending.removeAll()
            s.last.removeAll()
            return pending
        }
    }
}
