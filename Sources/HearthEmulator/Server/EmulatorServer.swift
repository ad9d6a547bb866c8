import NIOCore
import NIOHTTP1
import NIOPosix
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
    /// How long email action codes can be used; later they are EXPIRED_OOB_CODE. 0: forever.
    public var oobCodeTtlSeconds: Int64 = 0
    /// gzip answers for clients that ask, as Google's servers do (off: plain answers, as Firebase's emulator).
    public var compressesAnswers = true
    public var smsRateLimit: SmsRateLimit
    public var testPhoneNumbers: TestPhoneNumbers
    /// SMS to numbers that are not test numbers need a reCAPTCHA token (see `AppVerification`).
    public var appVerificationRequired: Bool
    /// A Firebase emulator export to load into `projectId` before listening (`--import`).
    public var importDirectory: String?
    /// Where to export `projectId` after a SIGINT or SIGTERM (`--export-on-exit`).
    public var exportOnExitDirectory: String?
    /// The settings given explicitly on the command line, by their name in `config.json`
    /// (`smsRateLimit`, ...): an imported `config.json` does not override them.
    public var settingsFromCommandLine: Set<String> = []

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
        var config = ProjectConfig(
            recentLoginMaxAgeSeconds: recentLoginMaxAgeSeconds, smsCodeTtlSeconds: smsCodeTtlSeconds,
            smsRateLimit: smsRateLimit, testPhoneNumbers: testPhoneNumbers,
            appVerificationRequired: appVerificationRequired)
        config.oobCodeTtlSeconds = oobCodeTtlSeconds
        return config
    }
}

/// hearth-emulator: the Firebase Auth Emulator's REST surface over HTTP/1.1 on SwiftNIO. Runs until
/// SIGINT or SIGTERM, then shuts down gracefully.
public struct EmulatorServer: Sendable {
    public let configuration: EmulatorConfiguration

    /// Event-loop threads; each request is answered on the loop that read it, under the state's lock.
    /// Two answer more sign-ins per second than one on two cores (bench/FINDINGS.md).
    static let eventLoopThreads = 2

    /// NIO's limits of header size (80 KiB per field and in all), with Hummingbird's cap of 1,000
    /// header fields: a request past them is answered 400 and closed, as before.
    static var requestLimits: NIOHTTPDecoderLimitConfiguration {
        var limits = NIOHTTPDecoderLimitConfiguration()
        limits.maxHeaderFieldCount = 1000
        return limits
    }

    public init(configuration: EmulatorConfiguration) {
        self.configuration = configuration
    }

