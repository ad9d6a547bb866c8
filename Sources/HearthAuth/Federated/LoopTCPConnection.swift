import CLibUV
import HearthTransport

/// One accepted TCP connection on an `EventLoop` (`uv_tcp_t`). Loop thread only.
///
/// Ref'd while open: a connection is a request in flight (bounded by its owner's deadline), which a
/// host's `uv_run(UV_RUN_DEFAULT)` must see through, like the transport's transfers.
/// Owned by whoever accepted it, which closes it; libuv's close callback ends its life.
final class LoopTCPConnection {
    /// What a read delivered.
    enum ReadEvent {
        case bytes(ArraySlice<UInt8>)
        /// The peer closed its side.
        case end
        /// A libuv error (negative code).
        case failed(Int32)
    }

    private static let readBufferSize = 4096

    private let loop: EventLoop
    private var handle: UnsafeMutablePointer<uv_tcp_t>?
    private var onRead: ((ReadEvent) -> Void)?
    /// libuv reads into this; one read at a time per stream, so one buffer suffices. Freed in
    /// deinit, which cannot come before the close callback (the handle retains this object).
    private let readBuffer = UnsafeMutableRawPointer.allocate(byteCount: readBufferSize, alignment: 1)

    init(loop: EventLoop) throws(LoopError) {
        self.loop = loop
        let handle = UVHandle.allocate(uv_tcp_t.self)
        let rc = uv_tcp_init(loop.uvLoop, handle)
        guard rc == 0 else {
            UVHandle.free(handle)
            readBuffer.deallocate()
            throw LoopError(operation: "uv_tcp_init", code: rc)
        }
        UVHandle.retain(self, in: handle)
        UVHandle.setKeepsLoopAlive(handle, true)
        self.handle = handle
    }

    deinit {
        readBuffer.deallocate()
    }

    func accept(from server: UnsafeMutablePointer<uv_stream_t>) -> Bool {
        guard let handle else { return false }
        guard uv_accept(server, stream(handle)) == 0 else { return false }
        // The responses are one small write; don't let Nagle hold back its last segment.
        uv_tcp_nodelay(handle, 1)
        return true
    }

    /// Starts delivering reads to `onRead` until `stopReading` or `close`.
    @discardableResult
    func startReading(_ onRead: @escaping (ReadEvent) -> Void) -> Bool {
        guard let handle else { return false }
        self.onRead = onRead
        return uv_read_start(stream(handle), { handle, _, buffer in
            guard let buffer, let connection = UVHandle.owner(LoopTCPConnection.self, of: handle) else { return }
            buffer.pointee = uv_buf_init(connection.readBuffer.assumingMemoryBound(to: CChar.self),
                                         UInt32(LoopTCPConnection.readBufferSize))
        }, { stream, count, buffer in
            UVHandle.owner(LoopTCPConnection.self, of: stream)?.delivered(count: count, buffer: buffer)
        }) == 0
    }

    func stopReading() {
        onRead = nil
        guard let handle else { return }
        uv_read_stop(stream(handle))
    }

    /// Queues `bytes`; `completion` gets 0 once the kernel has them, or a libuv error (`UV_ECANCELED`
    /// when the connection is closed first: then it runs just before the close callback). It runs
    /// exactly once, inline only if the write could not be queued.
    func write(_ bytes: [UInt8], completion: @escaping (Int32) -> Void) {
        guard let handle else { return completion(UV_ECANCELED.rawValue) }
        let request = WriteRequest(bytes: bytes, completion: completion)
        let context = Unmanaged.passRetained(request)
        request.request.pointee.data = context.toOpaque()
        var buffer = uv_buf_init(request.bytes.assumingMemoryBound(to: CChar.self), UInt32(request.count))
        let rc = uv_write(request.request, stream(handle), &buffer, 1) { request, status in
            guard let data = request?.pointee.data else { return }
            Unmanaged<WriteRequest>.fromOpaque(data).takeRetainedValue().completion(status)
        }
        if rc != 0 {
            context.release()
            completion(rc)
        }
    }

    /// Sends FIN after queued writes; `completion` as for `write`.
    func shutdownWriting(completion: @escaping (Int32) -> Void) {
        guard let handle else { return completion(UV_ECANCELED.rawValue) }
        let request = ShutdownRequest(completion: completion)
        let context = Unmanaged.passRetained(request)
        request.request.pointee.data = context.toOpaque()
        let rc = uv_shutdown(request.request, stream(handle)) { request, status in
            guard let data = request?.pointee.data else { return }
            Unmanaged<ShutdownRequest>.fromOpaque(data).takeRetainedValue().completion(status)
        }
        if rc != 0 {
            context.release()
            completion(rc)
        }
    }

    var isClosed: Bool { handle == nil }

    /// Idempotent. Pending write and shutdown completions run with `UV_ECANCELED` just before the
    /// close callback.
    func close() {
        guard let handle else { return }
        self.handle = nil
        onRead = nil
        UVHandle.close(handle)
    }

    private func delivered(count: Int, buffer: UnsafePointer<uv_buf_t>?) {
        loop.noteCallbackThread()
        let onRead = self.onRead
        if count > 0 {
            let bytes = UnsafeRawBufferPointer(start: readBuffer, count: count)
            onRead?(.bytes(ArraySlice(bytes)))
        } else if count == Int(UV_EOF.rawValue) {
            onRead?(.end)
        } else if count < 0 {
            onRead?(.failed(Int32(truncatingIfNeeded: count)))
        }
    }

    private func stream(_ handle: UnsafeMutablePointer<uv_tcp_t>) -> UnsafeMutablePointer<uv_stream_t> {
        LoopTCPListener.stream(handle)
    }
}

/// A `uv_write_t` with its own copy of the bytes, alive until libuv's write callback.
private final class WriteRequest {
    let request = UnsafeMutablePointer<uv_write_t>.allocate(capacity: 1)
    let bytes: UnsafeMutableRawPointer
    let count: Int
    let completion: (Int32) -> Void

    init(bytes: [UInt8], completion: @escaping (Int32) -> Void) {
        let count = bytes.count
        let copy = UnsafeMutableRawPointer.allocate(byteCount: max(count, 1), alignment: 1)
        bytes.withUnsafeBytes { source in
            if let base = source.baseAddress { copy.copyMemory(from: base, byteCount: count) }
        }
        self.count = count
        self.bytes = copy
        self.completion = completion
    }

    deinit {
        request.deallocate()
        bytes.deallocate()
    }
}

/// A `uv_shutdown_t`, alive until libuv's shutdown callback.
private final class ShutdownRequest {
    let request = UnsafeMutablePointer<uv_shutdown_t>.allocate(capacity: 1)
    let completion: (Int32) -> Void

    init(completion: @escaping (Int32) -> Void) {
        self.completion = completion
    }

    deinit {
        request.deallocate()
    }
}
