import HearthCrypto

/// Time-based one-time passwords (RFC 6238 over RFC 4226's HOTP) with the parameters Firebase's
/// TOTP second factor announces: HMAC-SHA-1, 6 digits, 30-second steps. A code is accepted in the
/// current step and one step either side, so a clock a little off still works.
enum TOTP {
    static let digits = 6
    static let periodSeconds: Int64 = 30
    static let hashingAlgorithm = "SHA1"
    /// 160 bits, the key size RFC 4226 recommends for HMAC-SHA-1.
    static let secretByteCount = 20
    static let acceptedAdjacentSteps: Int64 = 1

    static func newSecret() -> [UInt8] {
        (0..<secretByteCount).map { _ in UInt8.random(in: .min ... .max) }
    }

    /// The code for the step containing `unixSeconds`.
    static func code(secret: [UInt8], unixSeconds: Int64) -> String {
        code(secret: secret, counter: UInt64(max(0, unixSeconds) / periodSeconds))
    }

    static func code(secret: [UInt8], counter: UInt64) -> String {
        let message = (0..<8).map { UInt8(truncatingIfNeeded: counter >> UInt64(56 - $0 * 8)) }
        let mac = HMAC.authenticationCode(key: secret, message: message, algorithm: .sha1)
        // Dynamic truncation (RFC 4226 §5.3).
        let offset = Int(mac[mac.count - 1] & 0x0f)
        let binary = (UInt32(mac[offset]) & 0x7f) << 24 | UInt32(mac[offset + 1]) << 16
            | UInt32(mac[offset + 2]) << 8 | UInt32(mac[offset + 3])
        let value = binary % 1_000_000
        let text = String(value)
        return String(repeating: "0", count: digits - text.count) + text
    }

    static func isValid(_ code: String, secret: [UInt8], unixSeconds: Int64) -> Bool {
        guard code.count == digits, code.allSatisfy({ $0.isASCII && $0.isNumber }) else { return false }
        let step = max(0, unixSeconds) / periodSeconds
        for candidate in (step - acceptedAdjacentSteps)...(step + acceptedAdjacentSteps) where candidate >= 0 {
            if code == self.code(secret: secret, counter: UInt64(candidate)) { return true }
        }
        return false
    }
}
