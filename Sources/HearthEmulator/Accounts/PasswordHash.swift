/// The reference's fake password hash. It is not a hash: the emulator holds only test passwords, and
/// Firebase's emulator returns this exact text from lookup so tests can inspect it.
enum PasswordHash {
    static let minimumLength = 6
    static let weakPasswordMessage = "WEAK_PASSWORD : Password should be at least 6 characters"

    static func make(password: String, salt: String) -> String {
        "fakeHash:salt=\(salt):password=\(password)"
    }

    /// The salt inside a hash this emulator made, or nil for any other text (a production hash).
    static func salt(ofFakeHash hash: String) -> String? {
        let prefix = "fakeHash:salt="
        guard hash.hasPrefix(prefix), let end = hash.range(of: ":password=") else { return nil }
        let salt = String(hash[hash.index(hash.startIndex, offsetBy: prefix.count)..<end.lowerBound])
        return salt.isEmpty ? nil : salt
    }

    static func newSalt() -> String { "fakeSalt" + RandomID.alphanumeric(20) }

    static func requireStrong(_ password: String) throws(ApiError) {
        try require(password.count >= minimumLength, weakPasswordMessage)
    }

    static func matches(_ user: UserRecord, password: String) -> Bool {
        guard let hash = user.passwordHash, let salt = user.salt else { return false }
        return hash == make(password: password, salt: salt)
    }

    /// Stores a new password (callers decide whether `validSince` moves).
    static func set(_ password: String, on user: inout UserRecord, clock: EmulatorClock) {
        let salt = newSalt()
        user.salt = salt
        user.passwordHash = make(password: password, salt: salt)
        user.passwordUpdatedAt = clock.milliseconds
    }
}
