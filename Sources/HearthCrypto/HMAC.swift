/// The hash behind a TOTP code: RFC 6238 §1.2 names HMAC-SHA-1 (the default), HMAC-SHA-256 and
/// HMAC-SHA-512. The raw value is the spelling of the `otpauth://` URI's `algorithm` parameter.
public enum TOTPAlgorithm: String, Sendable, CaseIterable {
    case sha1 = "SHA1"
    case sha256 = "SHA256"
    case sha512 = "SHA512"

    /// Reads an algorithm name as servers and URIs spell it: "SHA1", "SHA-256", "sha512", "HMAC_SHA1"
    /// and the like (case, '-' and '_' and an "HMAC" prefix do not matter). Nil for anything else.
    public init?(name: String) {
        var letters = String(name.uppercased().unicodeScalars.filter { $0 != "-" && $0 != "_" })
        if letters.hasPrefix("HMAC") { letters.removeFirst(4) }
        self.init(rawValue: letters)
    }

    public var blockByteCount: Int {
        switch self {
        case .sha1: return SHA1.blockByteCount
        case .sha256: return SHA256.blockByteCount
        case .sha512: return SHA512.blockByteCount
        }
    }

    public func digest(_ bytes: [UInt8]) -> [UInt8] {
        switch self {
        case .sha1: return SHA1.digest(bytes)
        case .sha256: return SHA256.digest(bytes)
        case .sha512: return SHA512.digest(bytes)
        }
    }
}

/// HMAC (RFC 2104) over these hashes (TOTP codes on the client, their check in the emulator).
public enum HMAC {
    public static func authenticationCode(key: [UInt8], message: [UInt8], algorithm: TOTPAlgorithm) -> [UInt8] {
        let blockByteCount = algorithm.blockByteCount
        // Keys longer than a block are hashed first; shorter ones are padded with zeros.
        var block = key.count > blockByteCount ? algorithm.digest(key) : key
        block.append(contentsOf: [UInt8](repeating: 0, count: blockByteCount - block.count))
        let inner = algorithm.digest(block.map { $0 ^ 0x36 } + message)
        return algorithm.digest(block.map { $0 ^ 0x5c } + inner)
    }
}
