import Foundation
@testable import HearthAuth
@testable import HearthBackend
@testable import HearthTransport
import HearthWire
import XCTest

/// TLS as hosts get it: production URLs (https://identitytoolkit.googleapis.com/...,
/// https://securetoken.googleapis.com/...) reach a loopback HTTPS server through curl's CONNECT_TO,
/// so every certificate is checked against the real Google host name. The certificates are made
/// for this run (`make_test_pki.sh`), so none is committed, none expires, and a machine whose clock
/// is behind still sees them as valid.
final class TransportTLSTests: XCTestCase {
    /// Made afresh for each test (~0.1 s).
    private var pki: TestPKI!
    private var loop: EventLoop!
    private var servers: [TestHTTPServer] = []
    private var transports: [CurlTransport] = []
    private var apps: [App] = []
    private var savedEmulatorHost: String?

    /// Certificates a client must refuse: what is wrong with each, and what curl (OpenSSL) says,
    /// which shows the refusal is for that reason and not, say, a refused connection.
    private static let refusedCertificates: [(name: String, problem: String, curlSays: String)] = [
        ("wrong-host", "issued for wrong.example.com only", "target host name"),
        ("expired", "expired yesterday", "certificate has expired"),
        ("not-yet-valid", "valid from tomorrow", "certificate is not yet valid"),
        ("untrusted", "signed by a CA nobody trusts", "unable to get local issuer certificate"),
    ]

    override func setUpWithError() throws {
        pki = try TestPKI()
        loop = try EventLoop.makeOwned()
        // These tests are about production endpoints: an emulator from the environment would route
        // every request to plain http instead.
        if let value = getenv("FIREBASE_AUTH_EMULATOR_HOST") {
            savedEmulatorHost = String(cString: value)
            unsetenv("FIREBASE_AUTH_EMULATOR_HOST")
        }
    }

    override func tearDown() {
        for app in apps { app.destroy() }
        apps.removeAll()
        let transports = self.transports
        loop?.shutdown(final: { for transport in transports { transport.close() } })
        self.transports.removeAll()
        loop = nil
        for server in servers { server.stop() }
        servers.removeAll()
        if let savedEmulatorHost { setenv("FIREBASE_AUTH_EMULATOR_HOST", savedEmulatorHost, 1) }
        pki?.remove()
        pki = nil
    }

    // MARK: Helpers

    private func server(_ certificate: String?) throws -> TestHTTPServer {
        let server = try TestHTTPServer(certificate: certificate, pki: pki)
        servers.append(server)
        return server
    }

    /// Both production hosts, port 443, sent to `server` on 127.0.0.1.
    private func routes(to server: TestHTTPServer) -> [String] {
        [Endpoint.identityToolkitHost, Endpoint.secureTokenHost].map { "\($0):443:127.0.0.1:\(server.port)" }
    }

    private func transport(to server: TestHTTPServer, caBundle: String?) throws -> CurlTransport {
        var options = CurlTransport.Options()
        options.caBundlePath = caBundle
        options.connectTo = routes(to: server)
        options.defaultTimeoutMs = 10_000
        let transport = try CurlTransport(loop: loop, options: options)
        transports.append(transport)
        return transport
    }

    private func send(_ request: HTTPRequest, using transport: CurlTransport) -> TransportResult? {
        let results = Recorder<TransportResult>()
        let done = DispatchSemaphore(value: 0)
        loop.execute {
            transport.send(request) { result in
                results.append(result)
                done.signal()
            }
        }
        XCTAssertEqual(done.wait(timeout: .now() + 15), .success, "request did not complete")
        return results.values.first
    }

    /// What `server` was asked so far: [method, Host header, path], read over plain http or over
    /// TLS trusting the test CA.
    private func requestsSeen(by server: TestHTTPServer) throws -> [[String]] {
        let reader = try transport(to: server, caBundle: pki.caBundlePath)
        let url = server.scheme == "https" ? "https://\(Endpoint.identityToolkitHost)/requests" : server.url("/requests")
        guard case .success(let reply)? = send(HTTPRequest(method: "GET", url: url), using: reader),
              let seen = try JSONSerialization.jsonObject(with: Data(reply.body)) as? [[String]] else {
            XCTFail("could not read the server's request log")
            return []
        }
        return seen
    }

    private func app(routedTo server: TestHTTPServer, caBundle: String?) throws -> App {
        var configuration = AppConfiguration(apiKey: "tls-test-api-key")
        configuration.appName = "tls-\(UUID().uuidString)"
        configuration.caBundlePath = caBundle
        configuration.transportConnectTo = routes(to: server)
        configuration.requestTimeoutMs = 10_000
        let app = try App.create(configuration: configuration, hostLoop: nil, store: NoSessionStore())
        apps.append(app)
        return app
    }

