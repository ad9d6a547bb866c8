@testable import HearthBackend
import HearthWire
import XCTest

final class JWTTests: XCTestCase {
    private let claims: JSONValue = [
        "iss": "https://securetoken.google.com/demo-hearth", "aud": "demo-hearth", "auth_time": 1_700_000_000,
        "user_id": "uid-123", "sub": "uid-123", "iat": 1_700_000_100, "exp": 1_700_003_700,
        "email": "ada@example.com", "firebase": ["identities": [:], "sign_in_provider": "password"],
    ]

    func testClaimsOfAnUnsignedTokenAreDecoded() throws {
        let decoded = try JWT.claims(of: makeJWT(claims))
        XCTAssertEqual(JSONValue.object(decoded), claims)
    }

    func testSignatureIsIgnored() throws {
        let token = makeJWT(claims) + "c2lnbmF0dXJl"
        XCTAssertEqual(JSONValue.object(try JWT.claims(of: token)), claims)
    }

    func testPaddedPayloadIsAccepted() throws {
        let payload = Base64.urlEncoded((["sub": "a"] as JSONValue).serialized())
        XCTAssertNotEqual(payload.count % 4, 0, "the test needs a payload that padding changes")
        let padded = payload + String(repeating: "=", count: 4 - payload.count % 4)
        XCTAssertEqual(try JWT.claims(of: "eyJhbGciOiJub25lIn0.\(padded).sig"), ["sub": "a"])
    }

    func testStandardAlphabetPayloadIsAccepted() throws {
        let payload: JSONValue = ["k": "\u{FB}\u{FF}~~~???>>>"]
        let urlSafe = Base64.urlEncoded(payload.serialized())
        let standard = urlSafe.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        XCTAssertNotEqual(standard, urlSafe, "the payload must need '+' or '/'")
        XCTAssertEqual(JSONValue.object(try JWT.claims(of: "h.\(standard).s")), payload)
    }

    func testTokensWithoutThreeSegmentsAreRejected() {
        for token in ["", "garbage", "a.b", "a.b.c.d", ".payload.sig", "header..sig"] {
            XCTAssertThrowsError(try JWT.claims(of: token), token) { error in
                XCTAssertEqual(error as? JWTError, .notThreeSegments, token)
            }
        }
    }

    func testPayloadThatIsNotBase64URLIsRejected() {
        XCTAssertThrowsError(try JWT.claims(of: "h.!!!.s")) { error in
            XCTAssertEqual(error as? JWTError, .payloadNotBase64URL)
        }
    }

    func testPayloadThatIsNotAJSONObjectIsRejected() {
        for payload in ["[1,2]", "\"text\"", "not json", "{\"a\":"] {
            let token = "h." + Base64.urlEncoded(Array(payload.utf8)) + ".s"
            XCTAssertThrowsError(try JWT.claims(of: token), payload) { error in
                XCTAssertEqual(error as? JWTError, .payloadNotJSONObject, payload)
            }
        }
    }

    func testFirebaseClaimHelpers() throws {
        let typed = try JWTClaims(token: makeJWT(claims))
        XCTAssertEqual(typed.expiration, 1_700_003_700)
        XCTAssertEqual(typed.issuedAt, 1_700_000_100)
        XCTAssertEqual(typed.authTime, 1_700_000_000)
        XCTAssertEqual(typed.subject, "uid-123")
        XCTAssertEqual(typed.userID, "uid-123")
        XCTAssertEqual(typed.signInProvider, "password")
        XCTAssertEqual(typed.lifetime, 3600)
        XCTAssertEqual(typed["email"], "ada@example.com")
    }

    func testClaimHelpersTolerateStringNumbersAndMissingClaims() throws {
        let typed = try JWTClaims(token: makeJWT(["exp": "200", "iat": "100", "sub": "s"]))
        XCTAssertEqual(typed.expiration, 200)
        XCTAssertEqual(typed.lifetime, 100)
        XCTAssertEqual(typed.userID, "s", "user_id falls back to sub")
        XCTAssertNil(typed.authTime)
        XCTAssertNil(typed.signInProvider)
        XCTAssertNil(try JWTClaims(token: makeJWT(["exp": 5])).lifetime)
    }

    func testErrorsDescribeTheProblemWithoutTheToken() {
        XCTAssertThrowsError(try JWT.claims(of: "secret-token-text")) { error in
            XCTAssertFalse(String(describing: error).contains("secret-token-text"))
        }
    }
}
