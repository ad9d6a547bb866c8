import HearthWire

/// One REST endpoint, independent of where it is served: the production host it belongs to and the path
/// under it. `url(for:)` adds the scheme, the emulator prefix and the API key.
package struct Endpoint: Sendable, Hashable {
    static let identityToolkitHost = "identitytoolkit.googleapis.com"
    static let secureTokenHost = "securetoken.googleapis.com"

    /// Production host name, e.g. "identitytoolkit.googleapis.com".
    package var host: String
    /// Path below the host, without the leading '/', e.g. "v1/accounts:signUp".
    package var path: String
    /// "POST" for every RPC except the few GETs (projects, recaptchaConfig).
    package var method: String
    /// Query parameters after `key`, in order (values are percent-encoded when the URL is built).
    package var query: [QueryParameter]

    package init(host: String, path: String, method: String = "POST", query: [QueryParameter] = []) {
        self.host = host
        self.path = path
        self.method = method
        self.query = query
    }

    /// Identity Toolkit v1, e.g. `.identityToolkitV1("accounts:signUp")`.
    static func identityToolkitV1(_ method: String) -> Endpoint {
        Endpoint(host: identityToolkitHost, path: "v1/" + method)
    }

    /// Identity Toolkit v2, e.g. `.identityToolkitV2("accounts/mfaEnrollment:start")`.
    static func identityToolkitV2(_ path: String) -> Endpoint {
        Endpoint(host: identityToolkitHost, path: "v2/" + path)
    }

    /// The Secure Token service's refresh endpoint.
    static let secureToken = Endpoint(host: secureTokenHost, path: "v1/token")

    /// Production: `https://HOST/PATH?key=KEY`; emulator: `http://EMULATOR/HOST/PATH?key=KEY`.
    package func url(for config: BackendConfig) -> String {
        // Built in one buffer, not by string concatenation: every request builds its URL.
        var url: [UInt8] = []
        url.reserveCapacity(96 + host.utf8.count + path.utf8.count + config.encodedAPIKey.utf8.count)
        if let authority = config.emulatorAuthority {
            url.append(contentsOf: "http://".utf8)
            url.append(contentsOf: authority.utf8)
            url.append(UInt8(ascii: "/"))
        } else {
            url.append(contentsOf: "https://".utf8)
        }
        url.append(contentsOf: host.utf8)
        url.append(UInt8(ascii: "/"))
        url.append(contentsOf: path.utf8)
        url.append(contentsOf: "?key=".utf8)
        url.append(contentsOf: config.encodedAPIKey.utf8)
        for parameter in query {
            url.append(UInt8(ascii: "&"))
            PercentEncoding.append(parameter.name, to: &url)
            url.append(UInt8(ascii: "="))
            PercentEncoding.append(parameter.value, to: &url)
        }
        return String(decoding: url, as: UTF8.self)
    }
}

package struct QueryParameter: Sendable, Hashable {
    package var name: String
    package var value: String

    package init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}
