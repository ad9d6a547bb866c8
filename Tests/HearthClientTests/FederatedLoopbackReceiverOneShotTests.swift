import Foundation
@testable import HearthAuth
import XCTest

/// The loopback receiver takes exactly one redirect, from this machine's 127.0.0.1 only, with
/// exactly the flow's state (what FederatedLoopbackRedirectReceiverTests do not already show).
final class FederatedLoopbackReceiverOneShotTests: XCTestCase {
    private var harnesses: [OwnedLoopReceiver] = []

    override func tearDown() {
        for harness in harnesses { harness.shutdown() }
        harnesses = []
        super.tearDown()
    }

    private func makeReceiver(_ options: LoopbackRedirectReceiver.Options = .init()) throws -> OwnedLoopReceiver {
        let harness = try OwnedLoopReceiver(state: "the-state", options: options)
        harnesses.append(harness)
        if let error = harness.startError { XCTFail("start failed: \(error)") }
        return harness
    }

    func testOfManyRightRedirectsArrivingAtOnceExactlyOneIsAccepted() throws {
        var options = LoopbackRedirectReceiver.Options()
        options.maximumConnections = 32
        let harness = try makeReceiver(options)
        let port = harness.port
        // All connected and sent before any answer is read: the loop sees them in one burst.
        let sockets = try (0..<20).map { _ in try FederatedTestSocket.connect(port: port).get() }
        for (index, socket) in sockets.enumerated() {
            socket.send("GET /__/auth/callback?state=the-state&code=c\(index) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
        }
        let statuses = sockets.map { FederatedTestResponse($0.readToEnd())?.status }
        for socket in sockets { socket.close() }
        XCTAssertEqual(statuses.filter { $0 == 200 }.count, 1, "statuses: \(statuses)")
        XCTAssertTrue(statuses.allSatisfy { $0 == nil || $0 == 200 }, "the others get no answer: \(statuses)")
        guard case .success(let response)? = harness.completion() else { return XCTFail("no redirect completed") }
        let accepted = try XCTUnwrap(statuses.firstIndex(of: 200))
        XCTAssertEqual(response.url, "http://127.0.0.1:\(port)/__/auth/callback?state=the-state&code=c\(accepted)")
        usleep(100_000)
        XCTAssertEqual(harness.results.count, 1)
        XCTAssertTrue(federatedConnectionRefused(port: port))
    }

    func testStatesThatOnlyResembleTheFlowsStateGet400() throws {
        let harness = try makeReceiver()
        let port = harness.port
        let lookalikes = ["THE-STATE", "the-stat", "the-state-", "xthe-state", "the-state%00", "%20the-state",
                          "the-state%0A", "", "the-state,the-state"]
        for state in lookalikes {
            XCTAssertEqual(federatedGet(port: port, "/__/auth/callback?state=\(state)&code=c")?.status, 400, "state \(state)")
        }
        XCTAssertEqual(federatedGet(port: port, "/__/auth/callback?State=the-state&code=c")?.status, 400, "parameter name case")
        XCTAssertEqual(harness.results.count, 0)
        XCTAssertTrue(harness.isWaiting)
        XCTAssertEqual(federatedGet(port: port, "/__/auth/callback?state=the-state&code=c")?.status, 200)
        XCTAssertNotNil(harness.completion())
    }

    func testNoAddressOfThisMachineButLoopbackReachesTheReceiver() throws {
        let harness = try makeReceiver()
        let addresses = machineAddresses()
        for address in addresses {
            XCTAssertTrue(federatedConnectionRefused(host: address, port: harness.port), "reachable on \(address)")
        }
        XCTAssertTrue(harness.isWaiting)
        XCTAssertEqual(federatedGet(port: harness.port, "/__/auth/callback?state=the-state")?.status, 200)
    }

    /// This machine's IPv4 and IPv6 addresses other than 127.0.0.1 (link-local IPv6 left out: it
    /// needs a scope id to connect to).
    private func machineAddresses() -> [String] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return [] }
        defer { freeifaddrs(list) }
        var addresses: [String] = []
        var cursor = list
        while let entry = cursor {
            defer { cursor = entry.pointee.ifa_next }
            guard let address = entry.pointee.ifa_addr else { continue }
            let family = Int32(address.pointee.sa_family)
            guard family == AF_INET || family == AF_INET6 else { continue }
            var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            let length = socklen_t(family == AF_INET ? MemoryLayout<sockaddr_in>.size : MemoryLayout<sockaddr_in6>.size)
            guard getnameinfo(address, length, &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST) == 0 else { continue }
            let text = String(cString: host)
            if text == "127.0.0.1" || text.hasPrefix("fe80") || text.contains("%") { continue }
            addresses.append(text)
        }
        return addresses
    }
}
