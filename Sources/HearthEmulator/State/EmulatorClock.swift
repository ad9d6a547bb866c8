import Foundation

/// The current time in the encodings the Identity Toolkit uses.
struct EmulatorClock: Sendable {
    var now: @Sendable () -> Date = { Date() }

    var milliseconds: Int64 { Int64((now().timeIntervalSince1970 * 1000).rounded(.down)) }
    /// Whole seconds, the resolution of JWT `iat` and of `validSince`.
    var seconds: Int64 { Int64(now().timeIntervalSince1970.rounded(.down)) }

    /// RFC 3339 with milliseconds, like JavaScript's `toISOString()`.
    var iso8601: String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: now())
    }
}
