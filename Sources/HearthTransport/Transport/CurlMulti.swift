import CCurl
import CHearthShims
import CLibUV
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// libcurl's multi-socket engine, driven by an `EventLoop`: one `LoopPoll` per socket curl asks
/// to watch, one `LoopTimer` for curl's timeouts. Loop thread only.
///
/// Rules that keep this sound (each one was a crash somewhere):
/// - curl's socket and timer callbacks only (re)arm polls and the timer; `curl_multi_socket_action`
///   is called only from the loop's poll and timer callbacks, never from inside curl.
/// - Per-socket state is the `LoopPoll` object, handed to curl with `curl_multi_assign`. Polls are
///   also kept by descriptor, for the socket's lifetime: curl reports a kept-alive connection's
///   socket removed after every transfer and added again by the next one, and a new `uv_poll_t`
///   each time cost libuv three system calls (a non-blocking `ioctl` and a trial `epoll_ctl`
///   add/delete) on top of the watch itself. The table is sound because curl closes every
///   connection's socket through `CURLOPT_CLOSESOCKETFUNCTION` (`socketClosing`), which takes the
///   entry out and closes the poll before the descriptor is closed, so its number cannot come back
///   while an entry holds it. A socket curl closes some other way (the threaded resolver's wake-up
///   pipe) leaves a stopped poll behind, which the next socket with that number takes over: a
///   stopped poll is out of epoll and has no callback pending. Only polls of connection sockets are
///   parked (left registered) between transfers, and only once a transfer on them has finished
///   (`confirmConnection`): curl closes a socket whose connect it abandons (a transfer cancelled
///   while connecting) without the close-socket callback.
/// - Finished transfers are drained completely from `curl_multi_info_read` before anyone is told,
///   because whoever is told may add requests or close everything.
final class CurlMulti {
    /// A transfer curl reports as done: its easy handle and curl's result code.
    typealias Finished = (easy: UnsafeMutableRawPointer, code: CURLcode)

    private let loop: EventLoop
    /// The `CURLM *`; nil once closed.
    private var multi: UnsafeMutableRawPointer?
    /// Every poll made for curl, running or stopped, by its socket (see the type's comment).
    private var polls: [curl_socket_t: LoopPoll] = [:]
    /// Sockets curl opened for connections (`socketOpened`) that no finished transfer has used yet.
    /// While there are any, each finished transfer is asked for its socket; once every connection has
    /// carried one, nobody is asked (`CURLINFO_ACTIVESOCKET` walks the whole connection cache: ~1,200
    /// instructions per request with 64 connections, bench, issue 5). An entry of a socket curl closed
    /// behind our back lingers until a socket with its number is confirmed or closed: it costs
    /// those questions, never a wrong answer.
    private var unconfirmedSockets = Set<curl_socket_t>()
    /// Set when the loop's handles are no longer ours to touch (teardown off the loop thread): curl
    /// may still close sockets, which then only closes the descriptors.
    private var loopDetached = false
    private var timer: LoopTimer?
    private let onFinished: ([Finished]) -> Void
    /// `drive`'s list of finished transfers, kept with its capacity between turns (an allocation per
    /// turn otherwise; `drive` is never re-entered).
    private var finishedScratch: [Finished] = []

    /// Whether the polls and the timer keep `uv_run(UV_RUN_DEFAULT)` alive. The transport sets
    /// this while requests are in flight (a host running its loop until idle must see them
    /// finish) and clears it when idle (cached keep-alive connections must not pin the loop).
    var keepsLoopAlive = false {
        didSet {
            guard keepsLoopAlive != oldValue else { return }
            timer?.keepsLoopAlive = keepsLoopAlive
            for poll in polls.values { poll.keepsLoopAlive = keepsLoopAlive }
        }
    }

    /// Polls left registered while curl has no transfer on their socket (tests).
    var parkedPollCount: Int { polls.values.filter(\.isParked).count }

