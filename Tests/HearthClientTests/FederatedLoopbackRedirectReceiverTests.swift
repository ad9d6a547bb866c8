import CLibUV
import Foundation
@testable import HearthAuth
@testable import HearthBackend
@testable import HearthTransport
import XCTest

/// A loopback receiver on Hearth's own loop thread, with a real TCP client playing the browser.
final class OwnedLoopReceiver {
    let loop: EventLoop
    let results = Recorder<Result<RedirectResponse, AuthError>>()
    let completionThreadWasLoopThread = Recorder<Bool>()
    private(set) var receiver: LoopbackRedirectReceiver?
    private(set) var startError: AuthError?

    /// - Parameter then: runs inside the completion, after it was recorded.
    init(state: String? = "the-state", options: LoopbackRedirectReceiver.Options = .init(),
         then: ((Result<RedirectResponse, AuthError>) -> Void)? = nil) throws {
        loop = try EventLoop.makeOwned()
        let loop = self.loop
        let results = self.results
        let threads = completionThreadWasLoopThread
        let started: Result<LoopbackRedirectReceiver, AuthError>? = onLoop { () -> Result<LoopbackRedirectReceiver, AuthError> in
            do throws(AuthError) {
                return .success(try LoopbackRedirectReceiver.start(on: loop, expectedState: state, options: options) { result in
                    threads.append(loop.isLoopThread)
                    results.append(result)
                    then?(result)
                })
            } catch {
                return .failure(error)
            }
        }
        switch started {
        case .success(let receiver): self.receiver = receiver
        case .failure(let error): startError = error
        case nil: startError = AuthError(code: .failure, message: "the loop did not run the start")
        }
    }

    var port: UInt16 { receiver?.port ?? 0 }

    /// Runs `body` on the loop thread and returns its result (nil if the loop did not run it in 5 s).
    func onLoop<T>(_ body: @escaping () -> T) -> T? {
        let value = Recorder<T>()
        let done = DispatchSemaphore(value: 0)
        guard loop.execute({ value.append(body()); done.signal() }) else { return nil }
        guard done.wait(timeout: .now() + 5) == .success else { return nil }
        return value.values.first
    }

    /// The one completion, once it has run (nil after 5 s without one).
    func completion() -> Result<RedirectResponse, AuthError>? {
        guard eventually(within: 5, { results.count > 0 }) else { return nil }
        return results.values.first
    }

    /// Drops the test's reference, so only Hearth's own references keep the receiver alive.
    func releaseReceiver() { receiver = nil }

    var isWaiting: Bool { onLoop { [receiver] in receiver?.isWaiting ?? false } ?? false }

    func shutdown() { loop.shutdown() }
}

final class FederatedLoopbackRedirectReceiverTests: XCTestCase {
    private var harnesses: [OwnedLoopReceiver] = []

    override func tearDown() {
        for harness in harnesses { harness.shutdown() }
        harnesses = []
        super.tearDown()
    }

    private func makeReceiver(state: String? = "the-state", options: LoopbackRedirectReceiver.Options = .init(),
                              file: StaticString = #filePath, line: UInt = #line) throws -> OwnedLoopReceiver {
        let harness = try OwnedLoopReceiver(state: state, options: options)
        harnesses.append(harness)
        if let error = harness.startError { XCTFail("start failed: \(error)", file: file, line: line) }
        return harness
    }

    private func assertSucceeded(_ result: Result<RedirectResponse, AuthError>?, url: String, postBody: String? = nil,
                                 file: StaticString = #filePath, line: UInt = #line) {
        guard case .success(let response)? = result else {
            return XCTFail("expected a redirect, got \(String(describing: result))", file: file, line: line)
        }
        XCTAssertEqual(response.url, url, file: file, line: line)
        XCTAssertEqual(response.postBody, postBody, file: file, line: line)
    }

    private func assertFailed(_ result: Result<RedirectResponse, AuthError>?, _ code: AuthErrorCode,
                              file: StaticString = #filePath, line: UInt = #line) -> AuthError? {
        guard case .failure(let error)? = result else {
            XCTFail("expected \(code.name), got \(String(describing: result))", file: file, line: line)
            return nil
        }
        XCTAssertEqual(error.code, code, file: file, line: line)
        return error
    }

