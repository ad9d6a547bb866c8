import CLibUV
import Foundation
@testable import HearthAuth
@testable import HearthBackend
@testable import HearthTransport
import XCTest

/// The loopback receiver on a loop the test runs itself (`EventLoop.borrowing`), as a game engine
/// would: everything happens inside the host's `uv_run`, on the host's thread.
final class FederatedLoopbackReceiverHostLoopTests: XCTestCase {
    /// Runs the host's loop (NOWAIT turns) for `seconds`.
    private func runTurns(_ host: HostLoop, seconds: Double) {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            host.run(UV_RUN_NOWAIT)
            usleep(1_000)
        }
    }

    func testTheRedirectIsServedInsideTheHostsUvRunOnTheHostsThread() throws {
        let host = HostLoop()
        host.startOwnActivity()
        let loop = try EventLoop.borrowing(host.raw)
        let results = Recorder<Result<RedirectResponse, AuthError>>()
        let threads = Recorder<String>()
        let receiver = try LoopbackRedirectReceiver.start(on: loop, expectedState: "s") { result in
            threads.append(currentThreadID())
            results.append(result)
        }
        let port = receiver.port
        let response = Recorder<Int>()
        Thread.detachNewThread {
            response.append(federatedGet(port: port, "/__/auth/callback?state=s&code=c")?.status ?? -1)
        }
        XCTAssertTrue(host.spin { results.count == 1 && response.count == 1 })
        XCTAssertEqual(response.values, [200])
        guard case .success(let redirect)? = results.values.first else { return XCTFail("\(results.values)") }
        XCTAssertEqual(redirect.url, "http://127.0.0.1:\(port)/__/auth/callback?state=s&code=c")
        XCTAssertEqual(threads.values, [currentThreadID()])

        loop.shutdown()
        host.stopOwnActivity()
        host.run(UV_RUN_NOWAIT)
        XCTAssertEqual(host.close(), 0, "a uv handle was left open")
    }

    func testAWaitingReceiverDoesNotKeepTheHostsDefaultRunAlive() throws {
        let host = HostLoop()
        let loop = try EventLoop.borrowing(host.raw)
        let results = Recorder<Result<RedirectResponse, AuthError>>()
        let receiver = try LoopbackRedirectReceiver.start(on: loop, expectedState: "s") { results.append($0) }
        XCTAssertTrue(receiver.isWaiting)
        XCTAssertEqual(uv_loop_alive(host.raw), 0, "an idle receiver must not pin the host's loop")
        let started = Date()
        host.run(UV_RUN_DEFAULT)
        XCTAssertLessThan(Date().timeIntervalSince(started), TestTiming.limit(1))
        XCTAssertTrue(receiver.isWaiting)

        receiver.cancel()
        XCTAssertEqual(results.count, 1)
        loop.shutdown()
        host.run(UV_RUN_NOWAIT)
        XCTAssertEqual(host.close(), 0)
    }

    func testOnAHostLoopBorrowedToKeepHandlesAliveTheWaitingReceiverKeepsItRunning() throws {
        let host = HostLoop()
        let loop = try EventLoop.borrowing(host.raw, idleHandlesKeepLoopAlive: true)
        let results = Recorder<Result<RedirectResponse, AuthError>>()
        var options = LoopbackRedirectReceiver.Options()
        options.timeoutMs = 300
        let receiver = try LoopbackRedirectReceiver.start(on: loop, expectedState: "s", options: options) {
            results.append($0)
            loop.shutdown()
        }
        // Nothing but Hearth on this loop: uv_run(DEFAULT) waits for the timeout, then returns once
        // the completion shut Hearth down.
        let started = Date()
        host.run(UV_RUN_DEFAULT)
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertGreaterThanOrEqual(elapsed, 0.25)
        XCTAssertLessThan(elapsed, TestTiming.limit(3))
        XCTAssertEqual(results.count, 1)
        XCTAssertFalse(receiver.isWaiting)
        XCTAssertEqual(host.close(), 0)
    }

    func testAnAcceptedRequestIsSeenThroughByTheHostsDefaultRunWhichThenReturns() throws {
        let host = HostLoop()
        host.startOwnActivity()
        let loop = try EventLoop.borrowing(host.raw)
        let results = Recorder<Result<RedirectResponse, AuthError>>()
        let receiver = try LoopbackRedirectReceiver.start(on: loop, expectedState: "s") { results.append($0) }
        let port = receiver.port
        let socket = try FederatedTestSocket.connect(port: port).get()
        socket.send("GET /__/auth/callback?state=s&code=c HTTP/1.1\r\n")
        runTurns(host, seconds: 0.1) // accepted and partly read
        host.stopOwnActivity()
        host.run(UV_RUN_NOWAIT)
        XCTAssertNotEqual(uv_loop_alive(host.raw), 0, "a connection in progress keeps the loop alive")

        let status = Recorder<Int>()
        Thread.detachNewThread {
            usleep(100_000)
            socket.send("Host: 127.0.0.1:\(port)\r\n\r\n")
            status.append(FederatedTestResponse(socket.readToEnd())?.status ?? -1)
            socket.close()
        }
        // A watchdog that cannot keep the loop alive itself: if something stays ref'd, uv_run
        // would never return; the watchdog stops it and the elapsed time fails the test.
        let watchdog = UnsafeMutablePointer<uv_timer_t>.allocate(capacity: 1)
        uv_timer_init(host.raw, watchdog)
        uv_timer_start(watchdog, { timer in uv_stop(timer?.pointee.loop) }, 8_000, 0)
        uv_unref(UnsafeMutableRawPointer(watchdog).assumingMemoryBound(to: uv_handle_t.self))
        let started = Date()
        host.run(UV_RUN_DEFAULT)
        XCTAssertLessThan(Date().timeIntervalSince(started), TestTiming.limit(7), "uv_run(DEFAULT) did not return after the exchange")
        XCTAssertEqual(results.count, 1)
        XCTAssertTrue(eventually(within: 2) { status.count == 1 })
        XCTAssertEqual(status.values, [200])

        uv_close(UnsafeMutableRawPointer(watchdog).assumingMemoryBound(to: uv_handle_t.self)) { handle in
            UnsafeMutableRawPointer(handle)?.deallocate()
        }
        loop.shutdown()
        host.run(UV_RUN_NOWAIT)
        XCTAssertEqual(host.close(), 0)
    }

    func testShuttingDownTheHostLoopWhileWaitingClosesEveryHandleWithoutCompleting() throws {
        let host = HostLoop()
        host.startOwnActivity()
        let loop = try EventLoop.borrowing(host.raw)
        let results = Recorder<Result<RedirectResponse, AuthError>>()
        var receiver: LoopbackRedirectReceiver? = try LoopbackRedirectReceiver.start(on: loop, expectedState: "s") {
            results.append($0)
        }
        weak let released = receiver
        let port = try XCTUnwrap(receiver?.port)
        let midRequest = try FederatedTestSocket.connect(port: port).get()
        midRequest.send("GET /__/auth/callback?state=s HTTP/1.1\r\n")
        runTurns(host, seconds: 0.1)

        loop.shutdown()
        XCTAssertTrue(federatedConnectionRefused(port: port))
        host.stopOwnActivity()
        host.run(UV_RUN_NOWAIT)
        XCTAssertEqual(host.close(), 0, "a uv handle was left open")
        XCTAssertTrue(midRequest.peerClosed(within: 2))
        XCTAssertEqual(results.count, 0)
        receiver?.cancel() // after shutdown: must not complete either
        XCTAssertEqual(results.count, 0)
        receiver = nil
        XCTAssertNil(released)
    }
}
