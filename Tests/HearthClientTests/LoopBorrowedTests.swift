import CLibUV
import Foundation
@testable import HearthTransport
import XCTest

/// A `uv_loop_t` the test plays host for: it runs the loop itself.
final class HostLoop {
    let raw: UnsafeMutablePointer<uv_loop_t>
    private var keepAlive: UnsafeMutablePointer<uv_timer_t>?

    init() {
        raw = .allocate(capacity: 1)
        precondition(uv_loop_init(raw) == 0)
    }

    deinit { raw.deallocate() }

    @discardableResult
    func run(_ mode: uv_run_mode) -> Int32 { uv_run(raw, mode) }

    func close() -> Int32 { uv_loop_close(raw) }

    /// A ref'd repeating timer of the host's own, as a real host's loop would have.
    func startOwnActivity() {
        let timer = UnsafeMutablePointer<uv_timer_t>.allocate(capacity: 1)
        uv_timer_init(raw, timer)
        uv_timer_start(timer, { _ in }, 5, 5)
        keepAlive = timer
    }

    func stopOwnActivity() {
        guard let timer = keepAlive else { return }
        keepAlive = nil
        uv_close(UnsafeMutableRawPointer(timer).assumingMemoryBound(to: uv_handle_t.self)) { handle in
            UnsafeMutableRawPointer(handle)?.assumingMemoryBound(to: uv_timer_t.self).deallocate()
        }
    }

    /// Runs NOWAIT turns until `condition` holds (or 5 s pass).
    func spin(until condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(5)
        while !condition() && Date() < deadline {
            run(UV_RUN_NOWAIT)
            usleep(1_000)
        }
        return condition()
    }
}

/// `EventLoop.borrowing(_:)`: the host's loop, no threads of Hearth's own.
final class LoopBorrowedTests: XCTestCase {
    func testWorkRunsOnlyInsideTheHostsUvRunOnTheHostThread() throws {
        let host = HostLoop()
        let loop = try EventLoop.borrowing(host.raw)
        XCTAssertFalse(loop.isOwned)
        XCTAssertTrue(loop.isLoopThread)
        let ran = Recorder<Bool>()
        XCTAssertTrue(loop.execute { ran.append(loop.isLoopThread) })
        XCTAssertEqual(ran.count, 0, "work ran inside execute")
        host.run(UV_RUN_NOWAIT)
        XCTAssertEqual(ran.values, [true])
        loop.shutdown()
        host.run(UV_RUN_NOWAIT)
        XCTAssertEqual(host.close(), 0)
    }

    func testBorrowingCreatesNoThreads() throws {
        let before = processThreadIDs()
        let host = HostLoop()
        host.startOwnActivity()
        let loop = try EventLoop.borrowing(host.raw)
        var fired = false
        loop.makeTimer().start(afterMs: 1) { fired = true }
        var worked = false
        loop.execute { worked = true }
        XCTAssertTrue(host.spin { fired && worked })
        loop.shutdown()
        host.stopOwnActivity()
        host.run(UV_RUN_NOWAIT)
        XCTAssertEqual(host.close(), 0)
        let new = processThreadIDs().subtracting(before)
        XCTAssertEqual(new, [], "new threads: \(new.map(threadName))")
    }

    func testHostsUvRunDefaultReturnsWhileHearthIsIdle() throws {
        let host = HostLoop()
        let loop = try EventLoop.borrowing(host.raw)
        // A pending Hearth timer is idle Hearth: it must not keep the host's loop running.
        let timer = loop.makeTimer()
        timer.start(afterMs: 60_000) { XCTFail("timer fired") }
        let started = Date()
        XCTAssertEqual(host.run(UV_RUN_DEFAULT), 0)
        XCTAssertLessThan(Date().timeIntervalSince(started), TestTiming.limit(1))
        XCTAssertTrue(timer.isActive)
        loop.shutdown()
        host.run(UV_RUN_NOWAIT)
        XCTAssertEqual(host.close(), 0)
    }

    func testHostsUvRunDefaultRunsWorkQueuedOnTheLoopThreadThenReturns() throws {
        let host = HostLoop()
        let loop = try EventLoop.borrowing(host.raw)
        var order: [Int] = []
        loop.execute {
            order.append(1)
            loop.execute { order.append(2) }
        }
        XCTAssertEqual(host.run(UV_RUN_DEFAULT), 0)
        XCTAssertEqual(order, [1, 2])
        loop.shutdown()
        host.run(UV_RUN_NOWAIT)
        XCTAssertEqual(host.close(), 0)
    }

