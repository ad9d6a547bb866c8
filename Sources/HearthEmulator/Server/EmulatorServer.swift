import Foundation
import Hummingbird
import Logging
import NIOCore
import Synchronization

/// Where and as what the emulator runs.
public struct EmulatorConfiguration: Sendable {
    public var host: String
    /// 0 picks a free port.
    public var port: Int
    public var projectId: String
    /// How recent a sign-in must be for sensitive account changes; 0 never asks (see `RecentLogin`).
    /// Projects start with it; `/emulator/v1/projects/{p}/config` changes it per project.
    public var recentLoginMaxAgeSeconds: Int64
    /// How long SMS verification (and TOTP enrollment) sessions can be finished; later they are
    /// SESSION_EXPIRED.
    public var smsCodeTtlSeconds: Int64
    public var smsRateLimit: SmsRateLimit
    public var testPhoneNumbers: TestPhoneNumbers
    /// SMS to numbers that are not test numbers need a reCAPTCHA token (see `AppVerification`).
    public var appVerificationRequired: Bool

    public init(host: String = "127.0.0.1", port: Int = 9099, projectId: String = "demo-hearth",
                recentLoginMaxAgeSeconds: Int64 = 0, smsCodeTtlSeconds: Int64 = 300,
                smsRateLimit: SmsRateLimit = SmsRateLimit(), testPhoneNumbers: TestPhoneNumbers = TestPhoneNumbers(),
                appVerificationRequired: Bool = false) {
        self.host = host
        self.port = port
        self.projectId = projectId
        self.recentLoginMaxAgeSeconds = recentLoginMaxAgeSeconds
        self.smsCodeTtlSeconds = smsCodeTtlSeconds
        self.smsRateLimit = smsRateLimit
        self.testPhoneNumbers = testPhoneNumbers
        self.appVerificationRequired = appVerificationRequired
    }

    /// The settings every project starts with.
    var initialProjectConfig: ProjectConfig {
        ProjectConfig(
            recentLoginMaxAgeSeconds: recentLoginMaxAgeSeconds, smsCodeTtlSeconds: smsCodeTtlSeconds,
            smsRateLimit: smsRateLimit, testPhoneNumbers: testPhoneNumbers,
            appVerificationRequired: appVerificationRequired)
    }
}

/// hearth-emulator: the Firebase Auth Emulator's REST surface on Hummingbird. Runs until SIGINT or
/// SIGTERM, then shuts down gracefully.
public struct EmulatorServer: Sendable {
    public let configuration: EmulatorConfiguration

    public init(configuration: EmulatorConfiguration) {
        self.configuration = configuration
    }

    /// Serves until a termination signal. `onListening` gets `http://host:port` (the bound port) once
    /// the server accepts connections.
    public func run(onListening: @escaping @Sendable (String) -> Void) async throws {
        // Messages go to stderr: stdout carries only the readiness line tools wait for.
        let logger = Logger(label: "hearth-emulator", factory: { StreamLogHandler.standardError(label: $0) })
        let baseURL = Mutex<String?>(nil)
        let host = configuration.host
        let environment = EmulatorEnvironment(
            defaultProjectId: configuration.projectId,
            clock: EmulatorClock(),
            log: EmulatorLog(logger: logger),
            baseURL: { baseURL.withLock { $0 } ?? "http://\(Self.urlHost(host))" })
        let responder = EmulatorResponder(
            routes: EmulatorRoutes.table,
            state: EmulatorState(initialConfig: configuration.initialProjectConfig),
            environment: environment)
        var hummingbirdLogger = logger
        hummingbirdLogger.logLevel = .warning
        let app = Application(
            responder: responder,
            configuration: ApplicationConfiguration(
                address: .hostname(configuration.host, port: configuration.port), serverName: "hearth-emulator"),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                let url = "http://\(Self.urlHost(host)):\(port)"
                baseURL.withLock { $0 = url }
                onListening(url)
            },
            logger: hummingbirdLogger)
        try await app.runService()
    }

    /// IPv6 literals need brackets in URLs.
    static func urlHost(_ host: String) -> String {
        host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
    }
}
