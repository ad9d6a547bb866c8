import CHearthCrypto

/// The one file that knows where hashes come from: OpenSSL's libcrypto, already in every Hearth process
/// through libcurl (on Linux; hearth_crypto.h wraps its one-shot EVP_Digest and HMAC). A port to a
/// platform whose curl uses another TLS library replaces this file with CommonCrypto's CC_SHA* and
/// CCHmac, or BCrypt's BCryptHash.
enum PlatformHashing {
    static func digest(_ function: HashFunction, _ bytes: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 64)
        let written = bytes.withUnsafeBytes { data in
            out.withUnsafeMutableBufferPointer { out in
                hearth_crypto_digest(function.cValue, data.baseAddress, data.count, out.baseAddress)
            }
        }
        return finished(out, written, function)
    }

    static func hmac(_ function: HashFunction, key: [UInt8], message: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 64)
        let written = key.withUnsafeBytes { key in
            message.withUnsafeBytes { message in
                out.withUnsafeMutableBufferPointer { out in
                    hearth_crypto_hmac(function.cValue, key.baseAddress, key.count, message.baseAddress, message.count,
                                       out.baseAddress)
                }
            }
        }
        return finished(out, written, function)
    }

    /// SHA-1, SHA-256, SHA-512 and HMAC over them are in OpenSSL's default and FIPS providers alike, so
    /// the one-shots fail only when libcrypto cannot allocate, where Swift's own allocations already trap;
    /// returning a wrong digest would be worse than stopping.
    private static func finished(_ out: [UInt8], _ written: Int32, _ function: HashFunction) -> [UInt8] {
        guard written == Int32(function.digestByteCount) else {
            fatalError("libcrypto could not compute \(function) (its configuration may disable it)")
        }
        return Array(out.prefix(Int(written)))
    }
}

extension HashFunction {
    fileprivate var cValue: hearth_crypto_hash {
        switch self {
        case .sha1: return HEARTH_CRYPTO_SHA1
        case .sha256: return HEARTH_CRYPTO_SHA256
        case .sha512: return HEARTH_CRYPTO_SHA512
        }
    }
}
