/// Per-number SMS sending limit (hearth-emulator only; Firebase's emulator sends without limit):
/// at most `maxSends` codes per phone number in any `windowSeconds`, else production's
/// TOO_MANY_ATTEMPTS_TRY_LATER. Test phone numbers are exempt, as in production.
public struct SmsRateLimit: Sendable, Equatable {
    /// 0 turns the limit off.
    public var maxSends: Int
    public var windowSeconds: Int64

    public init(maxSends: Int = 5, windowSeconds: Int64 = 60) {
        self.maxSends = maxSends
        self.windowSeconds = windowSeconds
    }
}

/// When each number was last sent codes, for `SmsRateLimit`.
struct SmsRateLimiter: Sendable {
    private static let trackedNumbersLimit = 10_000
    /// Milliseconds since the epoch of the sends still inside the window, per number.
    private var sendsByNumber: [String: [Int64]] = [:]

    /// Records a send and answers true, or answers false (and records nothing) when the number has
    /// used up its sends in the window.
    mutating func admit(_ phoneNumber: String, limit: SmsRateLimit, now: Int64) -> Bool {
        guard limit.maxSends > 0 else { return true }
        let windowStart = now - limit.windowSeconds * 1000
        var recent = (sendsByNumber[phoneNumber] ?? []).filter { $0 > windowStart }
        guard recent.count < limit.maxSends else {
            sendsByNumber[phoneNumber] = recent
            return false
        }
        recent.append(now)
        sendsByNumber[phoneNumber] = recent
        if sendsByNumber.count > Self.trackedNumbersLimit {
            sendsByNumber = sendsByNumber.filter { $0.value.contains { $0 > windowStart } }
        }
        return true
    }

    /// Forgets every send: a new limit, or a wiped project, starts counting afresh.
    mutating func reset() {
        sendsByNumber = [:]
    }
}
