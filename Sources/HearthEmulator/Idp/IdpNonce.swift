import HearthCrypto

/// The OIDC nonce check Firebase's emulator skips (hearth-emulator only): an ID token that carries a
/// `nonce` claim was issued for one sign-in attempt, identified by the SHA-256 (lowercase hex) of
/// the raw nonce the client kept; the client proves it is that attempt by sending the raw nonce
/// (`nonce` in postBody). Apple always works this way, so for apple.com a raw nonce against a
/// token without a nonce claim fails too.
enum IdpNonce {
    static func verify(_ credential: IdpClaims, providerId: String, rawNonce: String?) throws(ApiError) {
        // Only an ID token carries a nonce; fake access tokens are just claims.
        guard credential.source == .idToken else { return }
        let rawNonce = rawNonce.flatMap { $0.isEmpty ? nil : $0 }
        guard let expected = credential.claims["nonce"], expected != .null else {
            if providerId == "apple.com", rawNonce != nil {
                throw .badRequest("MISSING_OR_INVALID_NONCE : ((The id_token has no nonce claim to check the raw nonce against.))")
            }
            return
        }
        guard let rawNonce else {
            throw .badRequest("MISSING_OR_INVALID_NONCE : Nonce is missing in the request.")
        }
        guard expected.stringValue == SHA256.hexDigest(rawNonce) else {
            throw .badRequest(
                "MISSING_OR_INVALID_NONCE : The nonce in ID Token does not match the SHA256 hash of the raw nonce in the request.")
        }
    }
}
