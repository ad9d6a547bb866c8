#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Human-readable messages on stderr. Request bodies, tokens and passwords are never logged; the
/// action links the emulator "emails" are, because reading them from the log is how a developer
/// follows them (as with Firebase's emulator).
///
/// Lines keep the shape swift-log's stream handler gave them (`2026-11-27T03:40:16+0000 info
/// hearth-emulator: [HearthEmulator] message`), so anything reading the log reads it as before.
struct EmulatorLog: Sendable {
    enum Level: Int, Sendable {
        case debug, info, warning

        var name: String {
            switch self {
            case .debug: "debug"
            case .info: "info"
            case .warning: "warning"
            }
        }
    }

    /// Messages below it are dropped; nil drops everything.
    private let threshold: Level?

    /// Info and warnings on stderr.
    static let standardError = EmulatorLog(threshold: .info)
    static let discarding = EmulatorLog(threshold: nil)

    // Autoclosures: a message below the log level (every request's debug line) is never built.
    func info(_ message: @autoclosure () -> String) { log(.info, message) }
    func warning(_ message: @autoclosure () -> String) { log(.warning, message) }
    func debug(_ message: @autoclosure () -> String) { log(.debug, message) }

    private func log(_ level: Level, _ message: () -> String) {
        guard let threshold, level.rawValue >= threshold.rawValue else { return }
        let line = "\(Self.timestamp()) \(level.name) hearth-emulator: [HearthEmulator] \(message())\n"
        // One line at a time, whole: lines from different event loops never interleave.
        Self.writing.withLock { _ in
            var line = line
            line.withUTF8 { bytes in
                var offset = 0
                while offset < bytes.count {
                    let written = write(2, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
                    if written > 0 {
                        offset += written
                    } else if written < 0 && errno == EINTR {
                        continue
                    } else {
                        return
                    }
                }
            }
        }
    }

    private static let writing = Mutex(())

    private static func timestamp() -> String {
        var now = time(nil)
        var local = tm()
        guard localtime_r(&now, &local) != nil else { return "" }
        var buffer = [CChar](repeating: 0, count: 64)
        let length = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S%z", &local)
        return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
