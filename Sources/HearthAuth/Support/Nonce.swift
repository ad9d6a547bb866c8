import HearthBackend
import HearthCrypto
import HearthTransport

/// A raw nonce and its SHA-256 for Sign in with Apple and OIDC providers (client-wire-reference §4.5):
/// the hash goes to the provider (Apple's `nonce` request field), which puts it in the ID token; the raw
/// value goes to Firebase with that ID token, and the server checks that one hashes to the other.
///
/// Hosts use `Nonce.random()` so nobody hand-rolls the randomness. The raw value is a secret until the
/// sign-in completes: printing a Nonce shows neither value.
package struct Nonce: Sendable, Equatable, Redacted {
    /// The characters of a generated raw nonce (Firebase's sample: `0-9A-Za-z-._`).
    static let alphabet: [Character] = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-._")
    static let defaultLength = 32
    /// Longer nonces gain nothing and would only bloat the ID token.
    static let maximumLength = 1024

    /// What goes to Firebase (`nonce=` in the signInWithIdp postBody).
    package let raw: String
    /// Lowercase hex SHA-256 of `raw`: what goes to the identity provider.
    package let sha256Hex: String

    /// Wraps a raw nonce the host already has.
    package init(raw: String) {
        self.raw = raw
        self.sha256Hex = SHA256.hexDigest(raw)
    }

    /// A fresh raw nonce of `length` characters from `alphabet`, drawn from the operating system's secure
    /// random source. Throws `.invalidArgument` for a length outside 1...`maximumLength`, `.failure`
    /// when the system has no usable random source.
    package static func random(length: Int = defaultLength) throws(AuthError) -> Nonce {
        guard (1...maximumLength).contains(length) else {
            throw AuthError(code: .invalidArgument,
                            message: "A nonce must be 1 to \(maximumLength) characters long, not \(length).")
        }
        var characters: [Character] = []
        characters.reserveCapacity(length)
        while characters.count < length {
            // About a quarter of the bytes are rejected; ask for enough that one round usually suffices.
            let needed = length - characters.count
            let bytes = try SecureRandom.bytes(needed + needed / 2 + 8)
            characters.append(contentsOf: alphabetCharacters(fromRandomBytes: bytes).prefix(needed))
        }
        return Nonce(raw: String(characters))
    }

    /// Maps random bytes to alphabet characters without modulo bias: only bytes below the largest
    /// multiple of the alphabet size are used, so every character is equally likely.
    static func alphabetCharacters(fromRandomBytes bytes: [UInt8]) -> [Character] {
        let size = alphabet.count
        let limit = (256 / size) * size
        return bytes.compactMap { byte in
            Int(byte) < limit ? alphabet[Int(byte) % size] : nil
        }
    }

    package var redactedSummary: String { "\(raw.count) characters" }
}