    /// Serves until a termination signal. `onListening` gets `http://host:port` (the bound port) once
    /// the server accepts connections.
    public func run(onListening: @escaping @Sendable (String) -> Void) async throws {
        let log = EmulatorLog.standardError
        let baseURL = Mutex<String?>(nil)
        let host = configuration.host
        let environment = EmulatorEnvironment(
            defaultProjectId: configuration.projectId,
            clock: EmulatorClock(),
            log: log,
            baseURL: { baseURL.withLock { $0 } ?? "http://\(Self.urlHost(host))" })
        let state = EmulatorState(initialConfig: configuration.initialProjectConfig)
        if let directory = configuration.importDirectory {
            try load(directory, into: state, environment: environment)
        }
        let responder = EmulatorResponder(
            routes: EmulatorRoutes.table, state: state, environment: environment,
            compressesAnswers: configuration.compressesAnswers)

        let group = MultiThreadedEventLoopGroup(numberOfThreads: Self.eventLoopThreads)
        let stopRequested = group.next().makePromise(of: Void.self)
        // Before binding: a signal that arrives while starting still shuts down gracefully.
        let signals = TerminationSignals { stopRequested.succeed() }
        let connections = OpenConnections()
        let console = Console(responder: responder, state: state, environment: environment,
                              access: ConsoleAccess(host: configuration.host))
        let listener: any Channel
        do {
            listener = try await ServerBootstrap(group: group)
                .serverChannelOption(.backlog, value: 256)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .serverChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(connections.makeAcceptHandler())
                    }
                }
                // A client may half-close after its last request and still read the answers.
                .childChannelOption(.allowRemoteHalfClosure, value: true)
                .childChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        // NIO's decoder; answers are written as wire bytes by the connection handler.
                        try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(
                            HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes, limitConfiguration: Self.requestLimits)))
                        try channel.pipeline.syncOperations.addHandler(HTTPConnectionHandler(responder: responder, console: console))
                    }
                }
                .bind(host: configuration.host, port: configuration.port)
                .get()
        } catch {
            // Nothing will wait for a stop: a promise left unfulfilled traps (in debug builds) when freed.
            stopRequested.succeed()
            try? await group.shutdownGracefully()
            throw error
        }
        let url = "http://\(Self.urlHost(host)):\(listener.localAddress?.port ?? 0)"
        baseURL.withLock { $0 = url }
        onListening(url)

        try await stopRequested.futureResult.get()
        // Stop accepting, let every answer under way be written, close idle connections.
        try? await listener.close()
        let allClosed = group.next().makePromise(of: Void.self)
        connections.shutDown(allClosed: allClosed)
        try await allClosed.futureResult.get()
        try await group.shutdownGracefully()
        withExtendedLifetime(signals) {}
        // No request is left to change the state.
        if let directory = configuration.exportOnExitDirectory {
            try export(state, to: directory, log: environment.log)
        }
    }

    /// Everything is checked before the server listens: a file that cannot be loaded whole stops
    /// the start, so a test never runs against half of its data.
    private func load(_ directory: String, into state: EmulatorState, environment: EmulatorEnvironment) throws(ExportDirectory.Failure) {
        let contents = try ExportDirectory.read(directory)
        for note in contents.notes { environment.log.warning("--import: \(note)") }
        guard let authDirectory = contents.authDirectory else { return }
        let projectId = configuration.projectId

        if var settings = contents.settings {
            let given = configuration.settingsFromCommandLine
            if given.contains("recentLoginMaxAgeSeconds") { settings.recentLoginMaxAgeSeconds = nil }
            if given.contains("smsCodeTtlSeconds") { settings.smsCodeTtlSeconds = nil }
            if given.contains("oobCodeTtlSeconds") { settings.oobCodeTtlSeconds = nil }
            if given.contains("smsRateLimit") { settings.smsRateLimit = nil }
            if given.contains("testPhoneNumbers") { settings.testPhoneNumbers = nil }
            if given.contains("appVerificationRequired") { settings.appVerificationRequired = nil }
            let patch = settings
            do throws(ApiError) {
                try state.withProject(projectId) { project throws(ApiError) in
                    project.config = try EmulatorConfig.applying(patch, to: project.config)
                }
            } catch {
                throw ExportDirectory.Failure(description: "\(authDirectory)/\(ExportDirectory.configFileName): \(ExportDirectory.fileMessage(error))")
            }
        }

        let accountsPath = "\(authDirectory)/\(ExportDirectory.accountsFileName)"
        let users = contents.users
        let clock = environment.clock
        let failures: [AccountImport.Failure]
        do throws(ApiError) {
            failures = try state.withProject(projectId) { project throws(ApiError) in
                try AccountImport.load(users, into: &project, clock: clock)
            }
        } catch {
            throw ExportDirectory.Failure(description: "\(accountsPath): \(error.message)")
        }
        if !failures.isEmpty {
            let lines = failures.prefix(10).map { failure in
                "  users[\(failure.index)]\(failure.localId.map { " (localId \"\($0)\")" } ?? ""): \(failure.message)"
            }
            let more = failures.count > 10 ? "\n  ... and \(failures.count - 10) more" : ""
            throw ExportDirectory.Failure(description:
                "\(accountsPath): \(failures.count) of \(users.count) accounts cannot be imported:\n"
                + lines.joined(separator: "\n") + more)
        }
        environment.log.info("Imported \(users.count) accounts into project \(projectId) from \(authDirectory)")

        for (tenantId, tenantUsers) in contents.tenantUsers {
            let path = "\(authDirectory)/\(ExportDirectory.tenantAccountsFileName(tenantId))"
            let tenantFailures: [AccountImport.Failure]
            do throws(ApiError) {
                tenantFailures = try state.tenant(tenantId, of: projectId).write { project throws(ApiError) in
                    try AccountImport.load(tenantUsers, into: &project, clock: clock)
                }
            } catch {
                throw ExportDirectory.Failure(description: "\(path): \(error.message)")
            }
            if let failure = tenantFailures.first {
                throw ExportDirectory.Failure(description:
                    "\(path): \(tenantFailures.count) of \(tenantUsers.count) accounts cannot be imported:\n"
                    + "  users[\(failure.index)]\(failure.localId.map { " (localId \"\($0)\")" } ?? ""): \(failure.message)")
            }
            environment.log.info("Imported \(tenantUsers.count) accounts into tenant \(tenantId) of project \(projectId)")
        }
    }

    private func export(_ state: EmulatorState, to directory: String, log: EmulatorLog) throws(ExportDirectory.Failure) {
        let projectId = configuration.projectId
        let snapshot = try? state.withProject(projectId) { project throws(ApiError) in
            (project.usersSortedByLocalId(), project.config)
        }
        guard let snapshot else { return }
        let (users, config) = snapshot
        let family = state.family(projectId)
        let tenants = family.tenantConfigs(after: nil).map { tenant in
            (tenantId: tenant.tenantId, users: state.tenant(tenant.tenantId, of: projectId).read { $0.usersSortedByLocalId() })
        }
        try ExportDirectory.write(users: users, tenants: tenants, config: config, to: directory)
        log.info("Exported \(users.count) accounts of project \(projectId)"
                 + (tenants.isEmpty ? "" : " and \(tenants.map(\.users.count).reduce(0, +)) of its \(tenants.count) tenants")
                 + " to \(directory)")
    }

    /// IPv6 literals need brackets in URLs.
    static func urlHost(_ host: String) -> String {
        host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
    }
}
