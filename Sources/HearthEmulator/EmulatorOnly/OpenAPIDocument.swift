import CZlib
import HearthWire

/// `GET /emulator/openapi.json`: the emulator's API description (Firebase's emulator serves its own
/// there, and `GET /` points to it), with every server also offered under the emulator's address:
/// `{EMULATOR}/identitytoolkit.googleapis.com`, where `EMULATOR` defaults to the URL the request
/// came to, beside the production server it stands for.
enum OpenAPIDocument {
    static let path = "/emulator/openapi.json"

    static let operation = Operation("emulator.openapi", access: .open) { _, request throws(ApiError) in
        guard let document = parsed else { throw .internalError("INTERNAL_ERROR : the API description is unreadable") }
        return Reply(JSONValue.object(withEmulatorServers(document, emulator: request.origin)))
    }

    /// The document as generated into the binary (`OpenAPIDocumentData.swift`), read once.
    static let parsed: JSONObject? = {
        let text = gzippedBase64.map { $0.description }.joined()
        guard let gzipped = Base64.decode(text), let json = inflate(gzipped) else { return nil }
        return (try? JSONValue.parse(json))?.objectValue
    }()

    static func withEmulatorServers(_ document: JSONObject, emulator: String) -> JSONObject {
        var document = document
        if let servers = document["servers"]?.arrayValue {
            document["servers"] = .array(withEmulator(servers, emulator: emulator))
        }
        if var paths = document["paths"]?.objectValue {
            for path in paths.keys {
                guard var item = paths[path]?.objectValue, let servers = item["servers"]?.arrayValue else { continue }
                item["servers"] = .array(withEmulator(servers, emulator: emulator))
                paths[path] = .object(item)
            }
            document["paths"] = .object(paths)
        }
        return document
    }

    private static func withEmulator(_ servers: [JSONValue], emulator: String) -> [JSONValue] {
        servers.flatMap { server -> [JSONValue] in
            let url = server.objectValue?["url"]?.stringValue ?? ""
            let variable = JSONObject([
                ("default", .string(emulator)),
                ("description", .string("The protocol, hostname, and port of Firebase Auth Emulator.")),
            ])
            let viaEmulator = JSONValue.object(JSONObject([
                ("url", .string(url.isEmpty ? "{EMULATOR}" : url.replacingOccurrences(of: "https://", with: "{EMULATOR}/"))),
                ("variables", .object(JSONObject([("EMULATOR", .object(variable))]))),
            ]))
            // The production server stays, so the description can reach it too.
            return url.isEmpty ? [viaEmulator] : [viaEmulator, server]
        }
    }

    private static func inflate(_ input: [UInt8]) -> [UInt8]? {
        var stream = z_stream()
        guard czlib_inflate_init_auto(&stream) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var status: Int32 = Z_OK
        input.withUnsafeBufferPointer { source in
            stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
            stream.avail_in = uInt(source.count)
            while status == Z_OK {
                status = chunk.withUnsafeMutableBufferPointer { buffer -> Int32 in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = uInt(buffer.count)
                    return CZlib.inflate(&stream, Z_NO_FLUSH)
                }
                output.append(contentsOf: chunk[0..<(chunk.count - Int(stream.avail_out))])
            }
        }
        return status == Z_STREAM_END ? output : nil
    }
}
