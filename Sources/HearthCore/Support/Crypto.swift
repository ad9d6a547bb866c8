// The hashes, HMAC and base32 live in HearthCrypto (shared with the emulator); HearthCore's users see
// them as part of the core.
@_exported import HearthCrypto
