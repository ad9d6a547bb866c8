/// Reads the RFC 3339 timestamps of the MFA APIs (`enrolledAt`, `finalizeEnrollmentTime`:
/// "2024-05-01T12:34:56.789Z", Google's nanosecond form "…56.123456789Z", offsets "+02:00") as
/// milliseconds since the Unix epoch, without a calendar library (FoundationEssentials' ISO 8601 parser
/// does not take every fraction length the server sends).
enum RFC3339Timestamp {
    /// Nil for anything that is not a complete, valid date-time. Also accepts a lower-case 't'/'z', a space
    /// instead of 'T' (RFC 3339 §5.6 note) and an offset without ':' ("+0000", the iOS SDK's format).
    /// Fractions beyond milliseconds are truncated.
    static func milliseconds(_ text: String) -> Int64? {
        var scanner = Scanner(Array(text.utf8))
        guard let year = scanner.digits(4), scanner.skip("-"),
              let month = scanner.digits(2), scanner.skip("-"),
              let day = scanner.digits(2),
              scanner.skip("T") || scanner.skip("t") || scanner.skip(" "),
              let hour = scanner.digits(2), scanner.skip(":"),
              let minute = scanner.digits(2), scanner.skip(":"),
              let second = scanner.digits(2) else { return nil }
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
              hour <= 23, minute <= 59, second <= 60 else { return nil }

        var millisecond: Int64 = 0
        if scanner.skip(".") {
            var fractionDigits = 0
            while let digit = scanner.digit() {
                if fractionDigits < 3 { millisecond = millisecond * 10 + digit }
                fractionDigits += 1
            }
            guard fractionDigits > 0 else { return nil }
            var scaled = fractionDigits
            while scaled < 3 {
                millisecond *= 10
                scaled += 1
            }
        }

        let offsetSeconds: Int64
        if scanner.skip("Z") || scanner.skip("z") {
            offsetSeconds = 0
        } else {
            let sign: Int64
            if scanner.skip("+") {
                sign = 1
            } else if scanner.skip("-") {
                sign = -1
            } else {
                return nil
            }
            guard let offsetHours = scanner.digits(2) else { return nil }
            _ = scanner.skip(":")
            guard let offsetMinutes = scanner.digits(2), offsetHours <= 23, offsetMinutes <= 59 else { return nil }
            offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
        }
        guard scanner.isAtEnd else { return nil }

        let days = daysSinceEpoch(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return seconds * 1000 + millisecond
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    static func daysSinceEpoch(year: Int64, month: Int64, day: Int64) -> Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2:
            let isLeap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
            return isLeap ? 29 : 28
        case 4, 6, 9, 11:
            return 30
        default:
            return 31
        }
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var isAtEnd: Bool { index == bytes.count }

        mutating func skip(_ character: Unicode.Scalar) -> Bool {
            guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
            index += 1
            return true
        }

        mutating func digit() -> Int64? {
            guard index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) else {
                return nil
            }
            defer { index += 1 }
            return Int64(bytes[index] - UInt8(ascii: "0"))
        }

        /// Exactly `count` digits as a number.
        mutating func digits(_ count: Int) -> Int64? {
            var value: Int64 = 0
            for _ in 0..<count {
                guard let digit = digit() else { return nil }
                value = value * 10 + digit
            }
            return value
        }
    }
}
