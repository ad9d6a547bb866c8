@testable import HearthAuth
@testable import HearthBackend
import XCTest

final class TokenRefreshPolicyTests: XCTestCase {
    let policy = TokenRefreshPolicy()
    let minute: Int64 = 60_000

    func testACachedTokenIsUsedWhileMoreThanFiveMinutesRemain() {
        let tokens = TokenSet(idToken: "t", refreshToken: "r", expiresAtMs: 60 * minute)
        XCTAssertFalse(policy.needsRefresh(tokens, nowMs: 0))
        XCTAssertFalse(policy.needsRefresh(tokens, nowMs: 54 * minute))
        XCTAssertTrue(policy.needsRefresh(tokens, nowMs: 55 * minute))
        XCTAssertTrue(policy.needsRefresh(tokens, nowMs: 61 * minute))
    }

    func testAnUnknownExpiryAlwaysNeedsARefresh() {
        XCTAssertTrue(policy.needsRefresh(TokenSet(idToken: "t", refreshToken: "r", expiresAtMs: 0), nowMs: 1))
    }

    func testTheProactiveRefreshRunsFiveMinutesBeforeExpiry() {
        let tokens = TokenSet(idToken: "t", refreshToken: "r", expiresAtMs: 60 * minute)
        XCTAssertEqual(policy.proactiveDelayMs(tokens, nowMs: 0), 55 * minute)
        XCTAssertEqual(policy.proactiveDelayMs(tokens, nowMs: 58 * minute), 0)
    }

    func testBackoffDoublesFromThirtySecondsToSixteenMinutes() {
        let waits = (1...8).map { policy.backoffMs(attempt: $0, jitter: 0) }
        XCTAssertEqual(waits, [30_000, 60_000, 120_000, 240_000, 480_000, 960_000, 960_000, 960_000])
    }

    func testJitterStaysWithinTenPercentAndNeverExceedsTheCap() {
        XCTAssertEqual(policy.backoffMs(attempt: 1, jitter: 1), 33_000)
        XCTAssertEqual(policy.backoffMs(attempt: 1, jitter: -1), 27_000)
        XCTAssertEqual(policy.backoffMs(attempt: 20, jitter: 1), 960_000)
        XCTAssertEqual(policy.backoffMs(attempt: 1000, jitter: 0), 960_000)
    }

    func testPermanentRefreshFailuresAreRecognised() {
        for code in ["USER_NOT_FOUND", "USER_DISABLED", "TOKEN_EXPIRED", "INVALID_REFRESH_TOKEN"] {
            XCTAssertTrue(AuthError(code: .failure, serverCode: code).isPermanentSessionFailure, code)
        }
        XCTAssertFalse(AuthError(code: .networkRequestFailed).isPermanentSessionFailure)
        XCTAssertFalse(AuthError(code: .tooManyRequests, serverCode: "TOO_MANY_ATTEMPTS_TRY_LATER").isPermanentSessionFailure)
    }
}
