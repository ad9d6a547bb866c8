import CCurl

/// A request URL parsed once by curl's URL parser (`CURLU`), handed to transfers with `CURLOPT_CURLU`.
///
/// Given a URL string (`CURLOPT_URL`), curl parses it at the start of every transfer and then prints
/// it back to a string: ~19,000 instructions per request, about a fifth of curl's whole cost of a
/// sign-in request on a kept-alive connection (bench, issue 5). Given a parsed handle, curl copies it
/// instead. curl only reads the handle, during the transfers it is set on: every transfer holds the
/// handle it was given until its easy handle has left the multi, and sets its own before the easy
/// handle is added again (a reset handle has none).
final class CurlURL {
    let handle: OpaquePointer

    /// `url` as curl's parser reads it when given it as `CURLOPT_URL`; throws `.network` for a URL the
    /// parser refuses (a request curl would fail without sending).
    init(_ url: String) throws(TransportError) {
        guard let handle = curl_url() else { throw .network("out of memory parsing the URL") }
        // The flags curl uses for CURLOPT_URL, less scheme guessing: a request URL always has its
        // scheme, http or https (`CheckedURLCache`).
        let code = curl_url_set(handle, CURLUPART_URL, url, UInt32(CURLU_NON_SUPPORT_SCHEME))
        guard code == CURLUE_OK else {
            curl_url_cleanup(handle)
            throw .network("invalid URL: \(String(cString: curl_url_strerror(code)))")
        }
        self.handle = handle
    }

    deinit {
        curl_url_cleanup(handle)
    }

    /// "scheme://host:port" (the port curl will use, default ports included): the requests one
    /// connection can serve, for the transport's per-host limit (`HostAdmission`).
    func connectionKey(scheme: String) -> String {
        func part(_ which: CURLUPart, _ flags: Int32) -> String {
            var value: UnsafeMutablePointer<CChar>?
            guard curl_url_get(handle, which, &value, UInt32(flags)) == CURLUE_OK, let value else { return "" }
            defer { curl_free(value) }
            return String(cString: value)
        }
        return scheme + "://" + part(CURLUPART_HOST, 0).lowercased() + ":" + part(CURLUPART_PORT, CURLU_DEFAULT_PORT)
    }
}