    private func outcome(_ future: FutureState, file: StaticString = #filePath,
                         line: UInt = #line) -> FutureState.Outcome? {
        XCTAssertEqual(future.wait(timeoutMs: 15_000), .complete, "the operation did not complete", file: file, line: line)
        return future.result
    }

    private func networkFailure(_ future: FutureState, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        guard case .failure(let error)? = outcome(future, file: file, line: line) else {
            return XCTFail("\(what): accepted, expected NETWORK_REQUEST_FAILED", file: file, line: line)
        }
        XCTAssertEqual(error.code, .networkRequestFailed, "\(what): \(error)", file: file, line: line)
    }

    // MARK: The transport

    func testAValidChainToTheProductionNameIsAcceptedWithTheCABundle() throws {
        for certificate in ["valid", "chain"] {
            let server = try server(certificate)
            let transport = try transport(to: server, caBundle: pki.caBundlePath)
            let result = send(HTTPRequest(url: "https://\(Endpoint.identityToolkitHost)/echo?key=k",
                                          body: Array("over tls".utf8)), using: transport)
            guard case .success(let reply)? = result else {
                XCTFail("\(certificate): expected a response, got \(String(describing: result))")
                continue
            }
            XCTAssertEqual(reply.status, 200, certificate)
            let echo = try JSONSerialization.jsonObject(with: Data(reply.body)) as? [String: Any]
            XCTAssertEqual(echo?["body"] as? String, "over tls", certificate)
            let host = (echo?["headers"] as? [[String]])?.first { $0.first?.lowercased() == "host" }?.last
            XCTAssertEqual(host, Endpoint.identityToolkitHost, certificate)
        }
    }

    func testCertificatesForAnotherNameExpiredNotYetValidOrFromAnUntrustedCAAreRefused() throws {
        for (certificate, problem, curlSays) in Self.refusedCertificates {
            let server = try server(certificate)
            let transport = try transport(to: server, caBundle: pki.caBundlePath)
            let result = send(HTTPRequest(url: "https://\(Endpoint.identityToolkitHost)/echo"), using: transport)
            guard case .failure(.network(let message))? = result else {
                XCTFail("\(certificate) (\(problem)): expected .network, got \(String(describing: result))")
                continue
            }
            XCTAssertTrue(message.contains(curlSays), "\(certificate): \(message)")
        }
    }

    func testTheSystemStoreDoesNotTrustTheTestCA() throws {
        let server = try server("valid")
        let transport = try transport(to: server, caBundle: nil)
        let result = send(HTTPRequest(url: "https://\(Endpoint.identityToolkitHost)/echo"), using: transport)
        guard case .failure(.network(let message))? = result else {
            return XCTFail("expected .network, got \(String(describing: result))")
        }
        XCTAssertTrue(message.lowercased().contains("certificate"), message)
    }

    func testTheCertificateIsCheckedAgainstTheURLsHostNotTheAddressConnectedTo() throws {
        // wrong-host's certificate would be right for "wrong.example.com"; routed there it is accepted,
        // the same server under the production name is not.
        let server = try server("wrong-host")
        var options = CurlTransport.Options()
        options.caBundlePath = pki.caBundlePath
        options.connectTo = ["wrong.example.com:443:127.0.0.1:\(server.port)"] + routes(to: server)
        let transport = try CurlTransport(loop: loop, options: options)
        transports.append(transport)
        let right = send(HTTPRequest(method: "GET", url: "https://wrong.example.com/echo"), using: transport)
        XCTAssertEqual(try right?.get().status, 200)
        let wrong = send(HTTPRequest(method: "GET", url: "https://\(Endpoint.secureTokenHost)/echo"), using: transport)
        guard case .failure(.network)? = wrong else { return XCTFail("expected .network, got \(String(describing: wrong))") }
    }

    func testACABundleWithoutCertificatesTrustsNothing() throws {
        let garbage = pki.path("garbage.pem")
        try Data("not a certificate\n".utf8).write(to: URL(fileURLWithPath: garbage))
        let server = try server("valid")
        let transport = try transport(to: server, caBundle: garbage)
        let result = send(HTTPRequest(url: "https://\(Endpoint.identityToolkitHost)/echo"), using: transport)
        guard case .failure(.network)? = result else { return XCTFail("expected .network, got \(String(describing: result))") }
    }

    func testACABundleThatCannotBeReadIsRefusedUpFront() throws {
        for path in ["", "/nonexistent/ca.pem", pki.directory.path] {
            var options = CurlTransport.Options()
            options.caBundlePath = path
            XCTAssertThrowsError(try CurlTransport(loop: loop, options: options), "\"\(path)\"") { error in
                guard case TransportSetupError.invalidOption = error else { return XCTFail("\(error)") }
            }
            XCTAssertNotNil(CurlTransport.caBundleProblem(path), path)
        }
        XCTAssertNil(CurlTransport.caBundleProblem(pki.caBundlePath))
    }

    // MARK: Plain http never stands in for https

