import CLibUV
import Foundation
@testable import HearthAuth
@testable import HearthBackend
@testable import HearthTransport
import HearthWire
import XCTest

/// `ProviderFlowRegistry` and `PendingProviderFlow`: the one provider sign-in an Auth waits on. The
/// test thread plays host and runs the loop, so it is the loop thread throughout.
final class FederatedProviderFlowRegistryTests: XCTestCase {
    private var host: HostLoop!
    private var loop: EventLoop!
    private var registry: ProviderFlowRegistry!
    private let results = Recorder<Result<RedirectResponse, AuthError>>()

    override func setUpWithError() throws {
        host = HostLoop()
        host.startOwnActivity()
        loop = try EventLoop.borrowing(host.raw)
        registry = ProviderFlowRegistry(loop: loop)
    }

    override func tearDown() {
        registry.shutdown()
        loop.shutdown()
        host.stopOwnActivity()
        host.run(UV_RUN_NOWAIT)
        XCTAssertEqual(host.close(), 0, "a uv handle was left open")
        super.tearDown()
    }

    private var record: PendingProviderFlow.Completion {
        { [results] in results.append($0) }
    }

    private func beginCustomScheme(state: String? = "st4te", timeoutMs: UInt64? = ProviderFlowRegistry.defaultTimeoutMs)
        throws -> PendingProviderFlow {
        try registry.beginRedirect(to: "com.example.game:/oauth", state: state, timeoutMs: timeoutMs, completion: record)
    }

    private func error(_ result: Result<RedirectResponse, AuthError>?, file: StaticString = #filePath,
                       line: UInt = #line) -> AuthError? {
        guard case .failure(let error)? = result else {
            XCTFail("expected an error, got \(String(describing: result))", file: file, line: line)
            return nil
        }
        return error
    }

    // MARK: Custom URL schemes

    func testAHandedOverRedirectCompletesTheFlowAndEndsIt() throws {
        let flow = try beginCustomScheme()
        XCTAssertTrue(registry.pending === flow)
        XCTAssertEqual(flow.redirectTarget, "com.example.game:/oauth")
        XCTAssertNil(flow.receiver)
        let url = "com.example.game:/oauth?code=c0de&state=st4te"
        XCTAssertEqual(registry.handle(url: url), .consumed(RedirectResponse(url: url)))
        XCTAssertEqual(results.count, 1)
        guard case .success(let redirect)? = results.values.first else { return XCTFail("\(results.values)") }
        XCTAssertEqual(redirect, RedirectResponse(url: url))
        XCTAssertNil(registry.pending)
        XCTAssertFalse(flow.isPending)
        // Replayed: nobody waits any more.
        XCTAssertEqual(registry.handle(url: url), .notOurs)
        XCTAssertEqual(results.count, 1)
    }

    func testOtherURLsAndWrongStatesLeaveTheFlowWaiting() throws {
        let flow = try beginCustomScheme()
        XCTAssertEqual(registry.handle(url: "com.example.other:/oauth?state=st4te"), .notOurs)
        XCTAssertEqual(registry.handle(url: "garbage \u{0} text"), .notOurs)
        guard case .rejected(let error) = registry.handle(url: "com.example.game:/oauth?code=c&state=old") else {
            return XCTFail("a wrong state must be rejected")
        }
        XCTAssertEqual(error.code, .invalidArgument)
        XCTAssertTrue(flow.isPending)
        XCTAssertEqual(results.count, 0)
    }

    func testAnIdPErrorCarriedByTheRedirectEndsTheFlowWithIt() throws {
        _ = try beginCustomScheme()
        guard case .failed = registry.handle(url: "com.example.game:/oauth?error=access_denied&state=st4te") else {
            return XCTFail("expected the flow to fail")
        }
        XCTAssertEqual(error(results.values.first)?.code, .webContextCancelled)
        XCTAssertNil(registry.pending)
    }

    func testWithoutAPendingFlowNoURLIsOurs() {
        XCTAssertEqual(registry.handle(url: "com.example.game:/oauth?state=st4te"), .notOurs)
    }

    func testTheStateMayBeSetOnceKnown() throws {
        let flow = try beginCustomScheme(state: nil)
        guard case .rejected = registry.handle(url: "com.example.game:/oauth?state=x") else { return XCTFail() }
        flow.expectedState = "x"
        guard case .consumed = registry.handle(url: "com.example.game:/oauth?state=x") else { return XCTFail() }
        XCTAssertEqual(results.count, 1)
    }

