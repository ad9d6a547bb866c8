import CCurl

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `curl_global_init` must run once per process before any other curl call, and is not safe to
/// race. A Swift global is initialised exactly once, thread-safely, on first use.
private let curlGlobalInitResult: CURLcode = {
    let rc = curl_global_init(Int(CURL_GLOBAL_DEFAULT))
    // After OpenSSL's exit handler (registered by the init above), so it runs before it.
    atexit { LoopThreadsAtExit.joinAtExit() }
    // The fork handler replaces a lazily initialised global: initialised here, before the handler
    // exists, so that no fork can catch its one-time initialisation half done on a loop thread (the
    // child would wait for it forever: seen in 1 of ~40 sign-in, destroy, fork runs).
    LoopThreadsAtExit.initialise()
    pthread_atfork(nil, nil) { LoopThreadsAtExit.forgetAfterFork() }
    return rc
}()

enum CurlGlobal {
    /// Whether the libcurl loaded decodes gzip (it was built with zlib): only then does a transfer ask
    /// for compressed answers. A libcurl without zlib would pass the compressed bytes on undecoded.
    static let decodesGzip: Bool = {
        // Any age returns the library's own struct; `features` is in every version of it.
        guard let info = curl_version_info(CURLVERSION_FIRST) else { return false }
        return info.pointee.features & CURL_VERSION_LIBZ != 0
    }()

    /// Initialises libcurl on first call; later calls return the first call's outcome.
    static func ensureInitialised() throws {
        let rc = curlGlobalInitResult
        guard rc == CURLE_OK else {
            throw TransportSetupError.curl("curl_global_init failed: \(String(cString: curl_easy_strerror(rc)))")
        }
    }
}

/// Why a transport could not be created.
package enum TransportSetupError: Error, Equatable, Sendable {
    /// libcurl could not be initialised (its own text).
    case curl(String)
    /// An option is unusable, e.g. a CA bundle path that cannot be read.
    case invalidOption(String)
}

extension TransportSetupError {
    /// The sentence for hosts.
    package var reason: String {
        switch self {
        case .curl(let text), .invalidOption(let text): return text
        }
    }
}
