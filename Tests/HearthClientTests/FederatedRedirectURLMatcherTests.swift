@testable import HearthAuth
@testable import HearthBackend
import HearthWire
import XCTest

/// `RedirectURLMatcher`: whether a URL handed to the app is the pending provider flow's answer.
final class FederatedRedirectURLMatcherTests: XCTestCase {
    private func matcher(_ target: String = "com.example.game:/oauth", state: String? = "s7At3") throws -> RedirectURLMatcher {
        try RedirectURLMatcher(redirectTarget: target, expectedState: state)
    }

    private func assertConsumed(_ match: RedirectMatch, url: String, postBody: String? = nil,
                                file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(match, .consumed(RedirectResponse(url: url, postBody: postBody)), file: file, line: line)
    }

    private func rejectionMessage(_ match: RedirectMatch, file: StaticString = #filePath, line: UInt = #line) -> String? {
        guard case .rejected(let error) = match else {
            XCTFail("expected a rejection, got \(match)", file: file, line: line)
            return nil
        }
        XCTAssertEqual(error.code, .invalidArgument, file: file, line: line)
        return error.message
    }

    private func failure(_ match: RedirectMatch, file: StaticString = #filePath, line: UInt = #line) -> AuthError? {
        guard case .failed(let error) = match else {
            XCTFail("expected a failure, got \(match)", file: file, line: line)
            return nil
        }
        return error
    }

    // MARK: Addressing

    func testACustomSchemeRedirectWithTheStateIsConsumedAsSent() throws {
        let url = "com.example.game:/oauth?code=4%2F0Ab&state=s7At3&scope=email+profile"
        assertConsumed(try matcher().match(url: url), url: url)
    }

    func testSurroundingWhitespaceIsIgnored() throws {
        let url = "com.example.game:/oauth?state=s7At3"
        assertConsumed(try matcher().match(url: "  \(url)\n"), url: url)
    }

    func testSchemeAndHostCompareCaseInsensitivelyAndAnEmptyAuthorityIsNone() throws {
        let m = try matcher()
        for url in ["COM.Example.Game:/oauth?state=s7At3", "com.example.game:///oauth?state=s7At3"] {
            assertConsumed(m.match(url: url), url: url)
        }
        let loopback = try matcher("http://127.0.0.1:5000/__/auth/callback")
        let upper = "HTTP://127.0.0.1:5000/__/auth/callback?state=s7At3"
        assertConsumed(loopback.match(url: upper), url: upper)
    }

    func testPathsBelowTheTargetAreOursButLookalikesAreNot() throws {
        let m = try matcher()
        XCTAssertNotEqual(m.match(url: "com.example.game:/oauth/done?state=s7At3"), .notOurs)
        XCTAssertNotEqual(m.match(url: "com.example.game:/oauth/?state=s7At3"), .notOurs)
        XCTAssertEqual(m.match(url: "com.example.game:/oauthx?state=s7At3"), .notOurs)
        XCTAssertEqual(m.match(url: "com.example.game:/OAUTH?state=s7At3"), .notOurs, "paths are case-sensitive")
        XCTAssertEqual(m.match(url: "com.example.game:/?state=s7At3"), .notOurs)
    }

    func testOtherSchemesHostsPortsAndShapesAreNotOurs() throws {
        let m = try matcher()
        for url in ["com.example.other:/oauth?state=s7At3", "com.example.game://oauth?state=s7At3",
                    "com.example.game://evil/oauth?state=s7At3", "https://example.com/oauth?state=s7At3"] {
            XCTAssertEqual(m.match(url: url), .notOurs, url)
        }
        let loopback = try matcher("http://127.0.0.1:5000/__/auth/callback")
        XCTAssertEqual(loopback.match(url: "http://127.0.0.1:5001/__/auth/callback?state=s7At3"), .notOurs)
        XCTAssertEqual(loopback.match(url: "http://localhost:5000/__/auth/callback?state=s7At3"), .notOurs)
        XCTAssertEqual(loopback.match(url: "https://127.0.0.1:5000/__/auth/callback?state=s7At3"), .notOurs)
    }

    func testTextThatIsNoURLIsNotOurs() throws {
        let m = try matcher()
        for text in ["", " ", "oauth?state=s7At3", ":/oauth", "1com:/oauth?state=s7At3", "com example:/oauth",
                     "/oauth?state=s7At3", "\u{0}\u{1}", "com.example.game"] {
            XCTAssertEqual(m.match(url: text), .notOurs, text.debugDescription)
        }
    }

