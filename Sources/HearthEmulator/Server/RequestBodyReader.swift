import Hummingbird

/// Reads a request body up to a limit. Past the limit it keeps reading (and discarding) a bounded
/// amount more, so the client finishes sending and reads the 413 instead of a reset connection.
enum RequestBodyReader {
    static let limit = 1 << 20
    static let drainLimit = 64 << 20

    static func read(_ body: RequestBody) async throws(ApiError) -> [UInt8] {
        var bytes: [UInt8] = []
        var total = 0
        do {
            for try await buffer in body {
                total += buffer.readableBytes
                if total <= limit {
                    bytes.append(contentsOf: buffer.readableBytesView)
                } else if total > drainLimit {
                    break
                }
            }
        } catch {
            throw .invalidArgument("Invalid JSON payload received. The request body could not be read.", reason: "parseError")
        }
        if total > limit { throw .payloadTooLarge(limit: limit) }
        return bytes
    }
}
