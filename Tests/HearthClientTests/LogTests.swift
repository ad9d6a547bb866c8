import Dispatch
@testable import HearthAuth
@testable import HearthTransport
import XCTest

/// Collects what a sink hears (from any thread).
private final class Transcript: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [(LogLevel, String)] = []
    var all: [(LogLevel, String)] { lock.withLock { entries } }
    var messages: [String] { all.map(\.1) }
    func add(_ level: LogLevel, _ message: String) { lock.withLock { entries.append((level, message)) } }
    func sink(_ minimum: LogLevel) -> LogSink { LogSink(minimum: minimum) { self.add($0, $1) } }
}

final class LogRedactionTests: XCTestCase {
    func testURLsLoseEveryQueryValueAndTheFragment() {
        XCTAssertEqual(LogRedaction.url("https://identitytoolkit.googleapis.com/v1/accounts:signUp?key=AIzaSyExample"),
                       "https://identitytoolkit.googleapis.com/v1/accounts:signUp?key=<redacted>")
        XCTAssertEqual(LogRedaction.url("https://example.com/cb?state=abc&code=123456&flag#access_token=xyz"),
                       "https://example.com/cb?state=<redacted>&code=<redacted>&flag=<redacted>")
    }

    func testURLsWithoutAQueryStayAsTheyAre() {
        XCTAssertEqual(LogRedaction.url("http://127.0.0.1:9099/securetoken.googleapis.com/v1/token"),
                       "http://127.0.0.1:9099/securetoken.googleapis.com/v1/token")
    }

    func testLongOpaqueRunsAreReplacedButUidsAndWordsStayReadable() {
        let uid = "u2j2wGgTC2HBmSqawcBazN96e3rp" // 28 characters, as Firebase makes them
        XCTAssertEqual(LogRedaction.scrub("signed in as \(uid)"), "signed in as \(uid)")
        let jwt = "eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.eyJzdWIiOiJhYmMiLCJpYXQiOjE3MDAwMDAwMDB9."
        XCTAssertEqual(LogRedaction.scrub("token \(jwt) here"), "token <redacted>.<redacted>. here")
        let refreshToken = String(repeating: "AbC123_-", count: 8)
        XCTAssertEqual(LogRedaction.scrub("refresh=\(refreshToken)"), "refresh=<redacted>")
        XCTAssertEqual(LogRedaction.scrub("Ünïcode stays: ✓"), "Ünïcode stays: ✓")
    }

