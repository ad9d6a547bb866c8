import HearthCrypto
import XCTest

/// The hashes and HMAC under TOTP, against FIPS 180 examples, RFC 2202 (HMAC-SHA-1) and RFC 4231
/// (HMAC-SHA-256/512) test cases, and lengths around the padding boundaries.
final class TOTPHashTests: XCTestCase {
    private func hex(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
    private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    func testSHA1MatchesTheFIPSExamples() {
        XCTAssertEqual(hex(SHA1.digest([])), "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        XCTAssertEqual(hex(SHA1.digest(bytes("abc"))), "a9993e364706816aba3e25717850c26c9cd0d89d")
        XCTAssertEqual(hex(SHA1.digest(bytes("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"))),
                       "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        XCTAssertEqual(hex(SHA1.digest([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))),
                       "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    }

    func testSHA1PadsCorrectlyAroundTheBlockBoundary() {
        let expected: [Int: String] = [
            55: "c1c8bbdc22796e28c0e15163d20899b65621d65a",
            56: "c2db330f6083854c99d4b5bfb6e8f29f201be699",
            63: "03f09f5b158a7a8cdad920bddc29b81c18a551f5",
            64: "0098ba824b5c16427bd7a1122a5a442a25ec644d",
            65: "11655326c708d70319be2610e8a57d9a5b959d3b",
        ]
        for (length, digest) in expected {
            XCTAssertEqual(hex(SHA1.digest([UInt8](repeating: UInt8(ascii: "a"), count: length))), digest, "\(length)")
        }
    }

    func testSHA512MatchesTheFIPSExamples() {
        XCTAssertEqual(hex(SHA512.digest([])),
                       "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce"
                       + "47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e")
        XCTAssertEqual(hex(SHA512.digest(bytes("abc"))),
                       "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
                       + "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f")
        XCTAssertEqual(hex(SHA512.digest(bytes("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
                                               + "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"))),
                       "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018"
                       + "501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909")
        XCTAssertEqual(hex(SHA512.digest([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))),
                       "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973eb"
                       + "de0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b")
    }

    func testSHA512PadsCorrectlyAroundTheBlockBoundary() {
        let expected: [Int: String] = [
            111: "fa9121c7b32b9e01733d034cfc78cbf67f926c7ed83e82200ef86818196921760b4beff48404df811b953828274461673c68d04e297b0eb7b2b4d60fc6b566a2",
            112: "c01d080efd492776a1c43bd23dd99d0a2e626d481e16782e75d54c2503b5dc32bd05f0f1ba33e568b88fd2d970929b719ecbb152f58f130a407c8830604b70ca",
            127: "828613968b501dc00a97e08c73b118aa8876c26b8aac93df128502ab360f91bab50a51e088769a5c1eff4782ace147dce3642554199876374291f5d921629502",
            128: "b73d1929aa615934e61a871596b3f3b33359f42b8175602e89f7e06e5f658a243667807ed300314b95cacdd579f3e33abdfbe351909519a846d465c59582f321",
            129: "4f681e0bd53cda4b5a2041cc8a06f2eabde44fb16c951fbd5b87702f07aeab611565b19c47fde30587177ebb852e3971bbd8d3fd30da18d71037dfbd98420429",
        ]
        for (length, digest) in expected {
            XCTAssertEqual(hex(SHA512.digest([UInt8](repeating: UInt8(ascii: "a"), count: length))), digest, "\(length)")
        }
    }

    func testHMACWithAShortKey() {
        // RFC 2202 / RFC 4231 test case 2.
        let key = bytes("Jefe")
        let message = bytes("what do ya want for nothing?")
        XCTAssertEqual(hex(HMAC.authenticationCode(key: key, message: message, algorithm: .sha1)),
                       "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79")
        XCTAssertEqual(hex(HMAC.authenticationCode(key: key, message: message, algorithm: .sha256)),
                       "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        XCTAssertEqual(hex(HMAC.authenticationCode(key: key, message: message, algorithm: .sha512)),
                       "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea250554"
                       + "9758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737")
    }

    func testHMACWithAKeyOfTwentyBytes() {
        // RFC 2202 / RFC 4231 test case 1.
        let key = [UInt8](repeating: 0x0b, count: 20)
        let message = bytes("Hi There")
        XCTAssertEqual(hex(HMAC.authenticationCode(key: key, message: message, algorithm: .sha1)),
                       "b617318655057264e28bc0b6fb378c8ef146be00")
        XCTAssertEqual(hex(HMAC.authenticationCode(key: key, message: message, algorithm: .sha256)),
                       "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        XCTAssertEqual(hex(HMAC.authenticationCode(key: key, message: message, algorithm: .sha512)),
                       "87aa7cdea5ef619d4ff0b4241a1d6cb02379f4e2ce4ec2787ad0b30545e17cde"
                       + "daa833b7d6b8a702038b274eaea3f4e4be9d914eeb61f1702e696c203a126854")
    }

    func testHMACHashesAKeyLongerThanTheBlock() {
        // RFC 4231 test case 6 (131-byte key); the SHA-1 value from the same inputs.
        let key = [UInt8](repeating: 0xaa, count: 131)
        let message = bytes("Test Using Larger Than Block-Size Key - Hash Key First")
        XCTAssertEqual(hex(HMAC.authenticationCode(key: key, message: message, algorithm: .sha1)),
                       "90d0dace1c1bdc957339307803160335bde6df2b")
        XCTAssertEqual(hex(HMAC.authenticationCode(key: key, message: message, algorithm: .sha256)),
                       "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
        XCTAssertEqual(hex(HMAC.authenticationCode(key: key, message: message, algorithm: .sha512)),
                       "80b24263c7c1a3ebb71493c1dd7be8b49b46d1f41b4aeec1121b013783f8f352"
                       + "6b56d037e05f2598bd0fd2215d6a1e5295e64f73f63f0aec8b915a985d786598")
    }
}
