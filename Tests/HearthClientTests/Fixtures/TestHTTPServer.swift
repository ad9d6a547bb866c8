import Foundation

/// Runs `http_test_server.py` (next to this file) as a child process for the transport tests.
/// The child exits when its stdin closes, so it cannot outlive the test process.
final class TestHTTPServer {
    let port: Int
    let scheme: String
    private let process: Process
    private let input: Pipe

    static let fixturesDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

    struct StartError: Error, CustomStringConvertible {
        let description: String
    }

    /// `certificate`: a `TestPKI` certificate name ("valid", "expired", ...) to serve HTTPS with;
    /// nil serves plain HTTP.
    init(certificate: String? = nil, pki: TestPKI? = nil) throws {
        let script = Self.fixturesDirectory.appendingPathComponent("http_test_server.py").path
        var arguments = ["python3", script]
        if let certificate {
            guard let pki else { throw StartError(description: "a certificate needs a TestPKI") }
            arguments += ["--tls", pki.path(certificate + ".pem"), pki.path(certificate + ".key")]
        }
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        scheme = certificate == nil ? "http" : "https"

        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        guard let text = String(data: line, encoding: .utf8),
              let port = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.terminate()
            throw StartError(description: "test HTTP server did not report a port (python3 missing?)")
        }
        self.port = port
    }

    func url(_ path: String) -> String { "\(scheme)://127.0.0.1:\(port)\(path)" }

    func stop() {
        guard process.isRunning else { return }
        try? input.fileHandleForWriting.close()
        process.terminate()
        process.waitUntilExit()
    }

    deinit { stop() }
}

/// A throwaway PKI made by `make_test_pki.sh` (next to this file; see it for the certificates) in a
/// temporary directory, dated from this machine's clock. `remove()` deletes it.
final class TestPKI {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("hearth-test-pki-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [TestHTTPServer.fixturesDirectory.appendingPathComponent("make_test_pki.sh").path,
                             directory.path]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw TestHTTPServer.StartError(description: "make_test_pki.sh failed (openssl missing?)")
        }
    }

    func path(_ file: String) -> String { directory.appendingPathComponent(file).path }

    /// The bundle a client is told to trust: the test root CA only.
    var caBundlePath: String { path("ca.pem") }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}

/// A loopback port with nothing listening: bound, then released.
func unusedLoopbackPort() -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
    }
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    return Int(UInt16(bigEndian: address.sin_port))
}

/// Kernel ids of this process's threads right now (entries of /proc/self/task), leaving out
/// libdispatch's workers: XCTest and Foundation start and retire those at any time (names like
/// "r-initiated-qos", "-qos.overcommit"), and the client never uses dispatch. Compared as sets.
func processThreadIDs() -> Set<String> {
    let ids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
    return Set(ids.filter { id in
        let name = (try? String(contentsOfFile: "/proc/self/task/\(id)/comm", encoding: .utf8)) ?? ""
        return !name.contains("qos")
    })
}

/// The name the kernel shows for one of this process's threads.
func threadName(_ id: String) -> String {
    ((try? String(contentsOfFile: "/proc/self/task/\(id)/comm", encoding: .utf8)) ?? "?")
        .trimmingCharacters(in: .whitespacesAndNewlines)
}

/// The calling thread's kernel id, as it appears in /proc/self/task.
func currentThreadID() -> String {
    // /proc/thread-self links to "<pid>/task/<tid>".
    ((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")) ?? "")
        .split(separator: "/").last.map(String.init) ?? ""
}

func threadIsAlive(_ id: String) -> Bool {
    FileManager.default.fileExists(atPath: "/proc/self/task/\(id)")
}

/// A thread-safe record of what callbacks saw, for assertions from the test thread.
final class Recorder<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Value] = []

    func append(_ value: Value) { lock.withLock { storage.append(value) } }
    var values: [Value] { lock.withLock { storage } }
    var count: Int { lock.withLock { storage.count } }
}

/// Polls `condition` until it holds or `seconds` pass; returns whether it held.
func eventually(within seconds: Double, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        usleep(2_000)
    }
    return condition()
}
