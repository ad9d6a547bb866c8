import NIOCore
import NIOHTTP1

/// One connection's requests, each answered synchronously on the connection's event loop once its
/// body is complete. NIO's pipelining handler in front delivers one request at a time (a pipelined
/// request waits until the previous answer is written), so answers go out in request order; its
/// protocol error handler answers a malformed request 400 and closes.
final class HTTPConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let responder: EmulatorResponder
    /// The request being read; nil between requests and after an early answer.
    private var head: HTTPRequestHead?
    private var body = RequestBodyBuffer()
    private var date = HTTPDateCache()
    /// The last answer's final write, so a close waits for it.
    private var lastWrite: EventLoopFuture<Void>?
    /// Set by an answer that ends the connection: requests pipelined behind it are not answered.
    private var isClosing = false

    init(responder: EmulatorResponder) {
        self.responder = responder
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if isClosing { return }
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            if head.version.minor >= 1 || head.version.major > 1,
               head.headers["expect"].contains(where: { $0.lowercased() == "100-continue" }) {
                context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .continue))),
                                      promise: nil)
            }
        case .body(let part):
            guard head != nil else { return }
            body.append(part)
            if body.isPastDrainLimit, let head {
                // Answered before the body ends; the rest is not worth reading, so the connection closes.
                self.head = nil
                _ = body.take()
                write(responder.respond(to: request(head, body: .tooLarge)), to: head, keepAlive: false, context: context)
            }
        case .end:
            guard let head else { return }
            self.head = nil
            let answer = responder.respond(to: request(head, body: body.take()))
            write(answer, to: head, keepAlive: head.isKeepAlive, context: context)
        }
    }

    /// A client that stops sending gets the answers already under way, then the connection closes.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case ChannelEvent.inputClosed = event {
            closeAfterLastWrite(context: context)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    private func request(_ head: HTTPRequestHead, body: EmulatorRequest.Body) -> EmulatorRequest {
        EmulatorRequest(method: HTTPMethod(head.method.rawValue), target: head.uri,
                        headers: RequestHeaders(head.headers), body: body)
    }

    private func write(_ answer: EmulatorResponse, to request: HTTPRequestHead, keepAlive: Bool,
                       context: ChannelHandlerContext) {
        var headers = HTTPHeaders()
        headers.reserveCapacity(answer.headers.count + 4)
        for (name, value) in answer.headers {
            headers.add(name: name, value: HTTPFieldValue.legalized(value))
        }
        headers.add(name: "Content-Length", value: String(answer.body.count))
        headers.add(name: "Date", value: date.current())
        headers.add(name: "Server", value: "hearth-emulator")
        if !keepAlive {
            headers.add(name: "Connection", value: "close")
        } else if request.version.major == 1 && request.version.minor == 0 {
            headers.add(name: "Connection", value: "keep-alive")
        }
        if !keepAlive {
            isClosing = true
        }
        let status = HTTPResponseStatus(statusCode: answer.status.code)
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))),
                      promise: nil)
        if !answer.body.isEmpty {
            var buffer = context.channel.allocator.buffer(capacity: answer.body.count)
            buffer.writeBytes(answer.body)
            context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
        }
        // The pipelining handler may deliver the next request, and this handler answer it, from inside
        // this write: the answer is recorded as the last one before it is written.
        let written = context.eventLoop.makePromise(of: Void.self)
        lastWrite = written.futureResult
        if !keepAlive {
            let loopBoundContext = context.loopBound
            written.futureResult.whenComplete { _ in loopBoundContext.value.close(promise: nil) }
        }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: written)
    }

    private func closeAfterLastWrite(context: ChannelHandlerContext) {
        guard let lastWrite else {
            context.close(promise: nil)
            return
        }
        let loopBoundContext = context.loopBound
        lastWrite.whenComplete { _ in loopBoundContext.value.close(promise: nil) }
    }
}
