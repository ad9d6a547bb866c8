import NIOCore
import NIOHTTP1

/// One connection's requests, each answered synchronously on the connection's event loop once its
/// body is complete, written as wire bytes (`HTTPResponseBytes`). Behind NIO's request decoder only:
/// answering synchronously keeps answers in request order, so NIO's pipelining handler had nothing
/// to hold back; this handler also does what it and NIO's protocol error handler did for the
/// emulator (a malformed request is answered 400 and closed; a graceful shutdown closes idle
/// connections and ends busy ones after their answer).
final class HTTPConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = ByteBuffer

    private let responder: EmulatorResponder
    /// The web console answers the paths under `/emulator/ui`; every other request goes to the
    /// responder, the console's only cost to it being that prefix compared with the path.
    private let console: Console?
    /// The request being read is the console's.
    private var isConsoleRequest = false
    /// The request being read; nil between requests and after an early answer.
    private var head: HTTPRequestHead?
    private var body = RequestBodyBuffer()
    private var date = HTTPDateCache()
    /// Set by an answer that ends the connection: requests pipelined behind it are not answered.
    private var isClosing = false
    /// A graceful shutdown asked this connection to finish: the request being read is the last.
    private var isQuiescing = false
    /// A console answer that waits for something to happen (a long poll); requests pipelined
    /// behind it are held, so answers still go out in request order.
    private var waiting: Waiting?
    private var held: [HTTPServerRequestPart] = []

    private struct Waiting {
        var head: HTTPRequestHead
        var poll: LongPoll
        var task: RepeatedTask
    }

    init(responder: EmulatorResponder, console: Console? = nil) {
        self.responder = responder
        self.console = console
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if isClosing { return }
        let part = unwrapInboundIn(data)
        if waiting != nil {
            held.append(part)
            return
        }
        read(part, context: context)
    }

    private func read(_ part: HTTPServerRequestPart, context: ChannelHandlerContext) {
        switch part {
        case .head(let head):
            self.head = head
            isConsoleRequest = console != nil && Console.claims(head.uri)
            if isConsoleRequest { body = RequestBodyBuffer(limit: Console.bodyLimit) }
            if head.version.minor >= 1 || head.version.major > 1,
               head.headers["expect"].contains(where: { $0.lowercased() == "100-continue" }) {
                var buffer = context.channel.allocator.buffer(capacity: 32)
                HTTPResponseBytes.writeContinue(version: head.version, into: &buffer)
                context.writeAndFlush(wrapOutboundOut(buffer), promise: nil)
            }
        case .body(let part):
            guard head != nil else { return }
            body.append(part)
            if body.isPastDrainLimit, let head {
                // Answered before the body ends; the rest is not worth reading, so the connection closes.
                self.head = nil
                _ = body.take()
                write(answer(to: request(head, body: .tooLarge), head: head), to: head, keepAlive: false, context: context)
            }
        case .end:
            guard let head else { return }
            self.head = nil
            let request = request(head, body: body.take())
            if isConsoleRequest, let console {
                switch console.respond(to: ConsoleRequest(request, fields: head.headers)) {
                case .now(let answer):
                    write(answer, to: head, keepAlive: head.isKeepAlive && !isQuiescing, context: context)
                case .later(let poll):
                    wait(for: poll, head: head, context: context)
                }
            } else {
                write(responder.respond(to: request), to: head, keepAlive: head.isKeepAlive && !isQuiescing, context: context)
            }
        }
    }

    /// An answer that cannot wait (the body was too large).
    private func answer(to request: EmulatorRequest, head: HTTPRequestHead) -> EmulatorResponse {
        guard isConsoleRequest, let console else { return responder.respond(to: request) }
        switch console.respond(to: ConsoleRequest(request, fields: head.headers)) {
        case .now(let answer): return answer
        case .later(let poll): return poll.timedOut()
        }
    }

    /// Asks `poll` every `poll.interval` on this connection's event loop until it answers or its
    /// time is up.
    private func wait(for poll: LongPoll, head: HTTPRequestHead, context: ChannelHandlerContext) {
        let deadline = NIODeadline.now() + poll.timeout
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        let boundContext = context.loopBound
        let task = context.eventLoop.scheduleRepeatedTask(initialDelay: poll.interval, delay: poll.interval) { _ in
            let answer = NIODeadline.now() >= deadline ? poll.timedOut() : poll.check()
            if let answer { handler.value.finishWaiting(with: answer, context: boundContext.value) }
        }
        waiting = Waiting(head: head, poll: poll, task: task)
    }

    private func finishWaiting(with answer: EmulatorResponse, context: ChannelHandlerContext) {
        guard let finished = waiting else { return }
        waiting = nil
        finished.task.cancel()
        write(answer, to: finished.head, keepAlive: finished.head.isKeepAlive && !isQuiescing, context: context)
        let parts = held
        held = []
        for part in parts where !isClosing {
            if waiting != nil {
                held.append(part)
            } else {
                read(part, context: context)
            }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        waiting?.task.cancel()
        waiting = nil
        held = []
        context.fireChannelInactive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        switch event {
        case ChannelEvent.inputClosed:
            // A client that stops sending gets the answers already under way, then the connection
            // closes. A long poll is answered at once: a browser that closed the connection has gone
            // elsewhere, and nothing should keep looking on its behalf.
            if let waiting {
                isQuiescing = true
                finishWaiting(with: waiting.poll.timedOut(), context: context)
            } else {
                closeAfterWrites(context: context)
            }
        case is ChannelShouldQuiesceEvent:
            if let waiting {
                // A long poll is answered now, with what it has, and the connection closes.
                isQuiescing = true
                finishWaiting(with: waiting.poll.timedOut(), context: context)
            } else if head == nil {
                closeAfterWrites(context: context)
            } else {
                // The request being read is answered with `Connection: close`, then the connection closes.
                isQuiescing = true
            }
        default:
            context.fireUserInboundEventTriggered(event)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if error is HTTPParserError {
            // Every earlier request has been answered in full, so the 400 goes out next.
            var buffer = context.channel.allocator.buffer(capacity: HTTPResponseBytes.badRequest.utf8.count)
            buffer.writeString(HTTPResponseBytes.badRequest)
            context.writeAndFlush(wrapOutboundOut(buffer), promise: nil)
        }
        context.close(promise: nil)
    }

    private func request(_ head: HTTPRequestHead, body: EmulatorRequest.Body) -> EmulatorRequest {
        EmulatorRequest(method: HTTPMethod(head.method.rawValue), target: head.uri,
                        headers: RequestHeaders(head.headers), body: body)
    }

    private func write(_ answer: EmulatorResponse, to request: HTTPRequestHead, keepAlive: Bool,
                       context: ChannelHandlerContext) {
        let connection: HTTPResponseBytes.TrailingFields.Connection
        if !keepAlive {
            connection = .close
            isClosing = true
        } else if request.version.major == 1 && request.version.minor == 0 {
            connection = .keepAlive
        } else {
            connection = .none
        }
        var buffer = context.channel.allocator.buffer(capacity: 256 + answer.body.count)
        HTTPResponseBytes.write(
            status: answer.status.code, fields: answer.headers, contentLength: answer.body.count,
            trailingFields: .init(date: date.current(), connection: connection), body: answer.body,
            // Answers to HEAD (and CONNECT) carry the headers of the answer without its body.
            omitBody: request.method == .HEAD || request.method == .CONNECT, into: &buffer)
        if keepAlive {
            context.writeAndFlush(wrapOutboundOut(buffer), promise: nil)
        } else {
            let loopBoundContext = context.loopBound
            context.writeAndFlush(wrapOutboundOut(buffer)).whenComplete { _ in
                loopBoundContext.value.close(promise: nil)
            }
        }
    }

    /// Closes once everything written so far is on the wire: writes complete in order, so an empty
    /// write behind them completes last.
    private func closeAfterWrites(context: ChannelHandlerContext) {
        let loopBoundContext = context.loopBound
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(capacity: 0))).whenComplete { _ in
            loopBoundContext.value.close(promise: nil)
        }
    }
}
