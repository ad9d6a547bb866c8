import CLibUV

/// Readiness events on one socket (`uv_poll_t`), for the transport's sockets. Loop thread only.
///
/// Identity matters more than the descriptor: the operating system reuses a closed socket's number
/// at once, so per-socket state hangs off this object (never a table keyed by fd), and a late
/// close of an old poll cannot touch a new socket's state.
final class LoopPoll: LoopOwnedHandle {
    let socket: Int32
    private let loop: EventLoop
    private var handle: UnsafeMutablePointer<uv_poll_t>?
    private var callback: ((_ status: Int32, _ events: Int32) -> Void)?
    /// The events of the last `start` (0 before it).
    private(set) var watchedEvents: Int32 = 0
    /// Error reports (status < 0) in a row, counting the one being delivered; 0 after a success.
    private(set) var errorsInARow = 0

    /// Creates an unref'd poll for `socket`; returns nil if libuv refuses it (loop shut down, bad fd).
    init?(loop: EventLoop, socket: Int32) {
        self.socket = socket
        self.loop = loop
        let handle = UVHandle.allocate(uv_poll_t.self)
        guard uv_poll_init_socket(loop.uvLoop, handle, socket) == 0 else {
            UVHandle.free(handle)
            return nil
        }
        UVHandle.retain(self, in: handle)
        UVHandle.setKeepsLoopAlive(handle, false)
        self.handle = handle
    }

    /// Watches for `events` (`UV_READABLE` / `UV_WRITABLE` bits), replacing the previous set.
    /// `callback` gets libuv's status (< 0 on error) and the ready events.
    @discardableResult
    func start(events: Int32, _ callback: @escaping (_ status: Int32, _ events: Int32) -> Void) -> Bool {
        guard let handle else { return false }
        self.callback = callback
        watchedEvents = events
        return uv_poll_start(handle, events, { handle, status, events in
            UVHandle.owner(LoopPoll.self, of: handle)?.fire(status: status, events: events)
        }) == 0
    }

    /// Watches the same events with the same callback again: libuv stops a poll when it reports
    /// an error on it.
    @discardableResult
    func restart() -> Bool {
        start(events: watchedEvents)
    }

    /// Watches for `events` with the callback the last `start` gave (false if there was none).
    @discardableResult
    func start(events: Int32) -> Bool {
        guard let callback else { return false }
        return start(events: events, callback)
    }

    func stop() {
        guard let handle else { return }
        uv_poll_stop(handle)
    }

    var keepsLoopAlive: Bool = false {
        didSet {
            guard let handle, keepsLoopAlive != oldValue else { return }
            UVHandle.setKeepsLoopAlive(handle, keepsLoopAlive)
        }
    }

    var isClosed: Bool { handle == nil }

    func close() {
        guard let handle else { return }
        self.handle = nil
        callback = nil
        loop.unregister(self)
        UVHandle.close(handle)
    }

    private func fire(status: Int32, events: Int32) {
        loop.noteCallbackThread()
        errorsInARow = status < 0 ? errorsInARow + 1 : 0
        let callback = self.callback
        callback?(status, events)
    }
}
