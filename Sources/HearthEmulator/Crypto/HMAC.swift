/// HMAC (RFC 2104) with SHA-1, the MAC of TOTP codes (RFC 6238) as authenticator apps compute them.
enum HMAC {
    static func sha1(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var block = key.count > SHA1.blockByteCount ? SHA1.digest(key) : key
        block += [UInt8](repeating: 0, count: SHA1.blockByteCount - block.count)
        let inner = SHA1.digest(block.map { $0 ^ 0x36 } + message)
        return SHA1.digest(block.map { $0 ^ 0x5c } + inner)
    }
}
