import HearthTransport

/// One browser connection to the loopback receiver: read one request before a deadline, answer it,
/// close. Loop thread only.
///
/// Slow or silent clients cannot hold it: the deadline runs from accept to the end of the request,
/// not from the last byte. After answering it sends FIN and keeps reading (and discarding) for a
/// short while before closing, because closing a socket with unread input makes the kernel send a
/// reset that can destroy the answer before the browser reads it (e.g. after a 431 for headers the
/// client is still sending).
final class LoopbackExchange {
    struct Limits {
        var maximumHeadBytes: Int
        var maximumBodyBytes: Int
        var requestTimeoutMs: UInt64
        /// How long to keep discarding input after the answer, at most.
        var lingerMs: UInt64 = 2_000
        /// How much input to discard after the answer, at most.
        var maximumDiscardBytes = 256 * 1024
    }

    private enum Phase { case reading, answering, lingering, closed }

    private let connection: LoopTCPConnection
    private let timer: LoopTimer
    private let limits: Limits
    private var parser: LoopbackHTTPRequestParser
    private var phase = Phase.reading
    private var discarded = 0
    /// The peer sent FIN: nothing is left to drain once the answer is out.
    private var peerFinished = false
    private var onRequest: ((LoopbackExchange, LoopbackHTTPRequest) -> Void)?
    private var onClosed: ((LoopbackExchange) -> Void)?

    /// - Parameters:
    ///   - onRequest: a complete request arrived; the callee must `answer` (or `close`).
    ///   - onClosed: runs once, when this exchange closes for any reason.
    init(connection: LoopTCPConnection, timer: LoopTimer, limits: Limits,
         onRequest: @escaping (LoopbackExchange, LoopbackHTTPRequest) -> Void,
         onClosed: @escaping (LoopbackExchange) -> Void) {
        self.connection = connection
        self.timer = timer
        self.limits = limits
        self.parser = LoopbackHTTPRequestParser(maximumHeadBytes: limits.maximumHeadBytes,
                                                maximumBodyBytes: limits.maximumBodyBytes)
        self.onRequest = onRequest
        self.onClosed = onClosed
    }

    func start() {
        timer.start(afterMs: limits.requestTimeoutMs) { [weak self] in self?.deadlinePassed() }
        let reading = connection.startReading { [weak self] event in self?.received(event) }
        if !reading { close() }
    }

    var isClosed: Bool { phase == .closed }

    /// Sends `page` and closes. Only the first answer counts.
    func answer(_ page: LoopbackResponsePage) {
        guard phase == .reading else { return }
        phase = .answering
        // One deadline covers the write and the lingering read after it.
        timer.start(afterMs: limits.lingerMs) { [weak self] in self?.close() }
        connection.write(page.bytes) { [weak self] status in
            guard status == 0 else { self?.close(); return }
        }
        connection.shutdownWriting { [weak self] status in
            guard let self, self.phase == .answering else { return }
            if status == 0 && !self.peerFinished { self.phase = .lingering } else { self.close() }
        }
    }

    /// Closes the connection now (no answer if none was sent yet). Idempotent.
    func close() {
        guard phase != .closed else { return }
        phase = .closed
        onRequest = nil
        timer.close()
        connection.close()
        let onClosed = self.onClosed
        self.onClosed = nil
        onClosed?(self)
    }

    private func received(_ event: LoopTCPConnection.ReadEvent) {
        switch (event, phase) {
        case (.bytes(let bytes), .reading):
            switch parser.consume(bytes) {
            case .needMore:
                break
            case .complete(let request):
                let onRequest = self.onRequest
                onRequest?(self, request)
            case .invalid(let status, _):
                answer(.malformed(status: status))
            }
        case (.bytes(let bytes), .answering), (.bytes(let bytes), .lingering):
            discarded += bytes.count
            if discarded > limits.maximumDiscardBytes { close() }
        case (.end, .answering):
            // The peer is done sending; the answer still goes out (shutdown follows the write).
            peerFinished = true
        case (.end, _), (.failed, _):
            close()
        case (_, .closed):
            break
        }
    }

    private func deadlinePassed() {
        guard phase == .reading else { return close() }
        // A browser's unused speculative connection sends nothing: just close it.
        if parser.isEmpty { close() } else { answer(.requestTimeout) }
    }
}
