import CLibUV
import Foundation
@testable import HearthTransport
import XCTest

/// `CurlTransport` on a borrowed loop that the test runs as the host: requests complete inside the
/// host's `uv_run`, no thread is created for IP literals, and idle Hearth lets `uv_run` return.
final class TransportHostLoopTests: XCTestCase {
    private var server: TestHTTPServer!
    private var host: HostLoop!
    private var loop: EventLoop!
    private var transport: CurlTransport!

    override func setUpWithError() throws {
        server = try TestHTTPServer()
        host = HostLoop()
        loop = try EventLoop.borrowing(host.raw)
        transport = try CurlTransport(loop: loop, options: .init())
    }

    override func tearDown() {
        let transport = self.transport
        loop.shutdown(final: { transport?.close() })
        self.transport = nil
        host.run(UV_RUN_NOWAIT)
        XCTAssertEqual(host.close(), 0)
        loop = nil
        host = nil
        server.stop()
        server = nil
    }

    func testRequestsCompleteInsideTheHostsUvRunDefaultWhichThenReturns() {
        var completions: [Int] = []
        for index in 0..<3 {
            transport.send(HTTPRequest(url: server.url("/echo"), body: Array("\(index)".utf8))) { result in
                XCTAssertTrue(self.loop.isLoopThread)
                completions.append((try? result.get().status) ?? -1)
            }
        }
        XCTAssertEqual(completions, [], "completed inside send")
        let started = Date()
        // Nothing but Hearth's in-flight requests keeps this loop alive.
        XCTAssertEqual(host.run(UV_RUN_DEFAULT), 0)
        XCTAssertEqual(completions, [200, 200, 200])
        XCTAssertLessThan(Date().timeIntervalSince(started), TestTiming.limit(5))
        // Idle keep-alive connections do not pin the loop.
        let again = Date()
        XCTAssertEqual(host.run(UV_RUN_DEFAULT), 0)
        XCTAssertLessThan(Date().timeIntervalSince(again), TestTiming.limit(0.5))
    }

    func testATimeoutFiresInsideTheHostsUvRunDefault() {
        var result: TransportResult?
        transport.send(HTTPRequest(method: "GET", url: server.url("/stall?ms=5000"), timeoutMs: 200)) { result = $0 }
        let started = Date()
        host.run(UV_RUN_DEFAULT)
        guard case .failure(.timedOut)? = result else {
            return XCTFail("expected .timedOut, got \(String(describing: result))")
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), TestTiming.limit(2.5))
    }

    func testRequestsToAnIPLiteralCreateNoThreads() {
        // The server and curl's one-time setup run first; only the requests are measured.
        let before = processThreadIDs()
        var statuses: [Int] = []
        for _ in 0..<5 {
            transport.send(HTTPRequest(url: server.url("/echo"))) { statuses.append((try? $0.get().status) ?? -1) }
        }
        host.run(UV_RUN_DEFAULT)
        transport.send(HTTPRequest(method: "GET", url: server.url("/stall?ms=5000"), timeoutMs: 50)) { _ in statuses.append(0) }
        host.run(UV_RUN_DEFAULT)
        XCTAssertEqual(statuses, [200, 200, 200, 200, 200, 0])
        let new = processThreadIDs().subtracting(before)
        XCTAssertEqual(new, [], "new threads: \(new.map(threadName))")
    }

    func testCancelOnTheHostLoopCompletesOnALaterTurn() {
        var result: TransportResult?
        let id = transport.send(HTTPRequest(method: "GET", url: server.url("/delay?ms=2000"))) { result = $0 }
        host.run(UV_RUN_NOWAIT)
        transport.cancel(id)
        XCTAssertNil(result)
        let started = Date()
        host.run(UV_RUN_DEFAULT)
        XCTAssertEqual(result, .failure(.cancelled))
        XCTAssertLessThan(Date().timeIntervalSince(started), TestTiming.limit(1))
    }

    func testShutdownWithRequestsInFlightRunsNoCompletionAndLetsTheHostCloseItsLoop() {
        var completions = 0
        for _ in 0..<3 {
            transport.send(HTTPRequest(method: "GET", url: server.url("/delay?ms=100"))) { _ in completions += 1 }
        }
        host.run(UV_RUN_NOWAIT)
        let transport = self.transport
        loop.shutdown(final: { transport?.close() })
        host.run(UV_RUN_NOWAIT)
        XCTAssertEqual(host.close(), 0)
        usleep(200_000)
        XCTAssertEqual(completions, 0)
        // tearDown's second shutdown and close are no-ops on a closed loop.
        host = HostLoop()
    }
}