    func testAnInvalidRedirectTargetIsRefused() {
        for target in ["", "no scheme", "/relative/path", "://x"] {
            XCTAssertThrowsError(try RedirectURLMatcher(redirectTarget: target, expectedState: "s")) { error in
                XCTAssertEqual((error as? AuthError)?.code, .invalidArgument)
            }
        }
    }

    // MARK: State

    func testAMissingOrWrongStateIsRejectedNotConsumed() throws {
        let m = try matcher()
        XCTAssertNotNil(rejectionMessage(m.match(url: "com.example.game:/oauth?code=c")))
        let wrong = rejectionMessage(m.match(url: "com.example.game:/oauth?code=c&state=s7At"))
        XCTAssertTrue(wrong?.contains("does not match") ?? false)
        XCTAssertNotNil(rejectionMessage(m.match(url: "com.example.game:/oauth?code=c&state=")))
        XCTAssertNotNil(rejectionMessage(m.match(url: "com.example.game:/oauth?code=c&State=s7At3")), "names are case-sensitive")
    }

    func testWithoutAnExpectedStateEveryRedirectIsRejected() throws {
        for state in [nil, ""] as [String?] {
            let m = try matcher(state: state)
            XCTAssertNotNil(rejectionMessage(m.match(url: "com.example.game:/oauth?state=")))
            XCTAssertNotNil(rejectionMessage(m.match(url: "com.example.game:/oauth?state=anything")))
        }
    }

    func testARepeatedStateMustAlwaysBeTheExpectedOne() throws {
        let m = try matcher()
        let same = "com.example.game:/oauth?state=s7At3&code=c&state=s7At3"
        assertConsumed(m.match(url: same), url: same)
        XCTAssertNotNil(rejectionMessage(m.match(url: "com.example.game:/oauth?state=s7At3&state=evil")))
        XCTAssertNotNil(rejectionMessage(m.match(url: "com.example.game:/oauth?state=evil&state=s7At3")))
        XCTAssertNotNil(rejectionMessage(m.match(url: "com.example.game:/oauth?state=s7At3#state=evil")))
    }

    func testTheStateIsPercentDecodedAndPlusIsLiteralInTheQuery() throws {
        let m = try matcher(state: "a+b/c d")
        let encoded = "com.example.game:/oauth?state=a%2Bb%2Fc%20d"
        assertConsumed(m.match(url: encoded), url: encoded)
        let plain = "com.example.game:/oauth?state=a+b/c%20d"
        assertConsumed(m.match(url: plain), url: plain)
        XCTAssertNotNil(rejectionMessage(m.match(url: "com.example.game:/oauth?state=a+b/c+d")))
    }

    func testInAFormBodyPlusIsASpace() throws {
        let m = try matcher("http://127.0.0.1:5000/cb", state: "a b+c")
        let body = "code=c&state=a+b%2Bc"
        assertConsumed(m.match(url: "http://127.0.0.1:5000/cb", postBody: body), url: "http://127.0.0.1:5000/cb",
                       postBody: body)
        XCTAssertNotNil(rejectionMessage(m.match(url: "http://127.0.0.1:5000/cb", postBody: "state=a+b+c")))
    }

    func testParametersInTheFragmentCount() throws {
        let m = try matcher()
        let implicit = "com.example.game:/oauth#access_token=ya29.a0&token_type=Bearer&state=s7At3"
        assertConsumed(m.match(url: implicit), url: implicit)
        let split = "com.example.game:/oauth?code=c#state=s7At3"
        assertConsumed(m.match(url: split), url: split)
        XCTAssertEqual(failure(m.match(url: "com.example.game:/oauth#error=access_denied&state=s7At3"))?.code,
                       .webContextCancelled)
    }

    func testMalformedEscapesAndInvalidUTF8NeverMatchByAccident() throws {
        let m = try matcher(state: "%zz")
        let literal = "com.example.game:/oauth?state=%zz"
        assertConsumed(m.match(url: literal), url: literal)
        let strict = try matcher()
        for url in ["com.example.game:/oauth?state=%FF%FE", "com.example.game:/oauth?state=%", "com.example.game:/oauth?state=s7At3%",
                    "com.example.game:/oauth?state=s7At3%0", "com.example.game:/oauth?%=%&&&=&state"] {
            XCTAssertNotNil(rejectionMessage(strict.match(url: url)), url)
        }
    }

