import NIOCore

/// A request body collected into one buffer, up to a limit. Past the limit the bytes are counted and
/// dropped, so the client finishes sending and reads the 413 instead of a reset connection; past the
/// drain limit the connection is not worth keeping.
struct RequestBodyBuffer {
    static let limit = 1 << 20
    static let drainLimit = 64 << 20

    private var bytes: ByteBuffer?
    private(set) var received = 0
    /// `Self.limit` for every request but the console's imports (`Console.bodyLimit`).
    private let limit: Int

    init(limit: Int = RequestBodyBuffer.limit) {
        self.limit = limit
    }

    var isPastDrainLimit: Bool { received > max(Self.drainLimit, limit) }

    mutating func append(_ part: ByteBuffer) {
        received += part.readableBytes
        guard received <= limit else {
            bytes = nil
            return
        }
        if bytes == nil {
            bytes = part
        } else {
            bytes?.writeImmutableBuffer(part)
        }
    }

    /// The body read so far; the buffer starts over for the next request.
    mutating func take() -> EmulatorRequest.Body {
        defer { self = RequestBodyBuffer() }
        if received > limit { return .tooLarge }
        guard let bytes else { return .bytes([]) }
        return .bytes(Array(bytes.readableBytesView))
    }
}
