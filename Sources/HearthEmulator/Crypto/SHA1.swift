/// SHA-1 (FIPS 180-4 §6.1), for RFC 6238's default HMAC-SHA-1, which authenticator apps expect.
/// HMAC-SHA-1 is not weakened by SHA-1's collisions. The package takes no crypto dependency, and
/// the messages are a few bytes, so a plain implementation is plenty.
enum SHA1 {
    static let blockByteCount = 64

    static func digest<Bytes: Collection<UInt8>>(_ message: Bytes) -> [UInt8] {
        var padded = Array(message)
        let bitLength = UInt64(padded.count) &* 8
        padded.append(0x80)
        while padded.count % 64 != 56 { padded.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { padded.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }

        var hash: [UInt32] = [0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476, 0xc3d2_e1f0]
        var schedule = [UInt32](repeating: 0, count: 80)
        for blockStart in stride(from: 0, to: padded.count, by: 64) {
            for i in 0..<16 {
                let at = blockStart + i * 4
                schedule[i] = UInt32(padded[at]) << 24 | UInt32(padded[at + 1]) << 16
                    | UInt32(padded[at + 2]) << 8 | UInt32(padded[at + 3])
            }
            for i in 16..<80 {
                schedule[i] = rotateLeft(schedule[i - 3] ^ schedule[i - 8] ^ schedule[i - 14] ^ schedule[i - 16], 1)
            }
            var (a, b, c, d, e) = (hash[0], hash[1], hash[2], hash[3], hash[4])
            for i in 0..<80 {
                let (f, k): (UInt32, UInt32)
                switch i {
                case 0..<20: (f, k) = ((b & c) | (~b & d), 0x5a82_7999)
                case 20..<40: (f, k) = (b ^ c ^ d, 0x6ed9_eba1)
                case 40..<60: (f, k) = ((b & c) | (b & d) | (c & d), 0x8f1b_bcdc)
                default: (f, k) = (b ^ c ^ d, 0xca62_c1d6)
                }
                let temp = rotateLeft(a, 5) &+ f &+ e &+ k &+ schedule[i]
                (e, d, c, b, a) = (d, c, rotateLeft(b, 30), a, temp)
            }
            for (i, value) in [a, b, c, d, e].enumerated() { hash[i] = hash[i] &+ value }
        }
        return hash.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> UInt32(24 - $0 * 8)) } }
    }

    private static func rotateLeft(_ value: UInt32, _ count: UInt32) -> UInt32 {
        (value << count) | (value >> (32 - count))
    }
}