    func testAnInvalidRedirectTargetOrTimeoutIsRefused() {
        XCTAssertThrowsError(try registry.beginRedirect(to: "not a url", state: "s", completion: record)) { error in
            XCTAssertEqual((error as? AuthError)?.code, .invalidArgument)
        }
        XCTAssertThrowsError(try registry.beginRedirect(to: "app:/cb", state: "s", timeoutMs: 0, completion: record)) { error in
            XCTAssertEqual((error as? AuthError)?.code, .invalidArgument)
        }
        XCTAssertNil(registry.pending)
    }

    // MARK: One flow at a time

    func testASecondFlowWhilOneIsPendingFailsWithWebContextAlreadyPresented() throws {
        let first = try beginCustomScheme()
        XCTAssertThrowsError(try registry.beginRedirect(to: "other:/cb", state: "s", completion: record)) { error in
            XCTAssertEqual((error as? AuthError)?.code, .webContextAlreadyPresented)
            XCTAssertEqual((error as? AuthError)?.code.rawValue, 55)
        }
        XCTAssertThrowsError(try registry.beginLoopback(state: "s", completion: record)) { error in
            XCTAssertEqual((error as? AuthError)?.code, .webContextAlreadyPresented)
        }
        XCTAssertTrue(registry.pending === first)
        XCTAssertTrue(first.isPending)
        XCTAssertEqual(results.count, 0)
    }

    func testCancelCompletesWithWebContextCancelledOnceAndFreesTheSlot() throws {
        let flow = try beginCustomScheme()
        registry.cancel()
        flow.cancel()
        XCTAssertEqual(results.count, 1)
        XCTAssertEqual(error(results.values.first)?.code, .webContextCancelled)
        XCTAssertEqual(error(results.values.first)?.code.rawValue, 56)
        XCTAssertNil(registry.pending)
        XCTAssertNoThrow(try beginCustomScheme())
    }

    func testTheCompletionMayStartTheNextFlow() throws {
        let next = Recorder<PendingProviderFlow>()
        _ = try registry.beginRedirect(to: "com.example.game:/oauth", state: "one", completion: { [registry, results] result in
            results.append(result)
            if let flow = try? registry?.beginRedirect(to: "com.example.game:/oauth", state: "two", completion: { results.append($0) }) {
                next.append(flow)
            }
        })
        guard case .consumed = registry.handle(url: "com.example.game:/oauth?state=one") else { return XCTFail() }
        XCTAssertEqual(next.count, 1)
        XCTAssertTrue(registry.pending === next.values.first)
        guard case .consumed = registry.handle(url: "com.example.game:/oauth?state=two") else { return XCTFail() }
        XCTAssertEqual(results.count, 2)
    }

    func testTheTimeoutCompletesWithWebContextCancelledSayingItTimedOut() throws {
        _ = try beginCustomScheme(timeoutMs: 50)
        XCTAssertTrue(host.spin { results.count == 1 })
        let timedOut = error(results.values.first)
        XCTAssertEqual(timedOut?.code, .webContextCancelled)
        XCTAssertTrue(timedOut?.message.contains("timed out") ?? false)
        XCTAssertNil(registry.pending)
        XCTAssertEqual(registry.handle(url: "com.example.game:/oauth?state=st4te"), .notOurs)
    }

    func testShutdownEndsTheFlowWithoutCompletingIt() throws {
        let flow = try beginCustomScheme(timeoutMs: 30)
        registry.shutdown()
        XCTAssertNil(registry.pending)
        XCTAssertFalse(flow.isPending)
        flow.cancel()
        let deadline = Date().addingTimeInterval(0.2)
        while Date() < deadline { host.run(UV_RUN_NOWAIT); usleep(1_000) }
        XCTAssertEqual(results.count, 0)
    }

    // MARK: Loopback flows

