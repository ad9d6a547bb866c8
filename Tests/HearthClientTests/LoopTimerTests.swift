import CLibUV
import Foundation
@testable import HearthTransport
import XCTest

/// `LoopTimer`, exercised on a host loop the test runs (so every step is deterministic). Like a
/// real host's, the loop has a ref'd handle of its own: Hearth's timers are unref'd, and libuv does
/// not run a loop that nothing keeps alive.
final class LoopTimerTests: XCTestCase {
    private var host: HostLoop!
    private var loop: EventLoop!

    override func setUpWithError() throws {
        host = HostLoop()
        host.startOwnActivity()
        loop = try EventLoop.borrowing(host.raw)
    }

    override func tearDown() {
        loop.shutdown()
        host.stopOwnActivity()
        host.run(UV_RUN_NOWAIT)
        XCTAssertEqual(host.close(), 0)
        loop = nil
        host = nil
    }

    func testOneShotTimerFiresOnceAfterItsDelay() {
        let timer = loop.makeTimer()
        var fired: [Date] = []
        let started = Date()
        timer.start(afterMs: 30) { fired.append(Date()) }
        XCTAssertTrue(timer.isActive)
        XCTAssertTrue(host.spin { !fired.isEmpty })
        XCTAssertGreaterThanOrEqual(fired.first?.timeIntervalSince(started) ?? 0, 0.029)
        XCTAssertFalse(timer.isActive)
        usleep(50_000)
        host.run(UV_RUN_NOWAIT)
        XCTAssertEqual(fired.count, 1)
    }

    func testRepeatingTimerFiresUntilStopped() {
        let timer = loop.makeTimer()
        var count = 0
        timer.start(afterMs: 1, repeatMs: 1) {
            count += 1
            if count == 3 { timer.stop() }
        }
        XCTAssertTrue(host.spin { count == 3 })
        XCTAssertFalse(timer.isActive)
        usleep(20_000)
        host.run(UV_RUN_NOWAIT)
        XCTAssertEqual(count, 3)
    }

    func testStoppedTimerNeverFires() {
        let timer = loop.makeTimer()
        timer.start(afterMs: 1) { XCTFail("stopped timer fired") }
        timer.stop()
        XCTAssertFalse(timer.isActive)
        usleep(20_000)
        host.run(UV_RUN_NOWAIT)
    }

    func testRestartingReplacesTheCallbackAndSchedule() {
        let timer = loop.makeTimer()
        var fired: [String] = []
        timer.start(afterMs: 1) { fired.append("first") }
        timer.start(afterMs: 5) { fired.append("second") }
        XCTAssertTrue(host.spin { !fired.isEmpty })
        XCTAssertEqual(fired, ["second"])
    }

    func testCallbackMayRestartItsOwnTimer() {
        let timer = loop.makeTimer()
        var count = 0
        func arm() {
            timer.start(afterMs: 1) {
                count += 1
                if count < 3 { arm() }
            }
        }
        arm()
        XCTAssertTrue(host.spin { count == 3 })
        XCTAssertFalse(timer.isActive)
    }

    func testCallbackMayCloseItsOwnTimer() {
        let timer = loop.makeTimer()
        var count = 0
        timer.start(afterMs: 1, repeatMs: 1) {
            count += 1
            timer.close()
        }
        XCTAssertTrue(host.spin { count == 1 })
        usleep(10_000)
        host.run(UV_RUN_NOWAIT)
        XCTAssertEqual(count, 1)
    }

    func testClosedTimerIgnoresStart() {
        let timer = loop.makeTimer()
        timer.close()
        timer.close()
        timer.start(afterMs: 0) { XCTFail("closed timer fired") }
        XCTAssertFalse(timer.isActive)
        usleep(5_000)
        host.run(UV_RUN_NOWAIT)
    }

    func testTimerMadeAfterShutdownIsInert() {
        loop.shutdown()
        let timer = loop.makeTimer()
        timer.start(afterMs: 0) { XCTFail("inert timer fired") }
        XCTAssertFalse(timer.isActive)
        host.run(UV_RUN_NOWAIT)
    }

    func testPendingTimerDoesNotKeepTheHostLoopRunning() {
        host.stopOwnActivity()
        let timer = loop.makeTimer()
        var fired = false
        timer.start(afterMs: 200) { fired = true }
        let started = Date()
        host.run(UV_RUN_DEFAULT)
        XCTAssertLessThan(Date().timeIntervalSince(started), TestTiming.limit(0.15))
        XCTAssertFalse(fired)
        XCTAssertTrue(timer.isActive)
    }
}
