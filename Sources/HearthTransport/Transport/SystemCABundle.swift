import CCurl
import CHearthShims

/// The CA bundle of the machine Hearth runs on, for a libcurl that was built for another one.
///
/// A libcurl carries the CA bundle path of the distribution it was built on (Debian's is
/// /etc/ssl/certs/ca-certificates.crt). The Python wheel ships such a libcurl to every glibc
/// distribution, and where that file does not exist curl fails every https request with "error
/// setting certificate verify locations", even when the machine has a bundle elsewhere (the bug
/// pycurl's manylinux wheels had on Debian, the other way round). So when curl's own bundle is
/// missing, the transport hands curl this machine's bundle instead; a libcurl from the
/// distribution itself always finds its own file, and is left alone.
enum SystemCABundle {
    /// Where glibc distributions keep their bundle of trusted CAs (PEM), the most common first.
    static let wellKnownPaths = [
        "/etc/ssl/certs/ca-certificates.crt",                // Debian, Ubuntu, Arch, Gentoo, NixOS
        "/etc/pki/tls/certs/ca-bundle.crt",                  // Fedora, RHEL, CentOS, Amazon Linux
        "/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem", // RHEL 7 and later, where the above is absent
        "/etc/ssl/ca-bundle.pem",                            // openSUSE, SLES
        "/etc/pki/tls/cacert.pem",                           // OpenELEC
        "/etc/ssl/cert.pem",                                 // Alpine, Void, macOS-like layouts
    ]

    /// The bundle curl should be given when the caller named none, or nil to keep curl's default:
    /// nil when curl has no built-in bundle (it then uses its CA directory or the TLS library's own
    /// default) or when that bundle is usable; otherwise the first usable well-known path (nil when
    /// there is none: curl's own error then names the path it looked for).
    static func replacement(forBuiltIn builtIn: String?, isUsable: (String) -> Bool) -> String? {
        guard let builtIn, !builtIn.isEmpty, !isUsable(builtIn) else { return nil }
        return wellKnownPaths.first { $0 != builtIn && isUsable($0) }
    }

    /// This process's answer, worked out once: the machine's files do not move under a running
    /// program often enough to look again per transport.
    static let forThisMachine: String? = replacement(forBuiltIn: curlBuiltInBundle()) {
        CurlTransport.caBundleProblem($0) == nil
    }

    /// The CA bundle this libcurl was built with (CURLINFO_CAINFO, curl 7.84 and later); nil when it
    /// has none or is too old to say.
    static func curlBuiltInBundle() -> String? {
        guard (try? CurlGlobal.ensureInitialised()) != nil, let easy = curl_easy_init() else { return nil }
        defer { curl_easy_cleanup(easy) }
        var value: UnsafeMutableRawPointer?
        guard hearth_curl_easy_getinfo_ptr(easy, CURLINFO_CAINFO, &value) == CURLE_OK, let value else { return nil }
        return String(cString: value.assumingMemoryBound(to: CChar.self))
    }
}
