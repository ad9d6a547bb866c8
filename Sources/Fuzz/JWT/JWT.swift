import FuzzSupport
@testable import HearthAuth
@testable import HearthBackend
import HearthWire

// The ID token's claims as the client reads them after every sign-in and refresh. Selector byte:
// even → the input is the whole token text; odd → the input is the payload, wrapped as
// header.base64url(payload).signature, so mutations reach the claims rather than the framing.

func fuzzOne(_ data: [UInt8]) {
    var input = FuzzInput(data)
    let token: String
    if input.byte() & 1 == 0 {
        token = String(decoding: input.rest(), as: UTF8.self)
    } else {
        token = "eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0." + Base64.urlEncoded(input.rest()) + "."
    }
    let claims = try? JWTClaims(token: token)
    fuzzCheck(JWTClaims.signInProvider(of: token) == claims?.signInProvider,
              "the sign-in provider read on its own differs from the decoded claims'")
    guard let claims else { return }
    _ = claims.subject
    _ = claims.userID
    _ = claims.signInProvider
    _ = claims.authTime
    if let lifetime = claims.lifetime, let exp = claims.expiration, let iat = claims.issuedAt {
        fuzzCheck(iat + lifetime == exp, "lifetime is not exp - iat")
    }
    fuzzCheck(Auth.expiryMs(expiresIn: nil, claims: claims, nowMs: 1_763_000_000_000) >= 0, "negative expiry")
    _ = TokenLifetime.seconds(expiresIn: nil, idToken: token)
    // The payload's claims survive a round trip through the writer.
    let reencoded = "e30." + Base64.urlEncoded(JSONValue.object(claims.values).serialized()) + "."
    fuzzCheck((try? JWTClaims(token: reencoded)) == claims, "claims changed in a round trip")
}

@main enum Main { static func main() { fuzzMain("fuzz-jwt", fuzzOne) } }