    init(loop: EventLoop, maxConnectionsPerHost: Int, onFinished: @escaping ([Finished]) -> Void) throws {
        guard let multi = curl_multi_init() else { throw TransportSetupError.curl("curl_multi_init failed") }
        self.loop = loop
        self.multi = multi
        self.onFinished = onFinished
        // Unretained: curl calls back only during curl_multi_* calls made through this object.
        let context = Unmanaged.passUnretained(self).toOpaque()
        hearth_curl_multi_setopt_socket_cb(multi) { _, socket, what, context, socketContext in
            guard let context else { return -1 }
            return Unmanaged<CurlMulti>.fromOpaque(context).takeUnretainedValue()
                .socketChanged(socket, what: what, poll: socketContext)
        }
        hearth_curl_multi_setopt_ptr(multi, CURLMOPT_SOCKETDATA, context)
        hearth_curl_multi_setopt_timer_cb(multi) { _, timeoutMs, context in
            guard let context else { return -1 }
            return Unmanaged<CurlMulti>.fromOpaque(context).takeUnretainedValue().timerChanged(timeoutMs)
        }
        hearth_curl_multi_setopt_ptr(multi, CURLMOPT_TIMERDATA, context)
        // Requests beyond this many connections to one host wait in curl's queue for one to be free
        // (connections are kept alive and reused) instead of each opening a socket: 10,000 sign-ins at
        // once would otherwise need 10,000 descriptors (past a 1,024 limit they fail) and a server
        // that accepts 10,000 connections in a burst. Per host, so a stalled host (a provider's token
        // endpoint) never holds up requests to another. 0: no limit.
        hearth_curl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, maxConnectionsPerHost)
        // curl's default cache size is four connections per easy handle in the multi at that moment:
        // when a batch of finished transfers leaves the multi before the next requests join it, the
        // cache shrinks below the connections in use and closes kept-alive ones only to open new ones
        // (bench: ~1 connection in 11 sign-ins with 64 in flight). Room for the per-host limit on the
        // two hosts every user talks to (Identity Toolkit and Secure Token).
        if maxConnectionsPerHost > 0 {
            hearth_curl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, 2 * maxConnectionsPerHost)
        }
    }

    /// Off the loop thread (the transport was dropped without `close` after the loop shut down):
    /// free curl's state without touching any uv handle; the loop closes those itself.
    deinit {
        guard let multi else { return }
        loopDetached = true
        hearth_curl_multi_setopt_socket_cb(multi, nil)
        hearth_curl_multi_setopt_timer_cb(multi, nil)
        curl_multi_cleanup(multi)
    }

    func add(_ easy: CurlEasy) -> CURLMcode {
        guard let multi else { return CURLM_BAD_HANDLE }
        // Every handle that joins must carry them: a connection keeps the close-socket callback of the
        // handle that opened it. Set once per handle (a handle only ever joins this multi: the
        // transport's pool), and again after a reset, which drops them (`CurlEasy.reset`): four
        // setopts per request otherwise. Unretained: connections live in this multi's cache and are
        // all closed by `curl_multi_cleanup`, which runs before this object is gone.
        if !easy.hasMultiCallbacks {
            _ = hearth_curl_easy_setopt_closesocket_cb(easy.handle) { context, socket in
                guard let context else { return closeDescriptor(socket) }
                return Unmanaged<CurlMulti>.fromOpaque(context).takeUnretainedValue().socketClosing(socket)
            }
            _ = hearth_curl_easy_setopt_ptr(easy.handle, CURLOPT_CLOSESOCKETDATA, Unmanaged.passUnretained(self).toOpaque())
            _ = hearth_curl_easy_setopt_sockopt_cb(easy.handle) { context, socket, purpose in
                if let context {
                    Unmanaged<CurlMulti>.fromOpaque(context).takeUnretainedValue().socketOpened(socket, purpose)
                }
                return Int32(CURL_SOCKOPT_OK)
            }
            _ = hearth_curl_easy_setopt_ptr(easy.handle, CURLOPT_SOCKOPTDATA, Unmanaged.passUnretained(self).toOpaque())
            easy.hasMultiCallbacks = true
        }
        return curl_multi_add_handle(multi, easy.handle)
    }

    func remove(_ easy: UnsafeMutableRawPointer) {
        guard let multi else { return }
        curl_multi_remove_handle(multi, easy)
    }

    /// Stops curl from calling into the loop, for teardown off the loop thread.
    func detachFromLoop() {
        guard let multi else { return }
        loopDetached = true
        hearth_curl_multi_setopt_socket_cb(multi, nil)
        hearth_curl_multi_setopt_timer_cb(multi, nil)
    }

    /// Closes cached connections and every poll and the timer. Remove all easy handles first.
    func close() {
        guard let multi else { return }
        // curl may report sockets as removed while it closes its connection cache.
        curl_multi_cleanup(multi)
        self.multi = nil
        for poll in polls.values { poll.close() }
        polls.removeAll()
        timer?.close()
        timer = nil
    }

    // MARK: Called by curl (arm only)

    private func socketChanged(_ socket: curl_socket_t, what: Int32, poll context: UnsafeMutableRawPointer?) -> Int32 {
        if what == CURL_POLL_REMOVE {
            // Parked, not closed: the connection's next transfer watches the socket again, most
            // often for the same events.
            if let context { Unmanaged<LoopPoll>.fromOpaque(context).takeUnretainedValue().park() }
            return 0
        }
        var events: Int32 = 0
        if what & CURL_POLL_IN != 0 { events |= Int32(UV_READABLE.rawValue) }
        if what & CURL_POLL_OUT != 0 { events |= Int32(UV_WRITABLE.rawValue) }
        if let context {
            // A change of interest: the poll keeps the callback it was created with.
            return Unmanaged<LoopPoll>.fromOpaque(context).takeUnretainedValue().start(events: events) ? 0 : -1
        }
        guard let multi, let poll = polls[socket] ?? makePoll(socket) else { return -1 }
        curl_multi_assign(multi, socket, Unmanaged.passUnretained(poll).toOpaque())
        return poll.start(events: events) ? 0 : -1
    }

    /// A poll for a socket curl watches for the first time; `polls` owns it until curl closes the
    /// socket or we close.
    private func makePoll(_ socket: curl_socket_t) -> LoopPoll? {
        guard let poll = loop.makePoll(socket: socket) else { return nil }
        poll.keepsLoopAlive = keepsLoopAlive
        poll.onReady { [weak self, weak poll] status, ready in
            guard let self, let poll else { return }
            self.socketReady(poll, status: status, events: ready)
        }
        polls[socket] = poll
        return poll
    }

    /// curl opened `socket` for a connection (`CURLOPT_SOCKOPTFUNCTION`). Other sockets curl watches
    /// (the threaded resolver's wake-up pipe) never pass here.
    private func socketOpened(_ socket: curl_socket_t, _ purpose: curlsocktype) {
        guard purpose == CURLSOCKTYPE_IPCXN else { return }
        unconfirmedSockets.insert(socket)
        // A poll left behind under this number (a socket closed behind our back) is taken over by the
        // new socket, which has yet to earn parking: stopped, in case its registration outlived the
        // old descriptor in libuv's books.
        if let stale = polls[socket] {
            stale.mayPark = false
            stale.stop()
        }
    }

    /// A connection that carried a transfer to its end is closed only through `socketClosing`, so
    /// its poll may stay registered while curl has removed it between transfers (`LoopPoll.park`).
    private func confirmConnection(of easy: UnsafeMutableRawPointer) {
        var socket = curl_socket_t(-1)
        guard hearth_curl_easy_getinfo_socket(easy, CURLINFO_ACTIVESOCKET, &socket) == CURLE_OK, socket >= 0,
              unconfirmedSockets.remove(socket) != nil else { return }
        polls[socket]?.mayPark = true
    }

    /// curl is done with a socket (`CURLOPT_CLOSESOCKETFUNCTION`; it has already reported it removed):
    /// the poll goes first, then the descriptor, so no poll outlives its socket's number.
    private func socketClosing(_ socket: curl_socket_t) -> Int32 {
        unconfirmedSockets.remove(socket)
        if !loopDetached, let poll = polls.removeValue(forKey: socket) { poll.close() }
        return closeDescriptor(socket)
    }

    private func timerChanged(_ timeoutMs: Int) -> Int32 {
        let timer = self.timer ?? makeTimer()
        if timeoutMs < 0 {
            timer.stop()
        } else {
            timer.start(afterMs: UInt64(timeoutMs), timerCallback)
        }
        return 0
    }

    /// Made once: curl re-arms the timer several times per request.
    private lazy var timerCallback: () -> Void = { [weak self] in self?.timerFired() }

    private func makeTimer() -> LoopTimer {
        let timer = loop.makeTimer()
        timer.keepsLoopAlive = keepsLoopAlive
        self.timer = timer
        return timer
    }

    // MARK: Called by the loop (drive curl)

    /// An error on a socket (libuv: EPOLLERR, typically a reset) is first handed to curl as the
    /// readiness it was waiting for, as curl's own poll() loop does: curl's recv/send then meets the
    /// error and handles it, which includes resending a request once on a fresh connection when a
    /// kept-alive one turns out to be closed by the server before any byte of the answer. Passing
    /// CURL_CSELECT_ERR instead fails the transfer outright ("select/poll returned error"): with
    /// queued requests picking up kept-alive connections a `Connection: close` server was shutting,
    /// 10 of 300 such requests failed. A second error in a row on the same socket is passed on as an
    /// error, so a socket that keeps failing cannot spin the loop.
    private func socketReady(_ poll: LoopPoll, status: Int32, events: Int32) {
        guard status < 0 else { return drive(socket: poll.socket, flags: Self.selectFlags(events)) }
        guard poll.errorsInARow == 1 else { return drive(socket: poll.socket, flags: CURL_CSELECT_ERR) }
        drive(socket: poll.socket, flags: Self.selectFlags(poll.watchedEvents))
        // libuv stopped the poll; curl, still interested, would not tell us again.
        poll.restart()
    }

    private static func selectFlags(_ events: Int32) -> Int32 {
        var flags: Int32 = 0
        if events & Int32(UV_READABLE.rawValue) != 0 { flags |= CURL_CSELECT_IN }
        if events & Int32(UV_WRITABLE.rawValue) != 0 { flags |= CURL_CSELECT_OUT }
        return flags
    }

    private func timerFired() {
        drive(socket: CURL_SOCKET_TIMEOUT, flags: 0)
    }

    private func drive(socket: curl_socket_t, flags: Int32) {
        guard let multi else { return }
        var running: Int32 = 0
        curl_multi_socket_action(multi, socket, flags, &running)
        var finished = finishedScratch
        finishedScratch = []
        defer {
            finished.removeAll(keepingCapacity: true)
            finishedScratch = finished
        }
        var queued: Int32 = 0
        while let message = curl_multi_info_read(multi, &queued) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            finished.append((easy, message.pointee.data.result))
            if !unconfirmedSockets.isEmpty { confirmConnection(of: easy) }
        }
        // Last use of self's curl state in this turn: the receiver may close or release us.
        if !finished.isEmpty { onFinished(finished) }
    }
}

/// The C `close`, out of reach of the transport types' own `close` methods. 0 or -1, as curl
/// expects from a close-socket callback.
func closeDescriptor(_ fd: Int32) -> Int32 {
    close(fd)
}
