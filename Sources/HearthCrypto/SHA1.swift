/// SHA-1 (FIPS 180-4 §6.1), in Swift so the core needs no crypto library. Only TOTP uses it: RFC 6238's
/// default HMAC-SHA-1, which authenticator apps still default to. HMAC-SHA-1 is not affected by SHA-1's
/// collision weakness; nothing here needs constant time (the client computes codes, it checks none).
public enum SHA1 {
    public static let digestByteCount = 20
    public static let blockByteCount = 64

    public static func digest(_ message: [UInt8]) -> [UInt8] {
        var state: (UInt32, UInt32, UInt32, UInt32, UInt32) = (
            0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476, 0xc3d2_e1f0
        )
        let padded = MerkleDamgardPadding.pad(message, blockByteCount: blockByteCount, lengthByteCount: 8)
        var schedule = [UInt32](repeating: 0, count: 80)
        var offset = 0
        while offset < padded.count {
            for t in 0..<16 {
                let base = offset + t * 4
                schedule[t] = UInt32(padded[base]) << 24 | UInt32(padded[base + 1]) << 16
                    | UInt32(padded[base + 2]) << 8 | UInt32(padded[base + 3])
            }
            for t in 16..<80 {
                schedule[t] = rotateLeft(schedule[t - 3] ^ schedule[t - 8] ^ schedule[t - 14] ^ schedule[t - 16], 1)
            }
            var (a, b, c, d, e) = state
            for t in 0..<80 {
                let f: UInt32
                let k: UInt32
                switch t {
                case 0..<20:
                    f = (b & c) | (~b & d)
                    k = 0x5a82_7999
                case 20..<40:
                    f = b ^ c ^ d
                    k = 0x6ed9_eba1
                case 40..<60:
                    f = (b & c) | (b & d) | (c & d)
                    k = 0x8f1b_bcdc
                default:
                    f = b ^ c ^ d
                    k = 0xca62_c1d6
                }
                let temp = rotateLeft(a, 5) &+ f &+ e &+ k &+ schedule[t]
                e = d
                d = c
                c = rotateLeft(b, 30)
                b = a
                a = temp
            }
            state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e)
            offset += blockByteCount
        }

        var digest: [UInt8] = []
        digest.reserveCapacity(digestByteCount)
        for word in [state.0, state.1, state.2, state.3, state.4] {
            digest.append(UInt8(truncatingIfNeeded: word >> 24))
            digest.append(UInt8(truncatingIfNeeded: word >> 16))
            digest.append(UInt8(truncatingIfNeeded: word >> 8))
            digest.append(UInt8(truncatingIfNeeded: word))
        }
        return digest
    }

    @inline(__always)
    private static func rotateLeft(_ value: UInt32, _ count: UInt32) -> UInt32 {
        (value << count) | (value >> (32 - count))
    }
}

/// The padding SHA-1, SHA-256 and SHA-512 share (FIPS 180-4 §5.1): a 1 bit, zeros, then the message
/// length in bits as a big-endian integer of `lengthByteCount` bytes, filling whole blocks.
enum MerkleDamgardPadding {
    static func pad(_ message: [UInt8], blockByteCount: Int, lengthByteCount: Int) -> [UInt8] {
        var padded = message
        padded.reserveCapacity(message.count + blockByteCount + lengthByteCount)
        padded.append(0x80)
        while padded.count % blockByteCount != blockByteCount - lengthByteCount { padded.append(0) }
        // Messages here are far below 2^61 bytes, so the bit length fits in 64 bits; wider length fields
        // (SHA-512's 128) get leading zero bytes.
        let bitLength = UInt64(message.count) &* 8
        for _ in 0..<(lengthByteCount - 8) { padded.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) {
            padded.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
        }
        return padded
    }
}