    func testALoopbackFlowCompletesThroughItsReceiver() throws {
        let flow = try registry.beginLoopback(state: "st4te", completion: record)
        let receiver = try XCTUnwrap(flow.receiver)
        XCTAssertEqual(flow.redirectTarget, receiver.redirectURI)
        let port = receiver.port
        let status = Recorder<Int>()
        Thread.detachNewThread {
            status.append(federatedGet(port: port, "/__/auth/callback?code=c&state=st4te")?.status ?? -1)
        }
        XCTAssertTrue(host.spin { results.count == 1 && status.count == 1 })
        XCTAssertEqual(status.values, [200])
        guard case .success(let redirect)? = results.values.first else { return XCTFail("\(results.values)") }
        XCTAssertEqual(redirect.url, "http://127.0.0.1:\(port)/__/auth/callback?code=c&state=st4te")
        XCTAssertNil(registry.pending)
        XCTAssertTrue(federatedConnectionRefused(port: port))
    }

    func testALoopbackFlowAlsoTakesTheRedirectFromAnEmbeddedWebViewAndThenStopsListening() throws {
        let flow = try registry.beginLoopback(state: "st4te", completion: record)
        let port = try XCTUnwrap(flow.receiver?.port)
        let url = "http://127.0.0.1:\(port)/__/auth/callback?code=c&state=st4te"
        XCTAssertEqual(registry.handle(url: url), .consumed(RedirectResponse(url: url)))
        XCTAssertEqual(results.count, 1)
        XCTAssertTrue(federatedConnectionRefused(port: port))
        XCTAssertFalse(flow.receiver?.isWaiting ?? true)
    }

    func testCancellingOrTimingOutALoopbackFlowStopsItsReceiver() throws {
        let cancelled = try registry.beginLoopback(state: "s", completion: record)
        let firstPort = try XCTUnwrap(cancelled.receiver?.port)
        registry.cancel()
        XCTAssertTrue(federatedConnectionRefused(port: firstPort))
        XCTAssertEqual(error(results.values.first)?.code, .webContextCancelled)

        let timed = try registry.beginLoopback(state: "s", timeoutMs: 50, completion: record)
        let secondPort = try XCTUnwrap(timed.receiver?.port)
        XCTAssertTrue(host.spin { results.count == 2 })
        XCTAssertTrue(error(results.values.last)?.message.contains("timed out") ?? false)
        XCTAssertTrue(federatedConnectionRefused(port: secondPort))
    }

    func testTheLoopbackFlowsStateSetLaterReachesTheReceiver() throws {
        let flow = try registry.beginLoopback(state: nil, completion: record)
        let port = try XCTUnwrap(flow.receiver?.port)
        flow.expectedState = "from-auth-uri"
        XCTAssertEqual(flow.receiver?.expectedState, "from-auth-uri")
        let status = Recorder<Int>()
        Thread.detachNewThread {
            status.append(federatedGet(port: port, "/__/auth/callback?state=from-auth-uri")?.status ?? -1)
        }
        XCTAssertTrue(host.spin { results.count == 1 && status.count == 1 })
        XCTAssertEqual(status.values, [200])
    }

    func testARequestedLoopbackPortThatIsTakenFailsAndLeavesNoFlow() throws {
        let blocker = try XCTUnwrap(FederatedPortBlocker())
        var options = LoopbackRedirectReceiver.Options()
        options.port = blocker.port
        XCTAssertThrowsError(try registry.beginLoopback(state: "s", receiverOptions: options, completion: record)) { error in
            XCTAssertEqual((error as? AuthError)?.code, .invalidArgument)
        }
        XCTAssertNil(registry.pending)
        XCTAssertNoThrow(try registry.beginLoopback(state: "s", completion: record))
    }

    func testShutdownClosesALoopbackFlowsReceiverWithoutCompleting() throws {
        let flow = try registry.beginLoopback(state: "s", completion: record)
        let port = try XCTUnwrap(flow.receiver?.port)
        registry.shutdown()
        XCTAssertTrue(federatedConnectionRefused(port: port))
        XCTAssertEqual(results.count, 0)
    }

    // MARK: State

    func testAGeneratedStateIs256RandomBitsInBase64URL() throws {
        let first = try PendingProviderFlow.makeState()
        let second = try PendingProviderFlow.makeState()
        XCTAssertEqual(first.count, 43)
        XCTAssertNotEqual(first, second)
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        XCTAssertTrue(first.allSatisfy(alphabet.contains), first)
        XCTAssertEqual(Base64.decode(first)?.count, 32)
    }
}
