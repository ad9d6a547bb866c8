import CZlib
import Synchronization

/// gzip answers for clients that ask (`Accept-Encoding`), as Google's servers give them.
///
/// Firebase's emulator (Express without a compression middleware) never compresses; clients that
/// ask must take plain answers as well, so this changes nothing for them, and it lets a client's
/// gzip handling be tested against hearth-emulator. An answer that would not get smaller is sent
/// as it is.
enum ResponseCompression {
    /// Whether an `Accept-Encoding` value accepts gzip: `gzip`, `x-gzip` or `*` without `q=0`.
    static func acceptsGzip(_ acceptEncoding: String) -> Bool {
        var wildcard = false
        for part in acceptEncoding.split(separator: ",") {
            let pieces = part.split(separator: ";")
            guard let coding = pieces.first?.trimmingSpaces.lowercased() else { continue }
            var quality = 1.0
            for parameter in pieces.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1)
                if pair.count == 2, pair[0].trimmingSpaces.lowercased() == "q" {
                    quality = Double(pair[1].trimmingSpaces) ?? 0
                }
            }
            switch coding {
            case "gzip", "x-gzip": return quality > 0
            case "*": wildcard = quality > 0
            default: continue
            }
        }
        return wildcard
    }

    /// Compresses `response`'s body in place when the client accepts gzip.
    static func compress(_ response: inout EmulatorResponse, accepting acceptEncoding: String) {
        guard !response.body.isEmpty, acceptsGzip(acceptEncoding),
              let compressed = Gzip.compress(response.body), compressed.count < response.body.count
        else {
            addVary(&response.headers)
            return
        }
        response.body = compressed
        response.headers.append(("Content-Encoding", "gzip"))
        addVary(&response.headers)
    }

    /// Caches must keep compressed and plain answers apart.
    private static func addVary(_ headers: inout [(name: String, value: String)]) {
        if let index = headers.firstIndex(where: { $0.name == "Vary" }) {
            headers[index].value += ", Accept-Encoding"
        } else {
            headers.append(("Vary", "Accept-Encoding"))
        }
    }
}

/// gzip (RFC 1952) through zlib. A deflate stream holds a few hundred KiB of tables, so streams are
/// kept and reset rather than made per answer.
enum Gzip {
    /// Level 1: answers are small JSON, where higher levels save a few bytes for much more CPU.
    static let level: Int32 = 1

    /// A deflate stream. @unchecked Sendable: only one request uses it at a time (it is taken out
    /// of `idle` for the compression and put back after).
    private struct Stream: @unchecked Sendable {
        let pointer: UnsafeMutablePointer<z_stream>
    }

    private static let idle = Mutex<[Stream]>([])

    static func compress(_ input: [UInt8]) -> [UInt8]? {
        guard let stream = takeStream() else { return nil }
        defer { putBack(stream) }
        // deflateBound covers the worst case, with the gzip header and trailer.
        let capacity = Int(deflateBound(stream, uLong(input.count)))
        var output = [UInt8](repeating: 0, count: capacity)
        let status = input.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { destination -> Int32 in
                stream.pointee.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
                stream.pointee.avail_in = uInt(source.count)
                stream.pointee.next_out = destination.baseAddress
                stream.pointee.avail_out = uInt(destination.count)
                return deflate(stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { return nil }
        output.removeSubrange(Int(stream.pointee.total_out)...)
        return output
    }

    private static func takeStream() -> UnsafeMutablePointer<z_stream>? {
        if let stream = idle.withLock({ $0.popLast() })?.pointer {
            guard deflateReset(stream) == Z_OK else {
                release(stream)
                return nil
            }
            return stream
        }
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        guard czlib_deflate_init_gzip(stream, level) == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            return nil
        }
        return stream
    }

    /// At most a few streams are kept (one per event loop is the steady state).
    private static func putBack(_ stream: UnsafeMutablePointer<z_stream>) {
        let kept = idle.withLock { streams -> Bool in
            guard streams.count < 4 else { return false }
            streams.append(Stream(pointer: stream))
            return true
        }
        if !kept { release(stream) }
    }

    private static func release(_ stream: UnsafeMutablePointer<z_stream>) {
        deflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var text = self
        while text.first == " " || text.first == "\t" { text = text.dropFirst() }
        while text.last == " " || text.last == "\t" { text = text.dropLast() }
        return text
    }
}
