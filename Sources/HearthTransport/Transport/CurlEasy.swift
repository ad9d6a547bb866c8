import CCurl
import CHearthShims

/// One curl easy handle and the error buffer curl writes into, which must live exactly as long.
/// Reused across requests (see `CurlEasyPool`); loop thread only.
final class CurlEasy {
    /// The `CURL *`.
    let handle: UnsafeMutableRawPointer
    private let errorBuffer: UnsafeMutablePointer<CChar>

    init?() {
        guard let handle = curl_easy_init() else { return nil }
        self.handle = handle
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        _ = hearth_curl_easy_setopt_ptr(handle, CURLOPT_ERRORBUFFER, errorBuffer)
    }

    /// Only once the handle is out of any multi.
    deinit {
        curl_easy_cleanup(handle)
        errorBuffer.deallocate()
    }

    /// Whether the last request set options that the next one might not set again (any method but a
    /// plain POST, test-only connect-to entries): then `recycle` resets the handle to curl's defaults.
    var lastRequestNeedsReset = true
    /// The transport-wide options (`CurlTransfer.configureTransportOptions`) are set on this handle.
    var hasTransportOptions = false
    /// The multi's socket callbacks (`CurlMulti.add`) are set on this handle.
    var hasMultiCallbacks = false
    /// The scheme `CURLOPT_PROTOCOLS_STR` allows on this handle, nil while curl's default.
    var allowedProtocols: String?

    /// Back to curl's defaults, dropping the previous request's options and copied body (which may
    /// hold credentials) while keeping the handle's caches. Re-attaches the error buffer.
    func reset() {
        curl_easy_reset(handle)
        hasTransportOptions = false
        hasMultiCallbacks = false
        allowedProtocols = nil
        errorBuffer[0] = 0
        _ = hearth_curl_easy_setopt_ptr(handle, CURLOPT_ERRORBUFFER, errorBuffer)
    }

    /// Ready for the next request, with nothing of the last one's left that matters: after a plain
    /// POST (what every RPC sends) the options it set are either the transport's own (the same for
    /// every request) or set again by the next request, so only the copied body (it may hold
    /// credentials) and the pointers into the finished transfer are dropped, which costs a fraction
    /// of `curl_easy_reset` (bench: ~3,000 instructions per request).
    func recycle() {
        guard !lastRequestNeedsReset else { return reset() }
        errorBuffer[0] = 0
        _ = hearth_curl_easy_setopt_off_t(handle, CURLOPT_POSTFIELDSIZE_LARGE, 0)
        _ = hearth_curl_easy_setopt_ptr(handle, CURLOPT_COPYPOSTFIELDS, "")
        // Setting post fields made the handle a POST; back to curl's default method, or a later GET or
        // body-less DELETE would go out with a form Content-Type and Content-Length: 0.
        _ = hearth_curl_easy_setopt_long(handle, CURLOPT_HTTPGET, 1)
        _ = hearth_curl_easy_setopt_ptr(handle, CURLOPT_HTTPHEADER, nil)
        _ = hearth_curl_easy_setopt_ptr(handle, CURLOPT_WRITEDATA, nil)
        lastRequestNeedsReset = true
    }

    /// curl's detailed message for the last failure, if it wrote one.
    var errorMessage: String? {
        errorBuffer[0] == 0 ? nil : String(cString: errorBuffer)
    }

    var responseCode: Int {
        var code = 0
        guard hearth_curl_easy_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &code) == CURLE_OK else { return 0 }
        return code
    }

    /// The response's Content-Type, copied (curl's pointer dies with the next transfer).
    var contentType: String? {
        var value: UnsafeMutableRawPointer?
        guard hearth_curl_easy_getinfo_ptr(handle, CURLINFO_CONTENT_TYPE, &value) == CURLE_OK,
              let value else { return nil }
        return String(cString: value.assumingMemoryBound(to: CChar.self))
    }

    func set(_ option: CURLoption, _ value: Int) -> CURLcode {
        hearth_curl_easy_setopt_long(handle, option, value)
    }

    /// String options: curl copies the string during the call.
    func set(_ option: CURLoption, _ value: String) -> CURLcode {
        value.withCString { hearth_curl_easy_setopt_ptr(handle, option, $0) }
    }

    func set(_ option: CURLoption, pointer: UnsafeRawPointer?) -> CURLcode {
        hearth_curl_easy_setopt_ptr(handle, option, pointer)
    }

    func set(_ option: CURLoption, offset: Int64) -> CURLcode {
        hearth_curl_easy_setopt_off_t(handle, option, curl_off_t(offset))
    }

    func set(_ option: CURLoption, writer: hearth_curl_write_cb) -> CURLcode {
        hearth_curl_easy_setopt_write_cb(handle, option, writer)
    }
}

/// Idle easy handles kept for the next requests: reusing them keeps their DNS and TLS session
/// caches warm (connections themselves are cached by the multi handle). Loop thread only.
struct CurlEasyPool {
    private var idle: [CurlEasy] = []
    /// Idle handles kept once nothing is in flight.
    let capacity: Int
    /// Idle handles kept while requests are in flight. Transfers finish in batches and the requests
    /// their completions lead to (the lookup after a sign-in, the app's next call) start right
    /// after; a pool of `capacity` freed most of a batch's handles only to make new ones (bench: 0.8
    /// curl_easy_init and cleanup per sign-in with 64 in flight, ~13,000 instructions each pair).
    let busyCapacity: Int

    init(capacity: Int, busyCapacity: Int) {
        self.capacity = capacity
        self.busyCapacity = max(capacity, busyCapacity)
    }

    /// An idle handle, or a new one; nil only if curl cannot allocate.
    mutating func take() -> CurlEasy? {
        idle.popLast() ?? CurlEasy()
    }

    /// Takes back a handle that is out of the multi; beyond `busyCapacity` it is freed.
    mutating func give(_ easy: CurlEasy) {
        easy.recycle()
        if idle.count < busyCapacity { idle.append(easy) }
    }

    /// Nothing is in flight any more: frees the idle handles beyond `capacity`.
    mutating func trim() {
        if idle.count > capacity { idle.removeLast(idle.count - capacity) }
    }

    var idleCount: Int { idle.count }

    mutating func drain() {
        idle.removeAll()
    }
}
