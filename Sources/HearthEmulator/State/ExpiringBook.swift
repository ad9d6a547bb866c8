/// Short-lived records by key, oldest first, for the emulator's one-time secrets (verification
/// sessions, temporary proofs, reCAPTCHA tokens, TOTP enrollment sessions). Each record has its own
/// expiry; it is kept `retentionMilliseconds` longer so a late use can be told "expired" rather
/// than "unknown", then dropped. At most `capacity` records are kept (the oldest go first), so
/// clients that never finish a flow cannot grow the emulator without bound.
struct ExpiringBook<Record: Sendable>: Sendable {
    struct Entry: Sendable {
        var key: String
        var record: Record
        /// Milliseconds since the epoch.
        var expiresAt: Int64

        func isExpired(now: Int64) -> Bool { now > expiresAt }
    }

    let capacity: Int
    let retentionMilliseconds: Int64
    private var entries: [String: Entry] = [:]
    private var order: [String] = []

    init(capacity: Int = 10_000, retentionMilliseconds: Int64 = 0) {
        self.capacity = capacity
        self.retentionMilliseconds = retentionMilliseconds
    }

    mutating func insert(_ record: Record, key: String, expiresAt: Int64, now: Int64) {
        removeStale(now: now)
        remove(key)
        entries[key] = Entry(key: key, record: record, expiresAt: expiresAt)
        order.append(key)
        while order.count > capacity, let oldest = order.first { remove(oldest) }
    }

    func entry(_ key: String) -> Entry? { entries[key] }

    mutating func remove(_ key: String) {
        if entries.removeValue(forKey: key) != nil { order.removeAll { $0 == key } }
    }

    /// Every record still held, oldest first (expired ones included until they are dropped).
    var all: [Entry] { order.compactMap { entries[$0] } }

    private mutating func removeStale(now: Int64) {
        while let oldest = order.first, let entry = entries[oldest], now > entry.expiresAt + retentionMilliseconds {
            remove(oldest)
        }
    }
}
