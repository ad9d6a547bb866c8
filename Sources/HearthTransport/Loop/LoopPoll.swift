import CLibUV

/// Readiness events on one socket (`uv_poll_t`), for the transport's sockets. Loop thread only.
///
/// Identity matters more than the descriptor: the operating system reuses a closed socket's number
/// at once, so per-socket state hangs off this object, and a late close of an old poll cannot touch
/// a new socket's state. (A table keyed by descriptor is sound only if an entry leaves it before its
/// descriptor is closed: see `CurlMulti`.)
final class LoopPoll: LoopOwnedHandle {
    let socket: Int32
    private let loop: EventLoop
    private var handle: UnsafeMutablePointer<uv_poll_t>?
    private var callback: ((_ status: Int32, _ events: Int32) -> Void)?
    /// The events being watched (0 before `start` and after `stop`).
    private(set) var watchedEvents: Int32 = 0
    /// Error reports (status < 0) in a row, counting the one being delivered; 0 after a success.
    private(set) var errorsInARow = 0
    /// Parked: nobody wants events, but the poll still watches `watchedEvents` (see `park`).
    private(set) var isParked = false
    /// Whether `park` may keep the registration. Only the owner can know that the descriptor will not
    /// be closed behind its back (closing it drops the kernel's registration while libuv still counts
    /// the poll as watching, and a new socket with the same number would never report readiness).
    var mayPark = false

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

    /// What runs when the socket is ready: libuv's status (< 0 on error) and the ready events. Kept
    /// across `stop` and `start`.
    func onReady(_ callback: @escaping (_ status: Int32, _ events: Int32) -> Void) {
        self.callback = callback
    }

    /// Watches for `events` (`UV_READABLE` / `UV_WRITABLE` bits), replacing the previous set; false
    /// if libuv refuses or the poll is closed.
    @discardableResult
    func start(events: Int32) -> Bool {
        guard let handle else { return false }
        if isParked {
            isParked = false
            if events == watchedEvents, uv_is_active(UVHandle.base(handle)) != 0 {
                return true
            }
        }
        watchedEvents = events
        return uv_poll_start(handle, events, { handle, status, events in
            UVHandle.owner(LoopPoll.self, of: handle)?.fire(status: status, events: events)
        }) == 0
    }

    /// Watches the same events again, unless stopped or parked since: libuv stops a poll when it
    /// reports an error on it.
    @discardableResult
    func restart() -> Bool {
        guard watchedEvents != 0, !isParked else { return false }
        return start(events: watchedEvents)
    }

    /// Watches nothing until the next `start`; no callback runs meanwhile (libuv drops events it
    /// has already read for the socket).
    func stop() {
        guard let handle else { return }
        isParked = false
        uv_poll_stop(handle)
        watchedEvents = 0
        errorsInARow = 0
    }

    /// Like `stop` for the caller (no callback runs until the next `start`); if `mayPark`, the
    /// registration with the kernel stays until the socket next reports readiness, which then stops
    /// the poll. Every libuv start or stop of a poll costs an `epoll_ctl` (a start first deletes, even
    /// when nothing is registered): a kept-alive socket that curl reports removed after each transfer
    /// and wants read again by the next one costs none this way.
    func park() {
        guard mayPark, handle != nil, watchedEvents != 0 else { return stop() }
        isParked = true
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
        // Readiness nobody asked for (a parked socket the server closed, or a late answer): the
        // next `start` registers the socket again and level-triggered polling reports it anew.
        if isParked { return stop() }
        errorsInARow = status < 0 ? errorsInARow + 1 : 0
        let callback = self.callback
        callback?(status, events)
    }
}
