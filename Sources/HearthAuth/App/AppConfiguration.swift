/// What a host configures when it creates an app (the C options struct, validated).
package struct AppConfiguration: Sendable {
    static let defaultAppName = "[DEFAULT]"

    package var apiKey: String
    package var projectId: String?
    package var appId: String?
    package var authDomain: String?
    package var appName: String = AppConfiguration.defaultAppName
    package var requestTimeoutMs: Int = 30_000
    package var caBundlePath: String?
    /// Tests only (package-internal): see `CurlTransport.Options.connectTo`.
    var transportConnectTo: [String] = []

    package init(apiKey: String) { self.apiKey = apiKey }

    /// Identifies this app's session in a store: stable across runs for the same name and key.
    package var sessionKey: String { "hearth.session.\(appName).\(apiKey)" }

    /// A file name for the session that is safe on any file system.
    package var sessionFileName: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a: stable across runs, unlike Hasher
        for byte in sessionKey.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let readable = appName.unicodeScalars.map { scalar -> Character in
            (scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                || scalar == "-" || scalar == "_")) ? Character(scalar) : "_"
        }
        let hex = String(hash, radix: 16)
        return "session-\(String(readable.prefix(40)))-\(String(repeating: "0", count: 16 - hex.count) + hex).json"
    }
}
