/// The hashes Hearth needs, and HMAC over them: SHA-256 of raw nonces (what Apple and OIDC providers put
/// in an ID token's `nonce` claim), and RFC 6238's HMAC-SHA-1, -256 and -512 for TOTP codes (computed by
/// the client, checked by the emulator). `PlatformHashing` computes them; these types only name them.
public enum HashFunction: Sendable, CaseIterable {
    case sha1
    case sha256
    case sha512

    public var digestByteCount: Int {
        switch self {
        case .sha1: return 20
        case .sha256: return 32
        case .sha512: return 64
        }
    }

    public func digest(_ bytes: [UInt8]) -> [UInt8] {
        PlatformHashing.digest(self, bytes)
    }
}

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

    public var hashFunction: HashFunction {
        switch self {
        case .sha1: return .sha1
        case .sha256: return .sha256
        case .sha512: return .sha512
        }
    }

    public func digest(_ bytes: [UInt8]) -> [UInt8] {
        hashFunction.digest(bytes)
    }
}

/// HMAC (RFC 2104).
public enum HMAC {
    public static func authenticationCode(key: [UInt8], message: [UInt8], algorithm: TOTPAlgorithm) -> [UInt8] {
        PlatformHashing.hmac(algorithm.hashFunction, key: key, message: message)
    }
}

public enum SHA1 {
    public static let digestByteCount = HashFunction.sha1.digestByteCount
    public static func digest(_ bytes: [UInt8]) -> [UInt8] { HashFunction.sha1.digest(bytes) }
}

public enum SHA256 {
    public static let digestByteCount = HashFunction.sha256.digestByteCount
    public static func digest(_ bytes: some Sequence<UInt8>) -> [UInt8] { HashFunction.sha256.digest(Array(bytes)) }
    /// Digest of the UTF-8 bytes of `text`.
    public static func digest(_ text: String) -> [UInt8] { digest(text.utf8) }
    /// Lowercase hex of the digest of `text`'s UTF-8 bytes (64 characters).
    public static func hexDigest(_ text: String) -> String { Hex.lowercase(digest(text)) }
    public static func hexDigest(_ bytes: some Sequence<UInt8>) -> String { Hex.lowercase(digest(bytes)) }
}

public enum SHA512 {
    public static let digestByteCount = HashFunction.sha512.digestByteCount
    public static func digest(_ bytes: [UInt8]) -> [UInt8] { HashFunction.sha512.digest(bytes) }
}

enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    static func lowercase(_ bytes: [UInt8]) -> String {
        var text = [UInt8]()
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
