import CLibUV
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import HearthTransport

/// A listening TCP socket on an `EventLoop` (`uv_tcp_t`), bound to 127.0.0.1 only. Loop thread only.
///
/// Owned by whoever made it (the loopback receiver), which closes it; it is not registered with the
/// loop on its own. The handle follows `UVHandle`'s rules: the object lives until libuv's close
/// callback.
final class LoopTCPListener {
    private let loop: EventLoop
    private var handle: UnsafeMutablePointer<uv_tcp_t>?
    private var onConnection: ((LoopTCPConnection) -> Void)?

    /// Throws libuv's error if it cannot set up the handle.
    init(loop: EventLoop) throws(LoopError) {
        self.loop = loop
        let handle = UVHandle.allocate(uv_tcp_t.self)
        let rc = uv_tcp_init(loop.uvLoop, handle)
        guard rc == 0 else {
            UVHandle.free(handle)
            throw LoopError(operation: "uv_tcp_init", code: rc)
        }
        UVHandle.retain(self, in: handle)
        // Waiting for a browser is idle time: it keeps an owned loop alive, never a host's
        // uv_run(UV_RUN_DEFAULT) unless the host asked for that (EventLoop's idle rule).
        UVHandle.setKeepsLoopAlive(handle, loop.idleHandlesKeepLoopAlive)
        self.handle = handle
    }

    /// Binds to 127.0.0.1:`port` (0: a free port the system picks) and starts listening.
    /// `onConnection` gets each accepted connection. Throws libuv's error (`UV_EADDRINUSE`,
    /// `UV_EACCES`, ...); libuv reports a port in use from either step, depending on the platform.
    func listen(port: UInt16, backlog: Int32, onConnection: @escaping (LoopTCPConnection) -> Void) throws(LoopError) {
        guard let handle else { throw LoopError(operation: "uv_tcp_bind", code: UV_EBADF.rawValue) }
        var address = sockaddr_in()
        let parsed = uv_ip4_addr("127.0.0.1", Int32(port), &address)
        guard parsed == 0 else { throw LoopError(operation: "uv_ip4_addr", code: parsed) }
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { uv_tcp_bind(handle, $0, 0) }
        }
        guard bound == 0 else { throw LoopError(operation: "uv_tcp_bind", code: bound) }
        self.onConnection = onConnection
        let listening = uv_listen(Self.stream(handle), backlog) { stream, status in
            UVHandle.owner(LoopTCPListener.self, of: stream)?.accept(status: status)
        }
        guard listening == 0 else {
            self.onConnection = nil
            throw LoopError(operation: "uv_listen", code: listening)
        }
    }

    /// The address the socket is bound to, as the operating system reports it.
    var localAddress: (host: String, port: UInt16)? {
        guard let handle else { return nil }
        var storage = sockaddr_storage()
        var length = Int32(MemoryLayout<sockaddr_storage>.size)
        let rc = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { uv_tcp_getsockname(handle, $0, &length) }
        }
        guard rc == 0, Int32(storage.ss_family) == AF_INET else { return nil }
        return withUnsafePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address -> (host: String, port: UInt16)? in
                var name = [CChar](repeating: 0, count: 64)
                guard uv_ip4_name(address, &name, name.count) == 0 else { return nil }
                let host = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                return (host, UInt16(bigEndian: address.pointee.sin_port))
            }
        }
    }

    var isClosed: Bool { handle == nil }

    /// Stops listening at once: the socket is closed before this returns, so new connections are
    /// refused from then on. Idempotent.
    func close() {
        guard let handle else { return }
        self.handle = nil
        onConnection = nil
        UVHandle.close(handle)
    }

    private func accept(status: Int32) {
        loop.noteCallbackThread()
        guard status == 0, let handle, let connection = try? LoopTCPConnection(loop: loop) else { return }
        guard connection.accept(from: Self.stream(handle)) else {
            connection.close()
            return
        }
        let onConnection = self.onConnection
        onConnection?(connection)
    }

    static func stream(_ handle: UnsafeMutablePointer<uv_tcp_t>) -> UnsafeMutablePointer<uv_stream_t> {
        UnsafeMutableRawPointer(handle).assumingMemoryBound(to: uv_stream_t.self)
    }
}
