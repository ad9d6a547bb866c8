import HearthWire

/// Where a local emulator listens. Every endpoint, token refresh included, goes to
/// `http://HOST:PORT/<production host>/<path>` when one is set.
package struct EmulatorAddress: Sendable, Equatable {
    /// A host name or IP literal; IPv6 literals may be given with or without brackets.
    package var host: String
    package var port: UInt16

    package init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// `host:port` for a URL, with IPv6 literals in brackets ("[::1]:9099").
    package var authority: String {
        let isBracketed = host.hasPrefix("[") && host.hasSuffix("]")
        let needsBrackets = !isBracketed && host.contains(":")
        return (needsBrackets ? "[\(host)]" : host) + ":" + String(port)
    }

    /// Parses the `FIREBASE_AUTH_EMULATOR_HOST` form: "host:port", "[v6]:port", optionally with an
    /// "http://" prefix and a trailing '/'. Nil when there is no host or the port is not 1...65535.
    package init?(parsing text: String) {
        var rest = Substring(text.trimmingASCIIWhitespace())
        if rest.hasPrefix("http://") { rest = rest.dropFirst("http://".count) }
        while rest.hasSuffix("/") { rest = rest.dropLast() }
        let hostPart: Substring
        let portPart: Substring
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { return nil }
            hostPart = rest[rest.index(after: rest.startIndex)..<close]
            let afterHost = rest[rest.index(after: close)...]
            guard afterHost.hasPrefix(":") else { return nil }
            portPart = afterHost.dropFirst()
        } else {
            guard let colon = rest.lastIndex(of: ":") else { return nil }
            hostPart = rest[..<colon]
            portPart = rest[rest.index(after: colon)...]
            // An unbracketed IPv6 literal is ambiguous about where the port starts.
            if hostPart.contains(":") { return nil }
        }
        guard !hostPart.isEmpty, !hostPart.contains("/"), !hostPart.contains("@"),
              !portPart.isEmpty, portPart.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
              let port = UInt16(portPart), port != 0 else { return nil }
        self.host = String(hostPart)
        self.port = port
    }
}

/// What every request needs to know about the app: key, optional headers, where to send it.
///
/// Every request takes a copy of the Auth's configuration, so the fields live in one shared box that a
/// copy only retains (copy-on-write): as a plain struct of seven strings each copy retained and released
/// every one of them.
package struct BackendConfig: Sendable, Equatable {
    private struct Fields: Equatable {
        var apiKey: String
        var appId: String?
        var languageCode: String?
        var emulator: EmulatorAddress?
        var clientVersion: String
        var timeoutMs: Int?
        var tenantId: String?
        // Derived once, not per request: every request's URL carries them.
        var encodedAPIKey: String
        var emulatorAuthority: String?
    }

    /// Changed only while one configuration holds it (`change`), so sharing it between threads is safe.
    private final class Storage: @unchecked Sendable {
        var fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    private var storage: Storage

    private mutating func change(_ body: (inout Fields) -> Void) {
        if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.fields) }
        body(&storage.fields)
    }

    /// The Web API key, sent as the `key` query parameter.
    package var apiKey: String {
        get { storage.fields.apiKey }
        set { change { $0.apiKey = newValue; $0.encodedAPIKey = PercentEncoding.encode(newValue) } }
    }
    /// Sent as `X-Firebase-GMPID` when set.
    package var appId: String? {
        get { storage.fields.appId }
        set { change { $0.appId = newValue } }
    }
    /// Sent as `X-Firebase-Locale` when set (localizes emails and SMS the server sends).
    package var languageCode: String? {
        get { storage.fields.languageCode }
        set { change { $0.languageCode = newValue } }
    }
    /// Routes every endpoint to a local emulator when set.
    package var emulator: EmulatorAddress? {
        get { storage.fields.emulator }
        set { change { $0.emulator = newValue; $0.emulatorAuthority = newValue?.authority } }
    }
    /// Sent as `X-Client-Version`.
    var clientVersion: String {
        get { storage.fields.clientVersion }
        set { change { $0.clientVersion = newValue } }
    }
    /// Per-request timeout; nil leaves the transport's default.
    package var timeoutMs: Int? {
        get { storage.fields.timeoutMs }
        set { change { $0.timeoutMs = newValue } }
    }
    /// The Identity Platform tenant the Auth signs users in to (`Auth.tenantId`); nil for the project's
    /// own users. Sent as `tenantId` by the requests that carry it (`TenantScopedRPC`).
    package var tenantId: String? {
        get { storage.fields.tenantId }
        set { change { $0.tenantId = newValue } }
    }
    /// `apiKey`, percent-encoded for the query.
    var encodedAPIKey: String { storage.fields.encodedAPIKey }
    /// `emulator?.authority`.
    var emulatorAuthority: String? { storage.fields.emulatorAuthority }

    package init(apiKey: String, appId: String? = nil, languageCode: String? = nil,
                emulator: EmulatorAddress? = nil, clientVersion: String = BackendConfig.defaultClientVersion,
                timeoutMs: Int? = nil, tenantId: String? = nil) {
        storage = Storage(Fields(apiKey: apiKey, appId: appId, languageCode: languageCode, emulator: emulator,
                                 clientVersion: clientVersion, timeoutMs: timeoutMs, tenantId: tenantId,
                                 encodedAPIKey: PercentEncoding.encode(apiKey), emulatorAuthority: emulator?.authority))
    }

    /// The same box is the same configuration, without comparing its strings (`RequestParts` asks on
    /// every request).
    package static func == (lhs: BackendConfig, rhs: BackendConfig) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.fields == rhs.storage.fields
    }

    package static let defaultClientVersion = "Hearth/\(HearthVersion.string)"
}
