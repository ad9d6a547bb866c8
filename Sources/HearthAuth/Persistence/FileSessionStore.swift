#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Persistence "file": one JSON file per app in a private directory. A save never leaves a torn
/// file: it writes a temporary file, fsyncs it, renames it over the old one and fsyncs the directory,
/// so after a crash the file holds either the old or the new session.
package final class FileSessionStore: SessionStore {
    package let directory: String
    package let path: String
    /// Sessions are small; anything larger is not ours.
    static let maximumSize = 1 << 20

    package init(directory: String, fileName: String) {
        self.directory = directory
        self.path = directory + "/" + fileName
    }

    /// `$XDG_DATA_HOME/hearth`, else `$HOME/.local/share/hearth`, else the working directory's
    /// `.hearth`.
    package static func defaultDirectory() -> String {
        if let xdg = getenv("XDG_DATA_HOME"), xdg.pointee != 0 { return String(cString: xdg) + "/hearth" }
        if let home = getenv("HOME"), home.pointee != 0 { return String(cString: home) + "/.local/share/hearth" }
        return ".hearth"
    }

    package func load() -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
            if bytes.count > Self.maximumSize { return nil }
        }
        return bytes
    }

    package func save(_ bytes: [UInt8]) throws(SessionStoreError) {
        try makeDirectory()
        removeTemporariesOfDeadProcesses()
        let temp = path + ".tmp-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if fd < 0 { throw failure("cannot create \(temp)") }
        var ok = writeAll(fd, bytes) && fsync(fd) == 0
        ok = (close(fd) == 0) && ok
        if !ok || rename(temp, path) != 0 {
            let error = failure("cannot write \(path)")
            unlink(temp)
            throw error
        }
        syncDirectory()
    }

    package func erase() throws(SessionStoreError) {
        if unlink(path) != 0 && errno != ENOENT { throw failure("cannot remove \(path)") }
        syncDirectory()
    }

    private func makeDirectory() throws(SessionStoreError) {
        var prefix = directory.hasPrefix("/") ? "" : "."
        for component in directory.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o700) != 0 && errno != EEXIST { throw failure("cannot create \(prefix)") }
        }
    }

    private func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += n
        }
        return true
    }

    /// A process killed between writing its temporary file and renaming it leaves the file behind.
    /// Temporaries name their process (`<file>.tmp-<pid>-<random>`): those of processes that no longer
    /// exist are removed; a live process saving the same session keeps its own.
    private func removeTemporariesOfDeadProcesses() {
        guard let dir = opendir(directory) else { return }
        defer { closedir(dir) }
        let fileName = String(path.dropFirst(directory.count + 1))
        let prefix = fileName + ".tmp-"
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            guard name.hasPrefix(prefix),
                  let pid = Int32(name.dropFirst(prefix.count).prefix { $0 != "-" }),
                  pid != getpid(), kill(pid, 0) == -1, errno == ESRCH else { continue }
            unlink(directory + "/" + name)
        }
    }

    /// Makes the rename itself durable.
    private func syncDirectory() {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd >= 0 {
            fsync(fd)
            close(fd)
        }
    }

    private func failure(_ what: String) -> SessionStoreError {
        SessionStoreError("\(what): \(String(cString: strerror(errno)))")
    }
}
