@testable import HearthAuth
import HearthBackend
import XCTest

/// Who waits for a token refresh: one refresh per session generation, its waiters answered in order.
final class AuthRefreshWaitersTests: XCTestCase {
    func testTheFirstWaiterStartsARefreshAndLaterOnesJoinIt() {
        var waiters = RefreshWaiters()
        XCTAssertFalse(waiters.isRunning(1))
        XCTAssertFalse(waiters.add({ _ in }, for: 1), "the first waiter starts the refresh")
        XCTAssertTrue(waiters.isRunning(1))
        XCTAssertTrue(waiters.add({ _ in }, for: 1))
        XCTAssertTrue(waiters.add({ _ in }, for: 1))
        XCTAssertFalse(waiters.isRunning(2))
    }

    func testEveryWaiterIsAnsweredOnceInTheOrderTheyCame() throws {
        var waiters = RefreshWaiters()
        var answered: [String] = []
        for name in ["a", "b", "c"] {
            _ = waiters.add({ result in answered.append(name + ((try? result.get()) ?? "?")) }, for: 7)
        }
        try XCTUnwrap(waiters.take(7)).answer(.success("-token"))
        XCTAssertEqual(answered, ["a-token", "b-token", "c-token"])
        XCTAssertFalse(waiters.isRunning(7))
        XCTAssertNil(waiters.take(7), "answered once")
    }

    func testARefreshForOneUserNeverAnswersAnother() throws {
        var waiters = RefreshWaiters()
        var answered: [UInt64] = []
        _ = waiters.add({ _ in answered.append(1) }, for: 1)
        _ = waiters.add({ _ in answered.append(2) }, for: 2)
        try XCTUnwrap(waiters.take(2)).answer(.success("t"))
        XCTAssertEqual(answered, [2])
        XCTAssertTrue(waiters.isRunning(1))
    }

    func testAProactiveRefreshHasNoWaiterUntilOneJoins() throws {
        var waiters = RefreshWaiters()
        waiters.start(3)
        XCTAssertTrue(waiters.isRunning(3))
        var answered = 0
        XCTAssertTrue(waiters.add({ _ in answered += 1 }, for: 3), "joins the running refresh")
        try XCTUnwrap(waiters.take(3)).answer(.success("t"))
        XCTAssertEqual(answered, 1)
    }

    func testAWaiterThatAsksAgainStartsANewRefresh() throws {
        var waiters = RefreshWaiters()
        var startedAgain: Bool?
        _ = waiters.add({ _ in }, for: 1)
        let refresh = try XCTUnwrap(waiters.take(1))
        refresh.answer(.success("t"))
        startedAgain = !waiters.add({ _ in }, for: 1)
        XCTAssertEqual(startedAgain, true)
    }

    func testTakingAllEndsEveryRefresh() {
        var waiters = RefreshWaiters()
        var cancelled = 0
        _ = waiters.add({ if case .failure = $0 { cancelled += 1 } }, for: 1)
        _ = waiters.add({ if case .failure = $0 { cancelled += 1 } }, for: 1)
        _ = waiters.add({ if case .failure = $0 { cancelled += 1 } }, for: 2)
        for refresh in waiters.takeAll() { refresh.answer(.failure(AuthError(code: .cancelled))) }
        XCTAssertEqual(cancelled, 3)
        XCTAssertFalse(waiters.isRunning(1))
        XCTAssertFalse(waiters.isRunning(2))
    }
}
