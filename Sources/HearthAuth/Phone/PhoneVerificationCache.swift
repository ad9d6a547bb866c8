import HearthBackend

/// Firebase's re-entrancy rule for phone verification: asking again for the same number while a
/// code sent to it is still fresh sends no second SMS and yields the same verification id; a
/// force-resending token sends again. Loop-confined.
final class PhoneVerificationCache {
    struct Sent {
        var verificationId: String
        var resendToken: String
        var sentAtMs: Int64
    }

    private var sent: [String: Sent] = [:]
    /// Verifications of a key in flight, and who else waits for them.
    private var inFlight: [String: [(Result<Sent, AuthError>) -> Void]] = [:]

    func fresh(_ key: String, nowMs: Int64, freshForMs: Int64) -> Sent? {
        guard let entry = sent[key], nowMs - entry.sentAtMs < freshForMs else { return nil }
        return entry
    }

    /// Registers a waiter; returns true when the caller must start the request (nobody else is).
    func join(_ key: String, _ waiter: @escaping (Result<Sent, AuthError>) -> Void) -> Bool {
        let first = inFlight[key] == nil
        inFlight[key, default: []].append(waiter)
        return first
    }

    /// A verification id works once: after a credential made from it succeeded, verifying the same
    /// number again must send a new code instead of handing the spent id back.
    func forget(verificationId: String) {
        sent = sent.filter { $0.value.verificationId != verificationId }
    }

    func finish(_ key: String, _ result: Result<Sent, AuthError>) {
        if case .success(let entry) = result { sent[key] = entry }
        let waiters = inFlight.removeValue(forKey: key) ?? []
        for waiter in waiters { waiter(result) }
    }

    /// The app is being destroyed: its requests are cancelled without completions, so waiters would
    /// never be called. They capture the Auth that owns this cache; dropping them breaks that cycle
    /// (their futures were already completed as cancelled).
    func abandonInFlight() {
        inFlight.removeAll()
    }
}
