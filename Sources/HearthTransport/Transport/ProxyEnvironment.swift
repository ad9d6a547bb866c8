#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The proxies the environment names, as libcurl would read them: for http `http_proxy` (never
/// `HTTP_PROXY`, which curl refuses: a CGI program gets it from a request's `Proxy:` header), for https
/// `https_proxy` then `HTTPS_PROXY`, for either then `all_proxy` then `ALL_PROXY`; hosts to reach
/// directly from `no_proxy` then `NO_PROXY`; an empty value counts as unset.
///
/// Read once, when a transport is created, and handed to curl as options: left to curl, these five
/// variables were looked up and copied on every request (bench/FINDINGS.md). A change to them reaches
/// apps created after it.
package struct ProxyEnvironment: Equatable, Sendable {
    package var http: String?
    package var https: String?
    package var noProxy: String?

    package init(http: String? = nil, https: String? = nil, noProxy: String? = nil) {
        self.http = http
        self.https = https
        self.noProxy = noProxy
    }

    /// What `lookup` (the process's environment unless given) says now.
    package static func current(_ lookup: (String) -> String? = { getenv($0).map { String(cString: $0) } })
        -> ProxyEnvironment
    {
        func value(_ name: String) -> String? { lookup(name).flatMap { $0.isEmpty ? nil : $0 } }
        let all = value("all_proxy") ?? value("ALL_PROXY")
        return ProxyEnvironment(http: value("http_proxy") ?? all,
                                https: value("https_proxy") ?? value("HTTPS_PROXY") ?? all,
                                noProxy: value("no_proxy") ?? value("NO_PROXY"))
    }

    /// The proxy for a URL of `scheme` ("http" or "https"); "" for none, which tells curl not to look
    /// in the environment itself.
    func proxy(forScheme scheme: String) -> String {
        (scheme == "https" ? https : http) ?? ""
    }
}
