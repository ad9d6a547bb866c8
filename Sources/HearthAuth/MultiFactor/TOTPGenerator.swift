import HearthBackend
import HearthCrypto
import HearthTransport

/// One-time codes from a shared secret: HOTP (RFC 4226) for a counter, TOTP (RFC 6238) for a time.
/// Hosts show TOTP codes to nobody; they use this to test enrollment and sign-in, and apps that act as
/// their own authenticator (kiosks, test rigs) compute the code the server expects.
///
/// Holds the shared secret: prints without it.
package struct TOTPGenerator: Sendable, Equatable, Redacted {
    /// RFC 4226 §5.3 asks for at least 6 digits; the 31-bit truncated value has at most 10.
    static let digitRange = 6...10
    static let defaultDigits = 6
    static let defaultPeriodSeconds = 30

    package let secret: [UInt8]
    package let algorithm: TOTPAlgorithm
    package let digits: Int
    package let periodSeconds: Int

    /// Fails with invalid argument for an empty secret, a digit count outside `digitRange`, or a period
    /// that is not positive.
    package init(secret: [UInt8], algorithm: TOTPAlgorithm = .sha1, digits: Int = TOTPGenerator.defaultDigits,
                periodSeconds: Int = TOTPGenerator.defaultPeriodSeconds) throws(AuthError) {
        guard !secret.isEmpty else {
            throw AuthError(code: .invalidArgument, message: "The TOTP shared secret is empty.")
        }
        guard Self.digitRange.contains(digits) else {
            throw AuthError(code: .invalidArgument, message: "A TOTP code has 6 to 10 digits, not \(digits).")
        }
        guard periodSeconds > 0 else {
            throw AuthError(code: .invalidArgument, message: "The TOTP period must be at least one second.")
        }
        self.secret = secret
        self.algorithm = algorithm
        self.digits = digits
        self.periodSeconds = periodSeconds
    }

    /// The same from a base32 secret (the form servers and `otpauth://` URIs carry).
    package init(base32Secret: String, algorithm: TOTPAlgorithm = .sha1, digits: Int = TOTPGenerator.defaultDigits,
                periodSeconds: Int = TOTPGenerator.defaultPeriodSeconds) throws(AuthError) {
        guard let secret = Base32.decode(base32Secret) else {
            throw AuthError(code: .invalidArgument, message: "The TOTP shared secret is not base32.")
        }
        try self.init(secret: secret, algorithm: algorithm, digits: digits, periodSeconds: periodSeconds)
    }

    /// The HOTP value for `counter` (RFC 4226 §5.3): HMAC of the 8-byte big-endian counter, dynamic
    /// truncation to 31 bits, the last `digits` decimal digits with leading zeros.
    package func code(counter: UInt64) -> String {
        var message: [UInt8] = []
        for shift in stride(from: 56, through: 0, by: -8) {
            message.append(UInt8(truncatingIfNeeded: counter >> UInt64(shift)))
        }
        let mac = HMAC.authenticationCode(key: secret, message: message, algorithm: algorithm)
        // Every digest is at least 20 bytes, so offset + 3 (at most 15 + 3) is in range.
        let offset = Int(mac[mac.count - 1] & 0x0F)
        let truncated = (UInt32(mac[offset]) & 0x7F) << 24 | UInt32(mac[offset + 1]) << 16
            | UInt32(mac[offset + 2]) << 8 | UInt32(mac[offset + 3])
        var modulus: UInt64 = 1
        for _ in 0..<digits { modulus *= 10 }
        let text = String(UInt64(truncated) % modulus)
        return String(repeating: "0", count: digits - text.count) + text
    }

    /// The TOTP time step of a Unix time (RFC 6238 §4.2 with T0 = 0).
    func counter(atUnixTime seconds: UInt64) -> UInt64 {
        seconds / UInt64(periodSeconds)
    }

    /// The TOTP code valid at a Unix time, in seconds.
    package func code(atUnixTime seconds: UInt64) -> String {
        code(counter: counter(atUnixTime: seconds))
    }

    /// How many seconds the code of that time stays valid (1...periodSeconds).
    func secondsRemaining(atUnixTime seconds: UInt64) -> Int {
        periodSeconds - Int(seconds % UInt64(periodSeconds))
    }

    package var redactedSummary: String { "algorithm: \(algorithm.rawValue), digits: \(digits), period: \(periodSeconds)" }
}
