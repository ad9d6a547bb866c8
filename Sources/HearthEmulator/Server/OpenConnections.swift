import NIOCore
import Synchronization

/// The connections the server has accepted and not yet closed, so a graceful shutdown can ask each
/// to finish and wait for all of them. The ask is NIO's `ChannelShouldQuiesceEvent`, which
/// `HTTPConnectionHandler` acts on: an idle connection closes now, a busy one after its answer (sent
/// with `Connection: close`).
final class OpenConnections: Sendable {
    private struct State {
        var channels: [ObjectIdentifier: any Channel] = [:]
        var isShuttingDown = false
        var allClosed: EventLoopPromise<Void>?
    }

    private let state = Mutex(State())

    /// For the listening channel's pipeline: records each accepted connection.
    func makeAcceptHandler() -> some ChannelInboundHandler {
        AcceptHandler(connections: self)
    }

    /// Asks every connection to finish; `allClosed` succeeds once the last one has closed. Call it
    /// after the listening channel is closed.
    func shutDown(allClosed: EventLoopPromise<Void>) {
        let open = state.withLock { state in
            state.isShuttingDown = true
            if state.channels.isEmpty { return [any Channel]() }
            state.allClosed = allClosed
            return Array(state.channels.values)
        }
        if open.isEmpty {
            allClosed.succeed()
            return
        }
        for channel in open {
            channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        }
    }

    private func add(_ channel: any Channel) {
        let accepted = state.withLock { state in
            guard !state.isShuttingDown else { return false }
            state.channels[ObjectIdentifier(channel)] = channel
            return true
        }
        guard accepted else {
            // Accepted in the same batch as the shutdown: it has not been answered anything yet.
            channel.close(promise: nil)
            return
        }
        channel.closeFuture.whenComplete { [self] _ in remove(channel) }
    }

    private func remove(_ channel: any Channel) {
        let finished = state.withLock { state -> EventLoopPromise<Void>? in
            state.channels[ObjectIdentifier(channel)] = nil
            guard state.channels.isEmpty, let allClosed = state.allClosed else { return nil }
            state.allClosed = nil
            return allClosed
        }
        finished?.succeed()
    }

    private final class AcceptHandler: ChannelInboundHandler {
        typealias InboundIn = any Channel
        typealias InboundOut = any Channel

        let connections: OpenConnections

        init(connections: OpenConnections) {
            self.connections = connections
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            connections.add(unwrapInboundIn(data))
            context.fireChannelRead(data)
        }
    }
}
