import NIOCore
import NIOHTTP1

/// Writes an answer as HTTP/1.1 wire bytes, one buffer per answer: the bytes NIO's
/// `HTTPResponseEncoder` wrote for the head, body and end it was given, without building
/// `HTTPHeaders` and passing three parts through the pipeline (a fifth of a request's CPU).
enum HTTPResponseBytes {
    /// `status`, `fields` (values legalized, `HTTPFieldValue`), then the body unless `omitBody` (a HEAD request).
    /// A status that cannot have a body (1xx, 204, 304) gets no `Content-Length`, as NIO framed it.
    static func write(
        status: Int, fields: [(name: String, value: String)], contentLength: Int, trailingFields: TrailingFields,
        body: [UInt8], omitBody: Bool, into buffer: inout ByteBuffer
    ) {
        let responseStatus = HTTPResponseStatus(statusCode: status)
        buffer.writeStaticString("HTTP/1.1 ")
        buffer.writeString(String(status))
        buffer.writeStaticString(" ")
        buffer.writeString(responseStatus.reasonPhrase)
        buffer.writeStaticString("\r\n")
        for (name, value) in fields {
            writeField(name, value, into: &buffer)
        }
        if responseStatus.mayHaveResponseBody {
            buffer.writeStaticString("Content-Length: ")
            buffer.writeString(String(contentLength))
            buffer.writeStaticString("\r\n")
        }
        buffer.writeStaticString("Date: ")
        buffer.writeString(trailingFields.date)
        buffer.writeStaticString("\r\nServer: hearth-emulator\r\n")
        switch trailingFields.connection {
        case .none: break
        case .close: buffer.writeStaticString("Connection: close\r\n")
        case .keepAlive: buffer.writeStaticString("Connection: keep-alive\r\n")
        }
        buffer.writeStaticString("\r\n")
        if !omitBody { buffer.writeBytes(body) }
    }

    /// The fields every answer ends with after `Content-Length`.
    struct TrailingFields {
        enum Connection {
            case none
            case close
            /// For an HTTP/1.0 client that asked to keep the connection.
            case keepAlive
        }

        var date: String
        var connection: Connection
    }

    /// `HTTP/x.y 100 Continue` and the empty line.
    static func writeContinue(version: HTTPVersion, into buffer: inout ByteBuffer) {
        buffer.writeStaticString("HTTP/")
        buffer.writeString(String(version.major))
        buffer.writeStaticString(".")
        buffer.writeString(String(version.minor))
        buffer.writeStaticString(" 100 Continue\r\n\r\n")
    }

    /// What NIO's protocol error handler answered a request it could not parse.
    static let badRequest = "HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"

    private static func writeField(_ name: String, _ value: String, into buffer: inout ByteBuffer) {
        buffer.writeString(name)
        buffer.writeStaticString(": ")
        buffer.writeString(HTTPFieldValue.legalized(value))
        buffer.writeStaticString("\r\n")
    }
}
