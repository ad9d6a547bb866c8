import CCurl
import CHearthShims
import CLibUV
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The production `HTTPTransport`: libcurl's multi-socket API driven by an `EventLoop`.
///
/// - Threading: `send`, `cancel` and `close` on the loop thread only; every completion runs on the
///   loop thread, exactly once (unless `close` voids it), never inside `send` or `cancel`.
/// - Connections: keep-alive. The multi handle caches connections and a small pool of easy handles
///   is reused, so sequential requests to one host share one TCP connection.
/// - Timeouts: each request has a total time limit (`HTTPRequest.timeoutMs`, else
///   `Options.defaultTimeoutMs`); when it passes the request fails with `.timedOut`.
/// - Security: only `http` and `https` URLs, each fetched with its own scheme only (an `https`
///   request never continues as `http`; redirects are not followed). Plain `http` URLs exist only
///   for the emulator: production endpoints are `https` by construction (`Endpoint.url`). TLS peer
///   and host verification are always on (`Options.caBundlePath` adds trust, never removes checks).
/// - Threads: a URL whose host is an IP literal (`http://127.0.0.1:9099/...`) needs no name
///   resolution, so no thread is created (curl 7.88 also answers `localhost` itself). Any other
///   host name is resolved by curl's threaded resolver, which runs one short-lived thread per
///   lookup, even on a host's borrowed loop; the transfer continues on the loop.
/// - Wire details: redirects are not followed; curl adds `Accept: */*`, and a POST without a
///   Content-Type header goes out as `application/x-www-form-urlencoded`. `HTTPResponse.contentType`
///   is the header's full value (e.g. `application/json; charset=UTF-8`).
/// - Loop liveness: while requests are in flight the transport's polls and timer are ref'd, so a
///   host running `uv_run(UV_RUN_DEFAULT)` sees them complete; when idle (idle keep-alive
///   connections included) they are unref'd and never keep the host's loop running.
package final class CurlTransport: HTTPTransport {
    package struct Options {
        /// Total time allowed for one request when it sets no `timeoutMs` of its own (a request's
        /// non-positive `timeoutMs` also falls back to this). Must be positive.
        package var defaultTimeoutMs: Int = 30_000
        /// A PEM file of extra trusted CA certificates (e.g. a test server's); nil uses the system's
        /// (curl's built-in bundle, or this machine's when curl's is missing: `SystemCABundle`).
        package var caBundlePath: String? = nil
        /// The User-Agent header; nil sends none.
        var userAgent: String? = nil
        /// Larger response bodies fail with `.network` instead of filling memory. It counts the body as
        /// it arrives decoded, so a small compressed answer that inflates past it fails too.
        var maxResponseBytes: Int = 64 << 20
        /// Ask for gzip answers (`Accept-Encoding: gzip`) and decode them, as Google's servers compress
        /// what they send when asked (JSON with tokens shrinks to about half). Needs a libcurl with zlib
        /// (`CurlGlobal.decodesGzip`); without one, requests ask for nothing.
        var acceptsGzip: Bool = true
        /// How many idle easy handles to keep for reuse once no request is in flight.
        var idleHandlePoolSize: Int = 8
        /// How many idle easy handles to keep while requests are in flight (at least
        /// `idleHandlePoolSize`): a burst's handles serve the requests that follow it.
        var busyHandlePoolSize: Int = 64
        /// Requests in curl, and so connections open, at once to one host; further requests wait in the
        /// transport, in the order they were sent, for one of them to finish (`HostAdmission`). 0: no
        /// limit.
        var maxConnectionsPerHost: Int = 64
        /// The proxies to use; nil reads them from the environment when the transport is created, as
        /// libcurl would (`ProxyEnvironment`).
        package var proxies: ProxyEnvironment? = nil
        /// Tests only (package-internal): curl `CONNECT_TO` entries, "HOST:PORT:CONNECT-HOST:CONNECT-PORT",
        /// so a production URL reaches a local server while TLS still verifies the production name.
        package var connectTo: [String] = []

        package init() {}
    }

    private let loop: EventLoop
    private let options: Options
    private var multi: CurlMulti?
    private var pool: CurlEasyPool
    private let headerLists = CurlHeaderListCache()
    private let checkedURLs = CheckedURLCache()
    /// Requests sent and not completed: in curl, or waiting for their turn (`admission`).
    private var inFlight = TransferTable()
    private var admission: HostAdmission
    /// Fails waiting requests whose time runs out before their turn; armed for the earliest deadline.
    private var admissionTimer: LoopTimer?
    private var admissionTimerDeadlineMs: UInt64?
    private var isClosed = false
    /// Bumped by `close`: completions scheduled before it are dropped, later ones are delivered.
    private var generation: UInt64 = 0

    /// Any thread (no loop calls happen before the first `send`).
    package init(loop: EventLoop, options: Options) throws {
        try CurlGlobal.ensureInitialised()
        guard options.defaultTimeoutMs > 0 else {
            throw TransportSetupError.invalidOption("defaultTimeoutMs must be positive")
        }
        guard options.maxResponseBytes > 0, options.idleHandlePoolSize >= 0, options.busyHandlePoolSize >= 0,
              options.maxConnectionsPerHost >= 0 else {
            throw TransportSetupError.invalidOption(
                "maxResponseBytes must be positive; pool sizes and maxConnectionsPerHost not negative")
        }
        if let path = options.caBundlePath, let problem = Self.caBundleProblem(path) {
            throw TransportSetupError.invalidOption(problem)
        }
        self.loop = loop
        var options = options
        // A libcurl built on another distribution (the Python wheel's) may look for a CA bundle this
        // machine keeps elsewhere: give it the machine's own (`SystemCABundle`).
        if options.caBundlePath == nil { options.caBundlePath = SystemCABundle.forThisMachine }
        if options.proxies == nil { options.proxies = ProxyEnvironment.current() }
        self.options = options
        self.pool = CurlEasyPool(capacity: options.idleHandlePoolSize, busyCapacity: options.busyHandlePoolSize)
        self.admission = HostAdmission(limit: options.maxConnectionsPerHost)
        self.multi = try CurlMulti(loop: loop, maxConnectionsPerHost: options.maxConnectionsPerHost) { [weak self] finished in
            self?.transfersFinished(finished)
        }
    }

    /// Why `path` cannot serve as a CA bundle, or nil when it can: it must open for reading and be a
    /// regular file. Checked up front because curl would otherwise fail every request with it later.
    /// (Root passes any permission check, so opening is the only honest test of "readable".)
    package static func caBundleProblem(_ path: String) -> String? {
        guard !path.isEmpty else { return "CA bundle path is empty" }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return "CA bundle is not readable: \(path)" }
        defer { _ = closeDescriptor(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            return "CA bundle is not a file: \(path)"
        }
        return nil
    }

    /// Dropping an open transport closes it: inline on the loop thread, else posted to the loop.
    /// If the loop has already shut down (its handles are closed), only curl's state is freed here.
    deinit {
        guard !isClosed else { return }
        let multi = self.multi
        let transfers = inFlight.all
        var pool = self.pool
        if loop.isLoopThread {
            Self.release(transfers, pool: &pool, multi: multi, onLoop: true)
            return
        }
        let posted = loop.execute {
            Self.release(transfers, pool: &pool, multi: multi, onLoop: true)
        }
        if !posted {
            Self.release(transfers, pool: &pool, multi: multi, onLoop: false)
        }
    }

    // MARK: HTTPTransport

    @discardableResult
    package func send(_ request: HTTPRequest,
                     completion: @escaping (Result<HTTPResponse, TransportError>) -> Void) -> RequestID {
        let id = inFlight.reserve()
        guard !isClosed, let multi else {
            inFlight.release(id)
            deliverLater(.failure(.cancelled), to: completion)
            return id
        }
        guard let easy = pool.take() else {
            inFlight.release(id)
            deliverLater(.failure(.network("cannot allocate a curl handle")), to: completion)
            return id
        }
        let transfer: CurlTransfer
        do {
            transfer = try CurlTransfer(id: id, easy: easy, request: request, options: options,
                                        checkedURLs: checkedURLs, headerLists: headerLists, completion: completion)
        } catch {
            inFlight.release(id)
            // Not given back: a half-configured handle is not worth the doubt (`retire`).
            deliverLater(.failure(error), to: completion)
            return id
        }
        inFlight.fill(id, with: transfer)
        multi.keepsLoopAlive = true
        if admission.admit(host: transfer.host) {
            start(transfer)
        } else {
            let deadlineMs = uv_now(loop.uvLoop) + UInt64(transfer.timeoutMs)
            admission.wait(.init(id: id, deadlineMs: deadlineMs), host: transfer.host)
            armAdmissionTimer(deadlineMs)
        }
        return id
    }

    /// Hands an admitted transfer to curl; a refusal fails it (asynchronously) and frees its place.
    @discardableResult
    private func start(_ transfer: CurlTransfer) -> Bool {
        // How the finished handle finds its transfer (`transfersFinished`).
        var added = transfer.easy.set(CURLOPT_PRIVATE, pointer: UnsafeRawPointer(bitPattern: UInt(transfer.id.rawValue)))
            == CURLE_OK ? CURLM_OK : CURLM_INTERNAL_ERROR
        if added == CURLM_OK { added = multi?.add(transfer.easy) ?? CURLM_BAD_HANDLE }
        guard added == CURLM_OK else {
            inFlight.release(transfer.id)
            admission.left(host: transfer.host)
            transfer.releaseResources()
            inFlightChanged()
            deliverLater(.failure(.network(String(cString: curl_multi_strerror(added)))), to: transfer.completion)
            return false
        }
        transfer.isStarted = true
        return true
    }

    /// A place for `host` came free: the oldest waiting requests of that host go to curl, with what is
    /// left of their time; ones cancelled meanwhile are skipped, ones whose time ran out fail.
    private func admitWaiting(host: Int) {
        while let waiting = admission.next(host: host) {
            guard let transfer = inFlight[waiting.id] else {
                admission.left(host: host)
                continue
            }
            let nowMs = uv_now(loop.uvLoop)
            guard waiting.deadlineMs > nowMs, transfer.setRemainingTime(ms: Int(waiting.deadlineMs - nowMs)) else {
                admission.left(host: host)
                expireWaiting(transfer)
                continue
            }
            start(transfer)
        }
    }

    private func expireWaiting(_ transfer: CurlTransfer) {
        inFlight.release(transfer.id)
        transfer.releaseResources()
        inFlightChanged()
        deliverLater(.failure(.timedOut("Operation timed out after \(transfer.timeoutMs) milliseconds "
                                        + "waiting for a connection")), to: transfer.completion)
    }

    private func armAdmissionTimer(_ deadlineMs: UInt64) {
        if let armed = admissionTimerDeadlineMs, armed <= deadlineMs { return }
        let timer = admissionTimer ?? loop.makeTimer()
        admissionTimer = timer
        admissionTimerDeadlineMs = deadlineMs
        let nowMs = uv_now(loop.uvLoop)
        timer.start(afterMs: deadlineMs > nowMs ? deadlineMs - nowMs : 0) { [weak self] in
            self?.admissionDeadlinePassed()
        }
    }

    private func admissionDeadlinePassed() {
        admissionTimerDeadlineMs = nil
        let (expired, nextDeadlineMs) = admission.expire(nowMs: uv_now(loop.uvLoop))
        for id in expired {
            if let transfer = inFlight[id] { expireWaiting(transfer) }
        }
        if let nextDeadlineMs { armAdmissionTimer(nextDeadlineMs) }
    }

    package func cancel(_ id: RequestID) {
        guard let transfer = inFlight.release(id) else { return }
        // A waiting one keeps its entry in `admission`, skipped when its turn comes.
        retire(transfer, reuse: false)
        inFlightChanged()
        deliverLater(.failure(.cancelled), to: transfer.completion)
    }

    /// Loop thread. Aborts every in-flight transfer without calling its completion, frees curl's
    /// handles and connections, closes the polls and timer. Later `send`s fail with `.cancelled`,
    /// delivered asynchronously. Idempotent. During the loop's shutdown curl's state is freed after
    /// the shutdown has returned (`EventLoop.afterShutdown`); the loop closes the polls and timer.
    package func close() {
        guard !isClosed else { return }
        isClosed = true
        generation &+= 1
        let transfers = inFlight.removeAll()
        admission = HostAdmission(limit: admission.limit)
        admissionTimerDeadlineMs = nil
        if !loop.isShuttingDown { admissionTimer?.stop() }
        let multi = self.multi
        self.multi = nil
        var pool = self.pool
        self.pool = CurlEasyPool(capacity: 0, busyCapacity: 0)
        guard loop.isShuttingDown else {
            return Self.release(transfers, pool: &pool, multi: multi, onLoop: true)
        }
        // Curl must not call back into the polls and timer the shutdown is closing.
        multi?.detachFromLoop()
        loop.afterShutdown {
            Self.release(transfers, pool: &pool, multi: multi, onLoop: false)
        }
    }

    /// Requests sent and not yet completed or cancelled.
    var inFlightCount: Int { inFlight.count }

    // MARK: Completion

    /// `transfersFinished`'s list, kept with its capacity between turns (never re-entered: it runs from
    /// the multi's `drive`, which the loop alone calls). The transfers themselves, each holding its
    /// outcome: a list of (completion, result) pairs was emptied through the runtime's generic tuple
    /// and `Result` witnesses.
    private var completedScratch: [CurlTransfer] = []

    private func transfersFinished(_ finished: [CurlMulti.Finished]) {
        var completed = completedScratch
        completedScratch = []
        defer {
            completed.removeAll(keepingCapacity: true)
            completedScratch = completed
        }
        for (easy, code) in finished {
            var id: UnsafeMutableRawPointer?
            guard hearth_curl_easy_getinfo_ptr(easy, CURLINFO_PRIVATE, &id) == CURLE_OK, let id,
                  let transfer = inFlight.release(RequestID(UInt64(UInt(bitPattern: id)))) else { continue }
            transfer.outcome = transfer.result(for: code)
            retire(transfer, reuse: code == CURLE_OK)
            completed.append(transfer)
        }
        multi?.keepsLoopAlive = !inFlight.isEmpty
        // Everything is settled before anyone is told: a completion may send, cancel or close.
        let generation = self.generation
        for transfer in completed {
            guard self.generation == generation else { return }
            if let outcome = transfer.outcome { transfer.completion(outcome) }
        }
        if inFlight.isEmpty { pool.trim() }
    }

    private func inFlightChanged() {
        multi?.keepsLoopAlive = !inFlight.isEmpty
        if inFlight.isEmpty { pool.trim() }
    }

    /// Idle easy handles kept for reuse (tests).
    var idleHandleCount: Int { pool.idleCount }
    /// Polls of kept-alive connections left registered between transfers (tests).
    var parkedPollCount: Int { multi?.parkedPollCount ?? 0 }

    /// Takes a transfer out of curl, and keeps its handle for the next request only if the transfer
    /// got an answer. curl leaves a handle whose transfer ended without one (no such host, a cancel
    /// while resolving) holding a receive buffer that makes it refuse `CURLOPT_BUFFERSIZE` after a
    /// reset: reused, that handle failed every later request given to it.
    private func retire(_ transfer: CurlTransfer, reuse: Bool) {
        guard transfer.isStarted else {
            transfer.releaseResources()
            return
        }
        transfer.isStarted = false
        multi?.remove(transfer.easy.handle)
        transfer.releaseResources()
        if reuse { pool.give(transfer.easy) }
        admission.left(host: transfer.host)
        admitWaiting(host: transfer.host)
    }

    /// Completions are never run inside the call that caused them.
    private func deliverLater(_ result: Result<HTTPResponse, TransportError>,
                              to completion: @escaping (Result<HTTPResponse, TransportError>) -> Void) {
        let generation = self.generation
        loop.execute { [weak self] in
            guard let self, self.generation == generation else { return }
            completion(result)
        }
    }

    /// Frees transfers, idle handles and the multi. On the loop thread uv handles close normally;
    /// off it curl is first detached from the loop so nothing touches uv from the wrong thread.
    private static func release(_ transfers: [CurlTransfer], pool: inout CurlEasyPool, multi: CurlMulti?,
                                onLoop: Bool) {
        if !onLoop { multi?.detachFromLoop() }
        for transfer in transfers {
            multi?.remove(transfer.easy.handle)
            transfer.releaseResources()
        }
        pool.drain()
        if onLoop { multi?.close() }
    }
}
