import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A failed socket call: the errno.
struct FederatedSocketError: Error, Equatable {
    let code: Int32
}

/// A plain blocking TCP client for the loopback receiver's tests: the browser side, byte for byte,
/// with no HTTP library in between (so malformed, partial and oversized requests can be sent).
/// Unchecked Sendable: a test hands a socket to one other thread at a time, never shares it.
final class FederatedTestSocket: @unchecked Sendable {
    let descriptor: Int32
    private var closed = false

    private init(descriptor: Int32) {
        self.descriptor = descriptor
        // Reads give up after 5 s, so a broken receiver fails a test instead of hanging it.
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close() }

    /// Connects to `host` (an IPv4 or IPv6 literal) on `port`; the errno on failure.
    static func connect(host: String = "127.0.0.1", port: UInt16) -> Result<FederatedTestSocket, FederatedSocketError> {
        let isIPv6 = host.contains(":")
        let descriptor = socket(isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return .failure(FederatedSocketError(code: errno)) }
        let rc: Int32
        if isIPv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            inet_pton(AF_INET6, host, &address.sin6_addr)
            rc = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            inet_pton(AF_INET, host, &address.sin_addr)
            rc = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        guard rc == 0 else {
            let error = FederatedSocketError(code: errno)
            Glibc.close(descriptor)
            return .failure(error)
        }
        return .success(FederatedTestSocket(descriptor: descriptor))
    }

    /// Sends everything; false if the peer closed or reset first.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0 && errno == EINTR { continue }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    @discardableResult
    func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Reads until the peer closes (or 5 s pass without data, or the connection is reset).
    func readToEnd() -> [UInt8] {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return received }
            received.append(contentsOf: chunk[..<count])
        }
    }

    /// What has arrived so far, without waiting.
    func receivedSoFar() -> [UInt8] {
        var chunk = [UInt8](repeating: 0, count: 4096)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        return count > 0 ? Array(chunk[..<count]) : []
    }

    /// Whether the peer has closed the connection (EOF or reset) within `seconds`.
    func peerClosed(within seconds: Int) -> Bool {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var byte: UInt8 = 0
        while true {
            let count = recv(descriptor, &byte, 1, 0)
            if count < 0 && errno == EINTR { continue }
            if count == 0 { return true }
            if count < 0 { return errno == ECONNRESET }
        }
    }

    func close() {
        guard !closed else { return }
        closed = true
        Glibc.close(descriptor)
    }
}

/// An HTTP/1.1 response as the tests read it.
struct FederatedTestResponse {
    let status: Int
    let headers: [String: String]
    let body: String

    /// nil unless `bytes` hold a status line, headers and the empty line.
    init?(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else { return nil }
        let lines = text[..<split.lowerBound].components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, statusParts[0] == "HTTP/1.1", let status = Int(statusParts[1]) else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { return nil }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        self.status = status
        self.headers = headers
        self.body = String(text[split.upperBound...])
    }
}

/// Sends `request` to 127.0.0.1:`port` on a new connection and reads the whole response.
func federatedExchange(port: UInt16, _ request: String) -> FederatedTestResponse? {
    guard case .success(let socket) = FederatedTestSocket.connect(port: port) else { return nil }
    defer { socket.close() }
    socket.send(request)
    return FederatedTestResponse(socket.readToEnd())
}

/// A GET of `target` as a browser sends it after the redirect.
func federatedGet(port: UInt16, _ target: String) -> FederatedTestResponse? {
    federatedExchange(port: port, "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUser-Agent: test\r\n"
        + "Accept: text/html\r\nConnection: keep-alive\r\n\r\n")
}

/// Whether a new connection to `host`:`port` is refused (nothing listens there).
func federatedConnectionRefused(host: String = "127.0.0.1", port: UInt16) -> Bool {
    if case .failure(let error) = FederatedTestSocket.connect(host: host, port: port) {
        return [ECONNREFUSED, ENETUNREACH, EADDRNOTAVAIL].contains(error.code)
    }
    return false
}

/// A socket listening on 127.0.0.1 (port 0: any free one), to make a port busy.
final class FederatedPortBlocker {
    let descriptor: Int32
    let port: UInt16

    init?(port: UInt16 = 0, listening: Bool = true) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, !listening || listen(descriptor, 4) == 0 else {
            Glibc.close(descriptor)
            return nil
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        self.descriptor = descriptor
        self.port = UInt16(bigEndian: actual.sin_port)
    }

    deinit { Glibc.close(descriptor) }
}

/// A port on 127.0.0.1 that was free a moment ago (the socket that found it is closed on return).
func federatedFreePort() -> UInt16? {
    FederatedPortBlocker(listening: false)?.port
}
