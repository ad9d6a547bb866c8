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
        if let text = RFC3339.format(milliseconds: milliseconds) { return text }
        return foundationISO8601(Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }

    private static func iso8601(_ date: Date) -> String {
        // Foundation's formatter rounds to the nearest millisecond counted from the epoch through
        // `Date`'s reference date; the same arithmetic gives the same text.
        let milliseconds = ((date.timeIntervalSinceReferenceDate + Date.timeIntervalBetween1970AndReferenceDate) * 1000 + 0.5)
            .rounded(.down)
        if milliseconds.isFinite, abs(milliseconds) < 1e15, let text = RFC3339.format(milliseconds: Int64(milliseconds)) {
            return text
        }
        return foundationISO8601(date)
    }

    /// Dates outside `RFC3339`'s range (before 1970, after 9999) keep Foundation's rendering (which
    /// switches to the Julian calendar before 1582).
    private static func foundationISO8601(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}

/// `yyyy-MM-dd'T'HH:mm:ss.SSS'Z'` written directly: sign-ins stamp `lastRefreshAt` with it, and
/// creating an `ISO8601DateFormatter` (an ICU formatter) per stamp cost a third of a sign-in.
enum RFC3339 {
    /// nil outside 1970-01-01 ... 9999-12-31.
    static func format(milliseconds: Int64) -> String? {
        guard milliseconds >= 0, milliseconds < 253_402_300_800_000 else { return nil }
        let days = milliseconds / 86_400_000
        let inDay = milliseconds % 86_400_000
        let (year, month, day) = civilDate(daysSince1970: days)
        let hour = inDay / 3_600_000
        let minute = inDay / 60_000 % 60
        let second = inDay / 1000 % 60
        let millisecond = inDay % 1000
        return String(unsafeUninitializedCapacity: 24) { out in
            func put(_ value: Int64, digits: Int, at offset: Int) {
                var value = value
                for position in stride(from: offset + digits - 1, through: offset, by: -1) {
                    out[position] = UInt8(ascii: "0") + UInt8(value % 10)
                    value /= 10
                }
            }
            put(year, digits: 4, at: 0)
            out[4] = UInt8(ascii: "-")
            put(month, digits: 2, at: 5)
            out[7] = UInt8(ascii: "-")
            put(day, digits: 2, at: 8)
            out[10] = UInt8(ascii: "T")
            put(hour, digits: 2, at: 11)
            out[13] = UInt8(ascii: ":")
            put(minute, digits: 2, at: 14)
            out[16] = UInt8(ascii: ":")
            put(second, digits: 2, at: 17)
            out[19] = UInt8(ascii: ".")
            put(millisecond, digits: 3, at: 20)
            out[23] = UInt8(ascii: "Z")
            return 24
        }
    }

    /// Proleptic Gregorian date of a day count (Howard Hinnant's `civil_from_days`), for days >= 0.
    static func civilDate(daysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = z / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }
}
