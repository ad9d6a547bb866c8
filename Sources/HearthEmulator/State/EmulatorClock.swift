import Foundation

/// The current time in the encodings the Identity Toolkit uses.
struct EmulatorClock: Sendable {
    var now: @Sendable () -> Date = { Date() }

    var milliseconds: Int64 { Int64((now().timeIntervalSince1970 * 1000).rounded(.down)) }
    /// Whole seconds, the resolution of JWT `iat` and of `validSince`.
    var seconds: Int64 { Int64(now().timeIntervalSince1970.rounded(.down)) }

    /// RFC 3339 with milliseconds, like JavaScript's `toISOString()`.
    var iso8601: String { Self.iso8601(now()) }

    /// `milliseconds` (since the epoch) in RFC 3339 with milliseconds.
    static func iso8601(milliseconds: Int64) -> String {
        iso8601(Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }

    private static func iso8601(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}
