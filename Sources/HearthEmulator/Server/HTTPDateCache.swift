#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `Date` header's value (IMF-fixdate, RFC 9110 §5.6.7), formatted at most once a second.
struct HTTPDateCache {
    private var second: time_t = -1
    private var text = ""

    mutating func current() -> String {
        let now = time(nil)
        if now != second {
            second = now
            text = Self.format(now)
        }
        return text
    }

    static func format(_ seconds: time_t) -> String {
        var seconds = seconds
        var utc = tm()
        guard gmtime_r(&seconds, &utc) != nil else { return "" }
        let day = days[Int(utc.tm_wday) % 7]
        let month = months[Int(utc.tm_mon) % 12]
        return "\(day), \(twoDigits(utc.tm_mday)) \(month) \(utc.tm_year + 1900) "
            + "\(twoDigits(utc.tm_hour)):\(twoDigits(utc.tm_min)):\(twoDigits(utc.tm_sec)) GMT"
    }

    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    private static func twoDigits(_ value: Int32) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}
