/// SHA-256 (FIPS 180-4 §6.2), in Swift so the core needs no crypto library: Hearth hashes raw nonces
/// (what Apple and OIDC providers expect in the ID token's `nonce` claim) and session ids, nothing that
/// needs speed or constant time.
///
/// One-shot: `SHA256.digest(bytes)`, `SHA256.hexDigest("text")`. Incremental: `update` any number of
/// times, then `finalize()` once.
public struct SHA256: Sendable {
    public static let digestByteCount = 32
    public static let blockByteCount = 64

    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
    )
    /// Bytes not yet forming a whole block (always fewer than 64).
    private var pending: [UInt8] = []
    /// Length of the whole message so far, in bytes.
    private var messageLength: UInt64 = 0

    public init() {
        pending.reserveCapacity(Self.blockByteCount)
    }

    public mutating func update(_ bytes: some Sequence<UInt8>) {
        for byte in bytes {
            pending.append(byte)
            messageLength &+= 1
            if pending.count == Self.blockByteCount {
                compress(pending)
                pending.removeAll(keepingCapacity: true)
            }
        }
    }

    public mutating func update(_ text: String) {
        update(text.utf8)
    }

    /// The 32-byte digest. Pads (a 1 bit, zeros, the 64-bit big-endian bit length) and processes the
    /// last block(s); the hasher is spent afterwards.
    public mutating func finalize() -> [UInt8] {
        let bitLength = messageLength &* 8
        var tail = pending
        tail.append(0x80)
        while tail.count % Self.blockByteCount != 56 { tail.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) {
            tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
        }
        var offset = 0
        while offset < tail.count {
            compress(tail[offset..<offset + Self.blockByteCount])
            offset += Self.blockByteCount
        }
        pending.removeAll()

        var digest: [UInt8] = []
        digest.reserveCapacity(Self.digestByteCount)
        for word in [state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7] {
            digest.append(UInt8(truncatingIfNeeded: word >> 24))
            digest.append(UInt8(truncatingIfNeeded: word >> 16))
            digest.append(UInt8(truncatingIfNeeded: word >> 8))
            digest.append(UInt8(truncatingIfNeeded: word))
        }
        return digest
    }

    public static func digest(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// Digest of the UTF-8 bytes of `text`.
    public static func digest(_ text: String) -> [UInt8] {
        digest(text.utf8)
    }

    /// Lowercase hex of the digest of `text`'s UTF-8 bytes (64 characters).
    public static func hexDigest(_ text: String) -> String {
        Hex.lowercase(digest(text))
    }

    public static func hexDigest(_ bytes: some Sequence<UInt8>) -> String {
        Hex.lowercase(digest(bytes))
    }

    // MARK: - Compression (FIPS 180-4 §6.2.2)

    private mutating func compress(_ block: some RandomAccessCollection<UInt8>) {
        var schedule = [UInt32](repeating: 0, count: 64)
        var index = block.startIndex
        for t in 0..<16 {
            var word: UInt32 = 0
            for _ in 0..<4 {
                word = word << 8 | UInt32(block[index])
                index = block.index(after: index)
            }
            schedule[t] = word
        }
        for t in 16..<64 {
            let s0 = rotateRight(schedule[t - 15], 7) ^ rotateRight(schedule[t - 15], 18) ^ (schedule[t - 15] >> 3)
            let s1 = rotateRight(schedule[t - 2], 17) ^ rotateRight(schedule[t - 2], 19) ^ (schedule[t - 2] >> 10)
            schedule[t] = schedule[t - 16] &+ s0 &+ schedule[t - 7] &+ s1
        }

        var (a, b, c, d, e, f, g, h) = state
        for t in 0..<64 {
            let sum1 = rotateRight(e, 6) ^ rotateRight(e, 11) ^ rotateRight(e, 25)
            let choose = (e & f) ^ (~e & g)
            let temp1 = h &+ sum1 &+ choose &+ Self.roundConstants[t] &+ schedule[t]
            let sum0 = rotateRight(a, 2) ^ rotateRight(a, 13) ^ rotateRight(a, 22)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            let temp2 = sum0 &+ majority
            h = g
            g = f
            f = e
            e = d &+ temp1
            d = c
            c = b
            b = a
            a = temp1 &+ temp2
        }
        state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d,
                 state.4 &+ e, state.5 &+ f, state.6 &+ g, state.7 &+ h)
    }

    @inline(__always)
    private func rotateRight(_ value: UInt32, _ count: UInt32) -> UInt32 {
        (value >> count) | (value << (32 - count))
    }

    /// The first 32 bits of the fractional parts of the cube roots of the first 64 primes (§4.2.2).
    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]
}

/// Lowercase hexadecimal text of bytes.
private enum Hex {
    static func lowercase(_ bytes: some Sequence<UInt8>) -> String {
        var out: [UInt8] = []
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static let digits: [UInt8] = Array("0123456789abcdef".utf8)
}