    func testWorkFromAnotherThreadRunsOnTheHostsNextUvRun() throws {
        let host = HostLoop()
        host.startOwnActivity()
        let loop = try EventLoop.borrowing(host.raw)
        let ranOnHostThread = Recorder<Bool>()
        let hostThread = pthread_self()
        let posted = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            loop.execute { ranOnHostThread.append(pthread_equal(pthread_self(), hostThread) != 0) }
            posted.signal()
        }
        XCTAssertEqual(posted.wait(timeout: .now() + 5), .success)
        XCTAssertEqual(ranOnHostThread.count, 0)
        host.run(UV_RUN_ONCE)
        XCTAssertEqual(ranOnHostThread.values, [true])
        loop.shutdown()
        host.stopOwnActivity()
        host.run(UV_RUN_NOWAIT)
        XCTAssertEqual(host.close(), 0)
    }

    func testShutdownOnTheHostThreadRunsFinalInlineAndTheLoopClosesAfterOneMoreRun() throws {
        let host = HostLoop()
        let loop = try EventLoop.borrowing(host.raw)
        let timer = loop.makeTimer()
        timer.start(afterMs: 1_000) { XCTFail("timer fired after shutdown") }
        var events: [String] = []
        loop.execute { events.append("dropped work ran") }
        loop.shutdown(final: { events.append("final on loop thread: \(loop.isLoopThread)") })
        XCTAssertEqual(events, ["final on loop thread: true"])
        XCTAssertFalse(loop.execute { events.append("late work ran") })
        XCTAssertFalse(timer.isActive)
        // uv_close is asynchronous: the host's loop must turn once more.
        XCTAssertEqual(host.close(), UV_EBUSY.rawValue)
        host.run(UV_RUN_NOWAIT)
        XCTAssertEqual(host.close(), 0)
        XCTAssertEqual(events, ["final on loop thread: true"])
    }

    func testShutdownInsideAHearthCallbackRunsInline() throws {
        let host = HostLoop()
        let loop = try EventLoop.borrowing(host.raw)
        var events: [String] = []
        loop.execute {
            loop.execute { events.append("queued work ran") }
            loop.shutdown(final: { events.append("final") })
            events.append("shutdown returned")
        }
        XCTAssertEqual(host.run(UV_RUN_DEFAULT), 0)
        XCTAssertEqual(events, ["final", "shutdown returned"])
        XCTAssertEqual(host.close(), 0)
    }

    func testShutdownFromAnotherThreadReturnsAtOnceAndCompletesOnTheNextUvRun() throws {
        let host = HostLoop()
        host.startOwnActivity()
        let loop = try EventLoop.borrowing(host.raw)
        let events = Recorder<String>()
        loop.execute { events.append("dropped work ran") }
        let hostThread = pthread_self()
        let returned = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            loop.shutdown(final: { events.append("final on host thread: \(pthread_equal(pthread_self(), hostThread) != 0)") })
            returned.signal()
        }
        XCTAssertEqual(returned.wait(timeout: .now() + 5), .success, "shutdown waited for the host")
        XCTAssertEqual(events.count, 0)
        XCTAssertFalse(loop.execute { events.append("late work ran") })
        host.run(UV_RUN_ONCE)
        XCTAssertEqual(events.values, ["final on host thread: true"])
        host.stopOwnActivity()
        host.run(UV_RUN_NOWAIT)
        XCTAssertEqual(host.close(), 0)
    }

    func testUvRunDoesNothingOnABareLoopSoCrossThreadWorkWaitsForLiveness() throws {
        // libuv's rule the documentation rests on: with no ref'd active handle, uv_run returns at
        // once in every mode. Work posted from another thread then waits for a live loop.
        let host = HostLoop()
        let loop = try EventLoop.borrowing(host.raw)
        let ran = Recorder<Bool>()
        let posted = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            loop.execute { ran.append(true) }
            posted.signal()
        }
        XCTAssertEqual(posted.wait(timeout: .now() + 5), .success)
        host.run(UV_RUN_NOWAIT)
        host.run(UV_RUN_DEFAULT)
        XCTAssertEqual(ran.count, 0)
        host.startOwnActivity()
        host.run(UV_RUN_ONCE)
        XCTAssertEqual(ran.count, 1)
        loop.shutdown()
        host.stopOwnActivity()
        host.run(UV_RUN_NOWAIT)
        XCTAssertEqual(host.close(), 0)
    }

    func testIdleHandlesKeepLoopAliveLetsCrossThreadWorkAndTimersRunOnABareLoop() throws {
        let host = HostLoop()
        let loop = try EventLoop.borrowing(host.raw, idleHandlesKeepLoopAlive: true)
        XCTAssertTrue(loop.idleHandlesKeepLoopAlive)
        var fired = false
        loop.makeTimer().start(afterMs: 1) { fired = true }
        let ran = Recorder<Bool>()
        let posted = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            loop.execute { ran.append(true) }
            posted.signal()
        }
        XCTAssertEqual(posted.wait(timeout: .now() + 5), .success)
        XCTAssertTrue(host.spin { fired && ran.count == 1 })
        loop.shutdown()
        // Once Hearth has shut down nothing of it keeps the loop alive.
        XCTAssertEqual(host.run(UV_RUN_DEFAULT), 0)
        XCTAssertEqual(host.close(), 0)
    }

    func testIsLoopThreadIsFalseOnOtherThreads() throws {
        let host = HostLoop()
        let loop = try EventLoop.borrowing(host.raw)
        let elsewhere = Recorder<Bool>()
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            elsewhere.append(loop.isLoopThread)
            done.signal()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 5), .success)
        XCTAssertEqual(elsewhere.values, [false])
        XCTAssertTrue(loop.isLoopThread)
        loop.shutdown()
        host.run(UV_RUN_NOWAIT)
        XCTAssertEqual(host.close(), 0)
    }
}
