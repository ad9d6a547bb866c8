@testable import HearthAuth
@testable import HearthBackend
import HearthCrypto
import XCTest

/// The raw nonce and its hash (client-wire-reference §4.5).
final class NonceTests: XCTestCase {
    private let alphabet = Set("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-._")

    func testRandomNonceHas32CharactersFromTheAlphabet() throws {
        let nonce = try Nonce.random()
        XCTAssertEqual(nonce.raw.count, 32)
        XCTAssertTrue(nonce.raw.allSatisfy(alphabet.contains), nonce.raw)
    }

    func testTheAlphabetIsDigitsLettersAndDashDotUnderscore() {
        XCTAssertEqual(Set(Nonce.alphabet), alphabet)
        XCTAssertEqual(Nonce.alphabet.count, 65)
    }

    func testHashIsTheLowercaseHexSHA256OfTheRawNonce() throws {
        let nonce = try Nonce.random()
        XCTAssertEqual(nonce.sha256Hex, SHA256.hexDigest(nonce.raw))
        XCTAssertEqual(Nonce(raw: "abc").sha256Hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    func testEveryNonceIsDifferent() throws {
        var seen: Set<String> = []
        for _ in 0..<1000 { seen.insert(try Nonce.random().raw) }
        XCTAssertEqual(seen.count, 1000)
    }

    func testEveryAlphabetCharacterTurnsUp() throws {
        // 32,000 draws over 65 characters: each is expected ~490 times; missing one would mean a broken
        // mapping, not bad luck (probability below 1e-200).
        var counts: [Character: Int] = [:]
        for _ in 0..<1000 {
            for character in try Nonce.random().raw { counts[character, default: 0] += 1 }
        }
        XCTAssertEqual(Set(counts.keys), alphabet)
        XCTAssertGreaterThan(counts.values.min() ?? 0, 300)
        XCTAssertLessThan(counts.values.max() ?? .max, 700)
    }

    func testOtherLengthsAreHonoured() throws {
        XCTAssertEqual(try Nonce.random(length: 1).raw.count, 1)
        XCTAssertEqual(try Nonce.random(length: 200).raw.count, 200)
        XCTAssertEqual(try Nonce.random(length: Nonce.maximumLength).raw.count, Nonce.maximumLength)
    }

    func testLengthOutOfRangeIsAnInvalidArgument() {
        for length in [0, -1, Nonce.maximumLength + 1] {
            XCTAssertThrowsError(try Nonce.random(length: length), "length \(length)") { error in
                XCTAssertEqual((error as? AuthError)?.code, .invalidArgument)
            }
        }
    }

    func testBytesAboveTheLastFullAlphabetCycleAreRejected() {
        // 195 = 3 × 65: bytes 195...255 would make the first 61 characters likelier, so they are skipped.
        XCTAssertEqual(Nonce.alphabetCharacters(fromRandomBytes: [0, 64, 65, 129, 130, 194, 195, 255]),
                       ["0", "_", "0", "_", "0", "_"])
        XCTAssertEqual(Nonce.alphabetCharacters(fromRandomBytes: [10, 36, 62, 63]), ["A", "a", "-", "."])
    }

    func testSecureRandomGivesTheRequestedNumberOfBytes() throws {
        XCTAssertEqual(try SecureRandom.bytes(0), [])
        XCTAssertEqual(try SecureRandom.bytes(1000).count, 1000)
        // Two large draws agreeing would mean no randomness at all.
        XCTAssertNotEqual(try SecureRandom.bytes(600), try SecureRandom.bytes(600))
    }

    func testPrintedNonceShowsNeitherValue() throws {
        let nonce = try Nonce.random()
        for text in [String(describing: nonce), String(reflecting: nonce), "\(nonce)"] {
            XCTAssertFalse(text.contains(nonce.raw), text)
            XCTAssertFalse(text.contains(nonce.sha256Hex), text)
        }
        var dumped = ""
        dump(nonce, to: &dumped)
        XCTAssertFalse(dumped.contains(nonce.raw), dumped)
    }
}
