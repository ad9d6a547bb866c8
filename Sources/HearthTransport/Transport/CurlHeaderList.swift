import CCurl

/// A request's header lines as the `curl_slist` curl reads during a transfer, freed when the last
/// transfer using it and the cache have let go.
final class CurlHeaderList {
    let pointer: UnsafeMutablePointer<curl_slist>?

    /// `headers` as curl header lines, plus an empty `Expect:` unless the request sets one (curl would
    /// otherwise send "Expect: 100-continue" for bodies above 1 MiB and wait for the server's go-ahead).
    init(_ headers: [(name: String, value: String)]) throws(TransportError) {
        try RequestValidation.checkHeaders(headers)
        var list: UnsafeMutablePointer<curl_slist>?
        var line: [UInt8] = []
        line.reserveCapacity(128)
        do throws(TransportError) {
            for header in headers {
                line.removeAll(keepingCapacity: true)
                line.append(contentsOf: header.name.utf8)
                // "Name:" would make curl drop the header; "Name;" sends it empty.
                if header.value.isEmpty {
                    line.append(UInt8(ascii: ";"))
                } else {
                    line.append(contentsOf: ": ".utf8)
                    line.append(contentsOf: header.value.utf8)
                }
                list = try Self.append(&line, to: list)
            }
            if !headers.contains(where: { ASCII.equalsIgnoringCase($0.name.utf8, "expect") }) {
                line.removeAll(keepingCapacity: true)
                line.append(contentsOf: "Expect:".utf8)
                list = try Self.append(&line, to: list)
            }
        } catch {
            if let list { curl_slist_free_all(list) }
            throw error
        }
        pointer = list
    }

    deinit {
        if let pointer { curl_slist_free_all(pointer) }
    }

    /// Appends `line` (without its terminating NUL, which this adds) to `list`.
    private static func append(_ line: inout [UInt8], to list: UnsafeMutablePointer<curl_slist>?)
        throws(TransportError) -> UnsafeMutablePointer<curl_slist>
    {
        line.append(0)
        let appended = line.withUnsafeBufferPointer { bytes in
            bytes.baseAddress.flatMap { base in
                base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { curl_slist_append(list, $0) }
            }
        }
        guard let appended else { throw .network("out of memory building request headers") }
        return appended
    }
}

/// The header list of the last request, reused while requests send the same headers: a backend sends
/// the same few headers with every RPC (content type, client version, app id, locale), and building the
/// list cost two allocations and a copy per line per request. Loop thread only, like the transport.
final class CurlHeaderListCache {
    private var headers: [(name: String, value: String)] = []
    private var list: CurlHeaderList?

    func list(for headers: [(name: String, value: String)]) throws(TransportError) -> CurlHeaderList {
        if let list, Self.same(headers, self.headers) { return list }
        let made = try CurlHeaderList(headers)
        self.headers = headers
        list = made
        return made
    }

    private static func same(_ a: [(name: String, value: String)], _ b: [(name: String, value: String)]) -> Bool {
        guard a.count == b.count else { return false }
        for index in a.indices where a[index].name != b[index].name || a[index].value != b[index].value {
            return false
        }
        return true
    }
}