    // MARK: Errors the redirect carries

    func testTheIdPsAccessDeniedEndsTheFlowAsCancelled() throws {
        let error = failure(try matcher().match(
            url: "com.example.game:/oauth?error=access_denied&error_description=The+user+said+no&state=s7At3"))
        XCTAssertEqual(error?.code, .webContextCancelled)
        XCTAssertTrue(error?.message.contains("access_denied") ?? false, error?.message ?? "")
    }

    func testOtherIdPErrorsEndTheFlowAsAWebInternalErrorWithTheirDescription() throws {
        let error = failure(try matcher().match(
            url: "com.example.game:/oauth?error=invalid_scope&error_description=Scope%20%22x%22%20unknown%0A&state=s7At3"))
        XCTAssertEqual(error?.code, .webInternalError)
        XCTAssertEqual(error?.message, "The identity provider refused the sign-in (invalid_scope): Scope \"x\" unknown")
    }

    func testAnIdPErrorWithoutTheStateIsRejectedSoItCannotEndTheSignIn() throws {
        XCTAssertNotNil(rejectionMessage(try matcher().match(url: "com.example.game:/oauth?error=access_denied")))
        XCTAssertNotNil(rejectionMessage(try matcher().match(
            url: #"com.example.game:/oauth?firebaseError={"code":"auth/internal-error"}"#)))
    }

    // MARK: OAuth 1.0a (Twitter): the request token instead of a state

    private func oauth1Matcher(token: String = "tWiTtErReQuEsTtOkEn") throws -> RedirectURLMatcher {
        var m = try matcher("http://127.0.0.1:49152/", state: token)
        m.correlationParameter = RedirectURLMatcher.oauth1TokenParameter
        return m
    }

    func testAnOAuth1RedirectWithTheRequestTokenIsConsumed() throws {
        let url = "http://127.0.0.1:49152/?oauth_token=tWiTtErReQuEsTtOkEn&oauth_verifier=v3r1f13r"
        assertConsumed(try oauth1Matcher().match(url: url), url: url)
    }

    func testAnOAuth1RedirectWithAnotherOrNoTokenIsRejected() throws {
        let m = try oauth1Matcher()
        XCTAssertNotNil(rejectionMessage(m.match(url: "http://127.0.0.1:49152/?oauth_token=other&oauth_verifier=v")))
        let missing = rejectionMessage(m.match(url: "http://127.0.0.1:49152/?oauth_verifier=v"))
        XCTAssertTrue(missing?.contains("oauth_token") ?? false, missing ?? "")
        // A `state` proves nothing to an OAuth 1.0a flow.
        XCTAssertNotNil(rejectionMessage(m.match(url: "http://127.0.0.1:49152/?state=tWiTtErReQuEsTtOkEn")))
        XCTAssertNotNil(rejectionMessage(m.match(
            url: "http://127.0.0.1:49152/?oauth_token=tWiTtErReQuEsTtOkEn&oauth_token=other")))
    }

    func testTheUserRefusingTheRequestTokenEndsTheFlowAsCancelled() throws {
        let error = failure(try oauth1Matcher().match(url: "http://127.0.0.1:49152/?denied=tWiTtErReQuEsTtOkEn"))
        XCTAssertEqual(error?.code, .webContextCancelled)
        // Refusing some other token is not this flow's answer.
        XCTAssertNotNil(rejectionMessage(try oauth1Matcher().match(url: "http://127.0.0.1:49152/?denied=other")))
        // A state-correlated flow does not read `denied`.
        XCTAssertNotNil(rejectionMessage(try matcher("http://127.0.0.1:49152/").match(
            url: "http://127.0.0.1:49152/?denied=s7At3")))
    }

    func testFirebaseHandlerErrorsMapAsTheClientReferenceSays() throws {
        let m = try matcher()
        func mapped(_ json: String) -> AuthError? {
            failure(m.match(url: "com.example.game:/oauth?state=s7At3&firebaseError=\(PercentEncoding.encode(json))"))
        }
        let clientId = mapped(#"{"code":"auth/invalid-oauth-client-id","message":"The OAuth client ID is wrong."}"#)
        XCTAssertEqual(clientId?.code, .invalidClientId)
        XCTAssertEqual(clientId?.message, "The OAuth client ID is wrong.")
        XCTAssertEqual(mapped(#"{"code":"auth/network-request-failed","message":"offline"}"#)?.code, .networkRequestFailed)
        XCTAssertEqual(mapped(#"{"code":"auth/internal-error"}"#)?.code, .webInternalError)
        let other = mapped(#"{"code":"auth/web-storage-unsupported","message":"No storage."}"#)
        XCTAssertEqual(other?.code, .webInternalError)
        XCTAssertEqual(other?.message, "[auth/web-storage-unsupported] - No storage.")
        XCTAssertEqual(mapped("not json")?.code, .webInternalError)
        XCTAssertEqual(mapped(#"{"message":"no code"}"#)?.code, .webInternalError)
    }

    func testAConsumedRedirectPrintsWithoutItsCodeOrTokens() {
        let response = RedirectResponse(url: "http://127.0.0.1:5000/cb?code=SECRET-CODE&state=s",
                                        postBody: "id_token=SECRET-TOKEN")
        for text in [String(describing: response), String(reflecting: response), "\(RedirectMatch.consumed(response))"] {
            XCTAssertFalse(text.contains("SECRET"), text)
        }
        XCTAssertTrue(String(describing: response).contains("http://127.0.0.1:5000/cb"))
    }

    // MARK: Garbage

    /// Random bytes, and random mutations of real redirects: every answer is one of the four cases,
    /// and nothing random is ever consumed.
    func testRandomInputNeverCrashesAndIsNeverConsumed() throws {
        var random = SplitMix64(seed: 0x5EED_F00D)
        let m = try matcher()
        let loopback = try matcher("http://127.0.0.1:5000/__/auth/callback", state: "s7At3")
        let alphabet = Array("com.example.game:/oauth?state=s7At3&#%+=2F_-\u{0}\u{7F}é\r\n ".utf8)
        for round in 0..<4_000 {
            let length = Int(random.next() % 200)
            var bytes: [UInt8] = []
            for _ in 0..<length {
                bytes.append(round % 2 == 0 ? UInt8(truncatingIfNeeded: random.next())
                                            : alphabet[Int(random.next() % UInt64(alphabet.count))])
            }
            let text = String(decoding: bytes, as: UTF8.self)
            let body = round % 3 == 0 ? text : nil
            for candidate in [m, loopback] {
                if case .consumed = candidate.match(url: text, postBody: body) {
                    // Only possible if the random text happens to be a well-formed redirect of ours.
                    XCTAssertTrue(text.contains("state=s7At3"), text.debugDescription)
                }
            }
        }
        let valid = Array("com.example.game:/oauth?code=c&state=s7At3#x=y".utf8)
        for _ in 0..<4_000 {
            var mutated = valid
            for _ in 0...(random.next() % 4) {
                let index = Int(random.next() % UInt64(mutated.count))
                switch random.next() % 3 {
                case 0: mutated[index] = UInt8(truncatingIfNeeded: random.next())
                case 1: mutated.remove(at: index)
                default: mutated.insert(UInt8(truncatingIfNeeded: random.next()), at: index)
                }
                if mutated.isEmpty { mutated = [0] }
            }
            _ = m.match(url: String(decoding: mutated, as: UTF8.self), postBody: String(decoding: mutated, as: UTF8.self))
        }
    }

    func testAnEnormousURLIsNotOurs() throws {
        let url = "com.example.game:/oauth?state=s7At3&pad=" + String(repeating: "x", count: RedirectURL.maximumLength)
        XCTAssertEqual(try matcher().match(url: url), .notOurs)
    }
}

/// A small deterministic generator, so a failing fuzz round can be replayed.
struct SplitMix64 {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

final class FederatedRedirectErrorMappingTests: XCTestCase {
    func testAPageTheUserCancelledEndsTheFlowAsCancelled() {
        for code in ["auth/user-cancelled", "auth/web-context-cancelled", "auth/popup-closed-by-user"] {
            let error = RedirectErrorMapping.firebaseError(json: "{\"code\":\"\(code)\",\"message\":\"The app verification was cancelled.\"}")
            XCTAssertEqual(error.code, .webContextCancelled, code)
            XCTAssertEqual(error.message, "The app verification was cancelled.")
        }
    }
}