    // MARK: The redirect

    func testTheRedirectWithTheRightStateCompletesWithTheFullURLAndGetsAReturnToTheAppPage() throws {
        let harness = try makeReceiver()
        let port = harness.port
        XCTAssertNotEqual(port, 0)
        XCTAssertEqual(harness.receiver?.redirectURI, "http://127.0.0.1:\(port)/__/auth/callback")

        let response = try XCTUnwrap(federatedGet(port: port, "/__/auth/callback?state=the-state&code=4%2F0Ab_c"))
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.headers["cache-control"], "no-store")
        XCTAssertEqual(response.headers["connection"], "close")
        XCTAssertEqual(response.headers["content-type"], "text/html; charset=utf-8")
        XCTAssertEqual(response.headers["content-length"], String(response.body.utf8.count))
        XCTAssertTrue(response.body.contains("return to the app"), response.body)
        XCTAssertFalse(response.body.contains("http"), "the page must not load anything: \(response.body)")

        assertSucceeded(harness.completion(), url: "http://127.0.0.1:\(port)/__/auth/callback?state=the-state&code=4%2F0Ab_c")
        XCTAssertEqual(harness.completionThreadWasLoopThread.values, [true])
        XCTAssertFalse(harness.isWaiting)
    }

    func testAReplayedRedirectAfterCompletionIsRefusedByTheSystem() throws {
        let harness = try makeReceiver()
        let port = harness.port
        XCTAssertEqual(federatedGet(port: port, "/__/auth/callback?state=the-state&code=c")?.status, 200)
        XCTAssertNotNil(harness.completion())
        XCTAssertTrue(federatedConnectionRefused(port: port))
        XCTAssertNil(federatedGet(port: port, "/__/auth/callback?state=the-state&code=c"))
        XCTAssertEqual(harness.results.count, 1)
    }

    func testAWrongOrMissingStateGets400AndTheReceiverKeepsWaitingForTheRightOne() throws {
        let harness = try makeReceiver()
        let port = harness.port
        let wrong = try XCTUnwrap(federatedGet(port: port, "/__/auth/callback?state=guess&code=c"))
        XCTAssertEqual(wrong.status, 400)
        XCTAssertEqual(wrong.headers["cache-control"], "no-store")
        XCTAssertEqual(federatedGet(port: port, "/__/auth/callback?code=c")?.status, 400)
        XCTAssertEqual(federatedGet(port: port, "/__/auth/callback?state=the-state&state=other&code=c")?.status, 400)
        XCTAssertEqual(harness.results.count, 0)
        XCTAssertTrue(harness.isWaiting)

        XCTAssertEqual(federatedGet(port: port, "/__/auth/callback?code=right&state=the-state")?.status, 200)
        assertSucceeded(harness.completion(), url: "http://127.0.0.1:\(port)/__/auth/callback?code=right&state=the-state")
        XCTAssertEqual(harness.results.count, 1)
    }

    func testAForgedIdPErrorWithoutTheStateDoesNotEndTheSignIn() throws {
        let harness = try makeReceiver()
        XCTAssertEqual(federatedGet(port: harness.port, "/__/auth/callback?error=access_denied")?.status, 400)
        XCTAssertTrue(harness.isWaiting)
        XCTAssertEqual(harness.results.count, 0)
    }

    func testTheIdPsAccessDeniedWithTheRightStateEndsTheSignInAsCancelled() throws {
        let harness = try makeReceiver()
        let response = try XCTUnwrap(federatedGet(port: harness.port,
                                                  "/__/auth/callback?error=access_denied&state=the-state"))
        XCTAssertEqual(response.status, 200)
        XCTAssertTrue(response.body.contains("did not complete"), response.body)
        _ = assertFailed(harness.completion(), .webContextCancelled)
        XCTAssertTrue(federatedConnectionRefused(port: harness.port))
    }

    func testOtherPathsGet404AndTheReceiverKeepsWaiting() throws {
        let harness = try makeReceiver()
        let port = harness.port
        XCTAssertEqual(federatedGet(port: port, "/favicon.ico")?.status, 404)
        XCTAssertEqual(federatedGet(port: port, "/")?.status, 404)
        XCTAssertEqual(federatedGet(port: port, "/__/auth/callbackx?state=the-state")?.status, 404)
        XCTAssertEqual(federatedGet(port: port, "/__/auth/callback/more?state=the-state")?.status, 404)
        XCTAssertTrue(harness.isWaiting)
        XCTAssertEqual(federatedGet(port: port, "/__/auth/callback?state=the-state")?.status, 200)
        assertSucceeded(harness.completion(), url: "http://127.0.0.1:\(port)/__/auth/callback?state=the-state")
    }

    func testACustomCallbackPathIsTheOneServed() throws {
        var options = LoopbackRedirectReceiver.Options()
        options.callbackPath = "/oauth2/done"
        let harness = try makeReceiver(options: options)
        XCTAssertEqual(harness.receiver?.redirectURI, "http://127.0.0.1:\(harness.port)/oauth2/done")
        XCTAssertEqual(federatedGet(port: harness.port, "/__/auth/callback?state=the-state")?.status, 404)
        XCTAssertEqual(federatedGet(port: harness.port, "/oauth2/done?state=the-state")?.status, 200)
        XCTAssertNotNil(harness.completion())
    }

    func testAnInvalidCallbackPathIsRefusedAtStart() throws {
        for path in ["", "no-slash", "/with space", "/q?x", "/f#x", "/é"] {
            var options = LoopbackRedirectReceiver.Options()
            options.callbackPath = path
            let harness = try OwnedLoopReceiver(options: options)
            harnesses.append(harness)
            XCTAssertEqual(harness.startError?.code, .invalidArgument, path)
        }
    }

    func testARequestFromAnotherSitesHostNameIsRefused() throws {
        // DNS rebinding: a page of evil.example resolved to 127.0.0.1 still sends its own Host.
        let harness = try makeReceiver()
        let port = harness.port
        let response = federatedExchange(port: port, "GET /__/auth/callback?state=the-state HTTP/1.1\r\n"
            + "Host: evil.example:\(port)\r\n\r\n")
        XCTAssertEqual(response?.status, 400)
        XCTAssertTrue(harness.isWaiting)
        let viaLocalhost = federatedExchange(port: port, "GET /__/auth/callback?state=the-state HTTP/1.1\r\n"
            + "Host: localhost:\(port)\r\n\r\n")
        XCTAssertEqual(viaLocalhost?.status, 200)
        XCTAssertNotNil(harness.completion())
    }

    func testMethodsOtherThanGetAndPostGet405() throws {
        let harness = try makeReceiver()
        let response = federatedExchange(port: harness.port, "PUT /__/auth/callback?state=the-state HTTP/1.1\r\n"
            + "Host: 127.0.0.1:\(harness.port)\r\nContent-Length: 0\r\n\r\n")
        XCTAssertEqual(response?.status, 405)
        XCTAssertEqual(response?.headers["allow"], "GET, POST")
        XCTAssertTrue(harness.isWaiting)
    }

    // MARK: form_post

    func testAFormPostResponseCompletesWithTheURLAndTheBody() throws {
        let harness = try makeReceiver()
        let port = harness.port
        let body = "state=the-state&code=c0de&id_token=eyJ.eyJ.sig&user=%7B%22name%22%3A%7B%22firstName%22%3A%22Ana%22%7D%7D"
        let response = try XCTUnwrap(federatedExchange(port: port, "POST /__/auth/callback HTTP/1.1\r\n"
            + "Host: 127.0.0.1:\(port)\r\nContent-Type: application/x-www-form-urlencoded\r\n"
            + "Content-Length: \(body.utf8.count)\r\nOrigin: https://appleid.apple.com\r\n\r\n\(body)"))
        XCTAssertEqual(response.status, 200)
        assertSucceeded(harness.completion(), url: "http://127.0.0.1:\(port)/__/auth/callback", postBody: body)
    }

    func testAFormPostWithTheWrongStateInItsBodyGets400() throws {
        let harness = try makeReceiver()
        let port = harness.port
        let body = "state=stale&code=c0de"
        let response = federatedExchange(port: port, "POST /__/auth/callback?state=the-state HTTP/1.1\r\n"
            + "Host: 127.0.0.1:\(port)\r\nContent-Type: application/x-www-form-urlencoded; charset=UTF-8\r\n"
            + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
        XCTAssertEqual(response?.status, 400)
        XCTAssertTrue(harness.isWaiting)
    }

    func testAPostThatIsNotAFormGets415() throws {
        let harness = try makeReceiver()
        let port = harness.port
        let body = #"{"state":"the-state","code":"c"}"#
        let response = federatedExchange(port: port, "POST /__/auth/callback HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
        XCTAssertEqual(response?.status, 415)
        XCTAssertTrue(harness.isWaiting)
    }

    func testAFormBodyLargerThanTheLimitGets413() throws {
        var options = LoopbackRedirectReceiver.Options()
        options.maximumBodyBytes = 1024
        let harness = try makeReceiver(options: options)
        let port = harness.port
        let body = "state=the-state&pad=" + String(repeating: "x", count: 2000)
        let response = federatedExchange(port: port, "POST /__/auth/callback HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
            + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
        XCTAssertEqual(response?.status, 413)
        XCTAssertTrue(harness.isWaiting)
    }

    // MARK: Bad clients

    func testMalformedRequestsGet400AndCloseOnlyTheirConnection() throws {
        let harness = try makeReceiver()
        let port = harness.port
        let malformed = [
            "GARBAGE\r\n\r\n",
            "GET /__/auth/callback?state=the-state\r\n\r\n",
            "GET  /__/auth/callback?state=the-state HTTP/1.1\r\n\r\n",
            "GET /__/auth/callback?state=the-state HTTP/1.1\r\nNo colon here\r\n\r\n",
            "GET /__/auth/callback?state=the-state HTTP/1.1\r\nHost : 127.0.0.1\r\n\r\n",
            "GET /__/auth/callback?state=the-state HTTP/1.1\r\nX-A: 1\r\n folded\r\n\r\n",
            "GET /__/auth/callback?state=the-state HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab",
            "GET /__/auth/callback?state=the-state HTTP/1.1\r\nContent-Length: -1\r\n\r\n",
            "GET /__/auth/callback?state=the-state HTTP/1.1\r\nX-Nul: a\u{0}b\r\n\r\n",
            "GET http://127.0.0.1/__/auth/callback?state=the-state HTTP/1.1\r\n\r\n",
        ]
        for request in malformed {
            XCTAssertEqual(federatedExchange(port: port, request)?.status, 400, request.debugDescription)
        }
        XCTAssertEqual(federatedExchange(port: port, "GET / HTTP/2.0\r\n\r\n")?.status, 505)
        XCTAssertEqual(federatedExchange(port: port, "POST /__/auth/callback HTTP/1.1\r\n"
            + "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n")?.status, 501)
        // Not even HTTP: binary noise.
        var noise = [UInt8](repeating: 0, count: 300)
        for index in noise.indices { noise[index] = UInt8(truncatingIfNeeded: index &* 37 &+ 11) }
        noise += Array("\r\n\r\n".utf8)
        let socket = try FederatedTestSocket.connect(port: port).get()
        socket.send(noise)
        XCTAssertEqual(FederatedTestResponse(socket.readToEnd())?.status, 400)

        XCTAssertEqual(harness.results.count, 0)
        XCTAssertTrue(harness.isWaiting)
        XCTAssertEqual(federatedGet(port: port, "/__/auth/callback?state=the-state")?.status, 200)
        XCTAssertNotNil(harness.completion())
    }

    func testOversizedHeadersGet431AndTheReceiverKeepsWaiting() throws {
        let harness = try makeReceiver()
        let port = harness.port
        let socket = try FederatedTestSocket.connect(port: port).get()
        var request = "GET /__/auth/callback?state=the-state HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
        for index in 0..<400 { request += "X-Filler-\(index): \(String(repeating: "y", count: 60))\r\n" }
        request += "\r\n"
        XCTAssertGreaterThan(request.utf8.count, 16 * 1024)
        socket.send(request)
        let response = FederatedTestResponse(socket.readToEnd())
        XCTAssertEqual(response?.status, 431)
        XCTAssertTrue(harness.isWaiting)
        XCTAssertEqual(harness.results.count, 0)
    }

    func testHeadersJustUnderTheLimitAreAccepted() throws {
        let harness = try makeReceiver()
        let port = harness.port
        var request = "GET /__/auth/callback?state=the-state HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
        request += "Cookie: \(String(repeating: "c", count: 16 * 1024 - request.utf8.count - 12))\r\n\r\n"
        XCTAssertEqual(request.utf8.count, 16 * 1024)
        XCTAssertEqual(federatedExchange(port: port, request)?.status, 200)
        XCTAssertNotNil(harness.completion())
    }

    func testARequestArrivingByteByByteIsReadWhole() throws {
        let harness = try makeReceiver()
        let port = harness.port
        let socket = try FederatedTestSocket.connect(port: port).get()
        for byte in "GET /__/auth/callback?state=the-state&code=x HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n".utf8 {
            socket.send([byte])
        }
        XCTAssertEqual(FederatedTestResponse(socket.readToEnd())?.status, 200)
        assertSucceeded(harness.completion(), url: "http://127.0.0.1:\(port)/__/auth/callback?state=the-state&code=x")
    }

    func testASlowClientIsCutOffAtTheRequestDeadlineEvenWhileItKeepsSending() throws {
        var options = LoopbackRedirectReceiver.Options()
        options.requestTimeoutMs = 400
        let harness = try makeReceiver(options: options)
        let port = harness.port
        let socket = try FederatedTestSocket.connect(port: port).get()
        let started = Date()
        socket.send("GET /__/auth/callback?state=the-state HTTP/1.1\r\n")
        // Slowloris: a byte every 50 ms never finishes the head; the deadline must not move with it.
        var answer: [UInt8] = []
        for _ in 0..<60 where answer.isEmpty {
            usleep(50_000)
            answer = socket.receivedSoFar()
            if answer.isEmpty && !socket.send("X") { break }
        }
        let elapsed = Date().timeIntervalSince(started)
        answer += socket.readToEnd()
        XCTAssertEqual(FederatedTestResponse(answer)?.status, 408)
        XCTAssertGreaterThanOrEqual(elapsed, 0.35)
        // Scaled under a sanitizer, but below the 3 s the trickle would last if the deadline moved with it.
        XCTAssertLessThan(elapsed, min(TestTiming.limit(1.2), 2.5), "the deadline moved with the trickle")
        XCTAssertTrue(harness.isWaiting)
    }

    func testASlowClientGets408AndASilentOneIsClosedQuietly() throws {
        var options = LoopbackRedirectReceiver.Options()
        options.requestTimeoutMs = 200
        let harness = try makeReceiver(options: options)
        let port = harness.port
        let partial = try FederatedTestSocket.connect(port: port).get()
        partial.send("GET /__/auth/callback?state=the-state HTTP/1.1\r\nHost: 127.0.0.1")
        let silent = try FederatedTestSocket.connect(port: port).get()
        XCTAssertEqual(FederatedTestResponse(partial.readToEnd())?.status, 408)
        XCTAssertEqual(silent.readToEnd(), [UInt8](), "a connection that sent nothing gets no answer")
        XCTAssertTrue(harness.isWaiting)
    }

    func testAnUnusedPreconnectionDoesNotHoldUpTheRedirectAndIsClosedAfterIt() throws {
        let harness = try makeReceiver()
        let port = harness.port
        let idle = try FederatedTestSocket.connect(port: port).get()
        XCTAssertEqual(federatedGet(port: port, "/__/auth/callback?state=the-state")?.status, 200)
        XCTAssertNotNil(harness.completion())
        XCTAssertTrue(idle.peerClosed(within: 2))
    }

    func testConnectionsBeyondTheLimitAreClosedOnAccept() throws {
        var options = LoopbackRedirectReceiver.Options()
        options.maximumConnections = 2
        let harness = try makeReceiver(options: options)
        let port = harness.port
        let first = try FederatedTestSocket.connect(port: port).get()
        let second = try FederatedTestSocket.connect(port: port).get()
        let third = try FederatedTestSocket.connect(port: port).get()
        XCTAssertTrue(third.peerClosed(within: 2))
        first.close()
        second.close()
        // Once those are gone, the browser gets through.
        XCTAssertTrue(eventually(within: 3) {
            federatedGet(port: port, "/__/auth/callback?state=the-state")?.status == 200
        })
        XCTAssertNotNil(harness.completion())
    }

    // MARK: Ports and addresses

    func testTheReceiverListensOn127001Only() throws {
        let harness = try makeReceiver()
        let port = harness.port
        let address = harness.onLoop { [receiver = harness.receiver] in receiver?.localAddress }
        XCTAssertEqual(address??.host, "127.0.0.1")
        XCTAssertEqual(address??.port, port)
        // Another loopback address of this machine, and IPv6 loopback: nothing listens there.
        XCTAssertTrue(federatedConnectionRefused(host: "127.0.0.2", port: port))
        XCTAssertTrue(federatedConnectionRefused(host: "::1", port: port))
        XCTAssertTrue(harness.isWaiting)
    }

    func testARequestedFreePortIsUsed() throws {
        let free = try XCTUnwrap(federatedFreePort())
        var options = LoopbackRedirectReceiver.Options()
        options.port = free
        let harness = try makeReceiver(options: options)
        XCTAssertEqual(harness.port, free)
        XCTAssertEqual(harness.receiver?.redirectURI, "http://127.0.0.1:\(free)/__/auth/callback")
    }

    func testARequestedPortThatIsTakenFailsWithInvalidArgument() throws {
        let blocker = try XCTUnwrap(FederatedPortBlocker())
        var options = LoopbackRedirectReceiver.Options()
        options.port = blocker.port
        let harness = try OwnedLoopReceiver(options: options)
        harnesses.append(harness)
        XCTAssertNil(harness.receiver)
        let error = try XCTUnwrap(harness.startError)
        XCTAssertEqual(error.code, .invalidArgument)
        XCTAssertTrue(error.message.contains("127.0.0.1:\(blocker.port)"), error.message)
        XCTAssertTrue(error.message.contains("EADDRINUSE"), error.message)
        XCTAssertEqual(harness.results.count, 0)
    }

    // MARK: Ending without a redirect

    func testCancelCompletesWithWebContextCancelledOnceAndStopsListening() throws {
        let harness = try makeReceiver()
        let port = harness.port
        let open = try FederatedTestSocket.connect(port: port).get()
        harness.onLoop { [receiver = harness.receiver] in
            receiver?.cancel()
            receiver?.cancel()
        }
        let error = assertFailed(harness.completion(), .webContextCancelled)
        XCTAssertEqual(error?.message, "The sign-in was cancelled by the app.")
        XCTAssertTrue(federatedConnectionRefused(port: port))
        XCTAssertTrue(open.peerClosed(within: 2))
        usleep(50_000)
        XCTAssertEqual(harness.results.count, 1)
    }

    func testTheOverallTimeoutCompletesWithWebContextCancelledSayingItTimedOut() throws {
        var options = LoopbackRedirectReceiver.Options()
        options.timeoutMs = 150
        let harness = try makeReceiver(options: options)
        let error = assertFailed(harness.completion(), .webContextCancelled)
        XCTAssertTrue(error?.message.contains("timed out") ?? false, error?.message ?? "")
        XCTAssertTrue(federatedConnectionRefused(port: harness.port))
        usleep(50_000)
        XCTAssertEqual(harness.results.count, 1)
    }

    func testTheCompletionMayStartTheNextReceiverOnTheSamePort() throws {
        let next = Recorder<Result<LoopbackRedirectReceiver, AuthError>>()
        let nextResults = Recorder<Result<RedirectResponse, AuthError>>()
        let port = try XCTUnwrap(federatedFreePort())
        var options = LoopbackRedirectReceiver.Options()
        options.port = port
        let loopOfHarness = Recorder<EventLoop>()
        let harness = try OwnedLoopReceiver(options: options, then: { _ in
            guard let loop = loopOfHarness.values.first else { return }
            // Inside the completion the first receiver has stopped listening: its port is free.
            do throws(AuthError) {
                next.append(.success(try LoopbackRedirectReceiver.start(on: loop, expectedState: "second", options: options) {
                    nextResults.append($0)
                }))
            } catch {
                next.append(.failure(error))
            }
        })
        harnesses.append(harness)
        loopOfHarness.append(harness.loop)
        XCTAssertNil(harness.startError)
        XCTAssertEqual(federatedGet(port: port, "/__/auth/callback?state=the-state")?.status, 200)
        XCTAssertNotNil(harness.completion())
        XCTAssertTrue(eventually(within: 5) { next.count == 1 })
        guard case .success(let second)? = next.values.first else {
            return XCTFail("the second receiver did not start: \(String(describing: next.values.first))")
        }
        XCTAssertEqual(second.port, port)
        XCTAssertEqual(federatedGet(port: port, "/__/auth/callback?state=second")?.status, 200)
        XCTAssertTrue(eventually(within: 5) { nextResults.count == 1 })
    }

    func testTheStateMayBeSetAfterStart() throws {
        let harness = try makeReceiver(state: nil)
        let port = harness.port
        XCTAssertEqual(federatedGet(port: port, "/__/auth/callback?state=anything")?.status, 400)
        harness.onLoop { [receiver = harness.receiver] in receiver?.expectedState = "from-auth-uri" }
        XCTAssertEqual(federatedGet(port: port, "/__/auth/callback?state=anything")?.status, 400)
        XCTAssertEqual(federatedGet(port: port, "/__/auth/callback?state=from-auth-uri")?.status, 200)
        XCTAssertNotNil(harness.completion())
    }

    // MARK: Loop shutdown

    func testLoopShutdownWhileWaitingClosesTheReceiverWithoutCompletingAndReleasesIt() throws {
        let harness = try makeReceiver()
        let port = harness.port
        weak let released = harness.receiver
        // A browser connection in the middle of its request.
        let midRequest = try FederatedTestSocket.connect(port: port).get()
        midRequest.send("GET /__/auth/callback?state=the-state HTTP/1.1\r\n")
        usleep(50_000)
        harness.shutdown()
        XCTAssertTrue(federatedConnectionRefused(port: port))
        XCTAssertTrue(midRequest.peerClosed(within: 2))
        XCTAssertEqual(harness.results.count, 0, "no completion after shutdown")
        // Once the test drops its own reference nothing may keep the receiver (or its completion).
        harness.releaseReceiver()
        XCTAssertNil(released)
    }

    func testStartingAfterTheLoopShutDownFailsWithAppDestroyed() throws {
        let host = HostLoop()
        let loop = try EventLoop.borrowing(host.raw)
        loop.shutdown()
        host.run(UV_RUN_NOWAIT)
        XCTAssertThrowsError(try LoopbackRedirectReceiver.start(on: loop, expectedState: "s") { _ in }) { error in
            XCTAssertEqual((error as? AuthError)?.code, .appDestroyed)
        }
        XCTAssertEqual(host.close(), 0)
    }

    func testStartingOffTheLoopThreadIsRefused() throws {
        let loop = try EventLoop.makeOwned()
        defer { loop.shutdown() }
        XCTAssertThrowsError(try LoopbackRedirectReceiver.start(on: loop, expectedState: "s") { _ in }) { error in
            XCTAssertEqual((error as? AuthError)?.code, .failure)
        }
    }
}