    func testTheValuesOfSecretsGoWhateverTheirLength() {
        XCTAssertEqual(LogRedaction.scrub(#"{"email":"a@b.c","password":"hunter2","returnSecureToken":true}"#),
                       #"{"email":"a@b.c","password":"<redacted>","returnSecureToken":true}"#)
        XCTAssertEqual(LogRedaction.scrub(#"{"sessionInfo": "s1", "code" : "123456"}"#),
                       #"{"sessionInfo": "<redacted>", "code" : "<redacted>"}"#)
        XCTAssertEqual(LogRedaction.scrub("id_token=abc&access_token=ya29.x&providerId=google.com"),
                       "id_token=<redacted>&access_token=<redacted>&providerId=google.com")
        XCTAssertEqual(LogRedaction.scrub("oauth_token_secret=s3cr3t; oauthAccessToken: short"),
                       "oauth_token_secret=<redacted>; oauthAccessToken: <redacted>")
        XCTAssertEqual(LogRedaction.scrub(#"{"refreshToken":"with \"escaped\" quotes","uid":"u1"}"#),
                       #"{"refreshToken":"<redacted>","uid":"u1"}"#)
        XCTAssertEqual(LogRedaction.scrub(#"{"idToken":"truncated"#), #"{"idToken":"<redacted>"#)
        let line = "POST http://h/v1/accounts:signUp?key=<redacted>: HTTP 200 in 3 ms"
        XCTAssertEqual(LogRedaction.scrub(line), line)
    }

    func testAnIdentityProvidersTokenEchoedInAServersErrorTextGoes() {
        // hearth-emulator's and Firebase's emulator's words for an id_token they cannot parse.
        XCTAssertEqual(
            LogRedaction.scrub("INVALID_IDP_RESPONSE : Unable to parse id_token: not-a-jwt-42 ((Auth Emulator only accepts strict JSON or JWTs as fake id_tokens.))"),
            "INVALID_IDP_RESPONSE : Unable to parse id_token: <redacted> ((Auth Emulator only accepts strict JSON or JWTs as fake id_tokens.))")
        XCTAssertEqual(LogRedaction.scrub(#"Unable to parse id_token: {"sub":"abc","email":"a@b.c"} ((x))"#),
                       "Unable to parse id_token: <redacted> ((x))")
    }

    func testAStandardBase64TokenGoesWholeNotPieceByPiece() {
        // 48 random bytes in standard base64: `+` and `/` cut it into pieces shorter than a uid.
        let token = "q7+Lm2/Xc9Pw+Tz4Rb8/Vn1Kd6Ey+Hs3Jf0Ua5/Gi7Wo2Qp9+Yt4Ze6Ar1Nb8Cx3Ml5Dv0Ok"
        XCTAssertEqual(LogRedaction.scrub("sent \(token) to the server"), "sent <redacted> to the server")
        XCTAssertEqual(LogRedaction.scrub("padded q7Lm2XcPwTz4Rb8Vn1Kd6EyHs3Jf0Ua5GiWo2Qp9YtZe6Ar1N=="),
                       "padded <redacted>")
        // Paths and prose with slashes stay.
        let path = "POST http://127.0.0.1:9099/identitytoolkit.googleapis.com/v1/projects/demo-hearth/accounts:lookup"
        XCTAssertEqual(LogRedaction.scrub(path), path)
        XCTAssertEqual(LogRedaction.scrub("read/write and input/output/everything/else/in/a/long/sentence"),
                       "read/write and input/output/everything/else/in/a/long/sentence")
    }

    func testWordsThatOnlyLookLikeNamesOfSecretsStay() {
        XCTAssertEqual(LogRedaction.scrub("the token expired; a code was sent"), "the token expired; a code was sent")
        XCTAssertEqual(LogRedaction.scrub("INVALID_CODE"), "INVALID_CODE")
        XCTAssertEqual(LogRedaction.scrub("barcode: 5"), "barcode: 5")
        // Error names longer than a uid are names, not tokens; a base32 secret of the same length is not.
        XCTAssertEqual(LogRedaction.scrub("HEARTH_ERROR_INVALID_VERIFICATION_CODE (INVALID_CODE)"),
                       "HEARTH_ERROR_INVALID_VERIFICATION_CODE (INVALID_CODE)")
        XCTAssertEqual(LogRedaction.scrub("secret JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXPJB"), "secret <redacted>")
    }
}

final class LogTests: XCTestCase {
    override func tearDown() {
        Log.setSink(nil)
        super.tearDown()
    }

    func testWithoutASinkNoMessageIsEvenBuilt() {
        Log.setSink(nil)
        var built = false
        Log.error({ built = true; return "never" }())
        XCTAssertFalse(built)
        XCTAssertFalse(Log.isEnabled(.error))
    }

    func testMessagesBelowTheMinimumAreNeitherBuiltNorDelivered() {
        let transcript = Transcript()
        Log.setSink(transcript.sink(.warning))
        var built = false
        Log.info({ built = true; return "quiet" }())
        Log.warning("loud")
        Log.error("louder")
        XCTAssertFalse(built)
        XCTAssertEqual(transcript.all.map(\.0), [.warning, .error])
        XCTAssertEqual(transcript.messages, ["loud", "louder"])
        XCTAssertTrue(Log.isEnabled(.warning))
        XCTAssertFalse(Log.isEnabled(.debug))
    }

    func testEveryDeliveredMessageIsScrubbed() {
        let transcript = Transcript()
        Log.setSink(transcript.sink(.debug))
        Log.debug("refresh token \(String(repeating: "x", count: 40)) sent")
        XCTAssertEqual(transcript.messages, ["refresh token <redacted> sent"])
    }

    func testLoggingFromInsideTheSinkIsDropped() {
        let transcript = Transcript()
        Log.setSink(LogSink(minimum: .debug) { level, message in
            transcript.add(level, message)
            Log.info("nested") // a Hearth call made by the host's callback
        })
        Log.info("outer")
        XCTAssertEqual(transcript.messages, ["outer"])
    }

    func testReplacingTheSinkFromInsideItDoesNotWaitForItself() {
        let transcript = Transcript()
        Log.setSink(LogSink(minimum: .debug) { level, message in
            transcript.add(level, message)
            Log.setSink(nil)
        })
        Log.info("first")
        Log.info("second")
        XCTAssertEqual(transcript.messages, ["first"])
    }

    func testReplacingTheSinkWaitsForADeliveryRunningOnAnotherThread() {
        let inside = DispatchSemaphore(value: 0)
        let finished = Locked(false)
        Log.setSink(LogSink(minimum: .debug) { _, _ in
            inside.signal()
            usleep(200_000)
            finished.withLock { $0 = true }
        })
        DispatchQueue.global().async { Log.info("slow") }
        XCTAssertEqual(inside.wait(timeout: .now() + 5), .success)
        Log.setSink(nil)
        XCTAssertTrue(finished.current, "setSink returned while the previous sink was still running")
    }
}
