import Dispatch
import XCTest
@testable import HearthCore

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