    func testAnHTTPSRequestToAPlainHTTPServerFailsAndSendsNothingInTheClear() throws {
        let plain = try server(nil)
        let transport = try transport(to: plain, caBundle: pki.caBundlePath)
        let result = send(HTTPRequest(url: "https://\(Endpoint.identityToolkitHost)/v1/accounts:signUp?key=secret-key",
                                      body: Array(#"{"password":"secret-password"}"#.utf8)), using: transport)
        guard case .failure(.network)? = result else { return XCTFail("expected .network, got \(String(describing: result))") }
        XCTAssertEqual(try requestsSeen(by: plain), [], "the server read an HTTP request")
    }

    func testARedirectFromHTTPSToHTTPIsHandedBackNotFollowed() throws {
        let plain = try server(nil)
        let secure = try server("valid")
        let transport = try transport(to: secure, caBundle: pki.caBundlePath)
        let target = plain.url("/echo").addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        let result = send(HTTPRequest(url: "https://\(Endpoint.identityToolkitHost)/redirect?to=\(target)",
                                      body: Array("secret".utf8)), using: transport)
        XCTAssertEqual(try result?.get().status, 307)
        XCTAssertEqual(try requestsSeen(by: plain), [])
    }

    func testOnlyTheURLsOwnSchemeIsAllowed() throws {
        XCTAssertEqual(try CurlTransfer.scheme(of: "https://identitytoolkit.googleapis.com/v1/x"), "https")
        XCTAssertEqual(try CurlTransfer.scheme(of: "HTTP://127.0.0.1:9099/x"), "http")
        for url in ["identitytoolkit.googleapis.com/v1/x", "//identitytoolkit.googleapis.com/v1/x",
                    "ftp://127.0.0.1/", "file:///etc/passwd", "httpx://127.0.0.1/", "dict://127.0.0.1/"] {
            XCTAssertThrowsError(try CurlTransfer.scheme(of: url), url)
        }
    }

    func testProductionEndpointsAreHTTPSAndOnlyTheEmulatorIsPlainHTTP() {
        let endpoints: [Endpoint] = [.identityToolkitV1("accounts:signUp"), .identityToolkitV2("accounts/mfaEnrollment:start"),
                                     .secureToken, Endpoint(host: Endpoint.identityToolkitHost, path: "v1/projects", method: "GET")]
        for endpoint in endpoints {
            XCTAssertTrue(endpoint.url(for: BackendConfig(apiKey: "k")).hasPrefix("https://\(endpoint.host)/"))
            let emulator = BackendConfig(apiKey: "k", emulator: EmulatorAddress(host: "127.0.0.1", port: 9099))
            XCTAssertTrue(endpoint.url(for: emulator).hasPrefix("http://127.0.0.1:9099/\(endpoint.host)/"))
        }
    }

    // MARK: Through the app

    func testAnAppWithTheCABundleSignsInAndRefreshesItsTokenOverVerifiedTLS() throws {
        let server = try server("chain")
        let app = try app(routedTo: server, caBundle: pki.caBundlePath)
        guard case .success? = outcome(app.auth.signInAnonymously()) else { return XCTFail("sign-in failed") }
        XCTAssertEqual(app.auth.currentUser?.uid, "tls-user")
        guard case .success(.string(let token))? = outcome(app.auth.getToken(uid: "tls-user", forceRefresh: true)) else {
            return XCTFail("token refresh failed")
        }
        XCTAssertFalse(token.isEmpty)
        let seen = try requestsSeen(by: server).map { "\($0[0]) \($0[1]) \($0[2].split(separator: "?")[0])" }
        XCTAssertEqual(seen, ["POST identitytoolkit.googleapis.com /v1/accounts:signUp",
                              "POST identitytoolkit.googleapis.com /v1/accounts:lookup",
                              "POST securetoken.googleapis.com /v1/token"])
    }

    func testAnAppNeverSignsInThroughARefusedCertificate() throws {
        for (certificate, problem, _) in Self.refusedCertificates {
            let server = try server(certificate)
            let app = try app(routedTo: server, caBundle: pki.caBundlePath)
            networkFailure(app.auth.signInAnonymously(), "\(certificate) (\(problem))")
            XCTAssertNil(app.auth.currentUser, certificate)
        }
    }

    func testAnAppWithoutTheCABundleDoesNotTrustTheTestServer() throws {
        let server = try server("valid")
        let app = try app(routedTo: server, caBundle: nil)
        networkFailure(app.auth.signInAnonymously(), "no CA bundle")
        XCTAssertNil(app.auth.currentUser)
    }

    func testAnAppNeverFallsBackToPlainHTTPForProductionEndpoints() throws {
        let plain = try server(nil)
        let app = try app(routedTo: plain, caBundle: pki.caBundlePath)
        networkFailure(app.auth.signInAnonymously(), "plain http server")
        XCTAssertEqual(try requestsSeen(by: plain), [])
    }
}
