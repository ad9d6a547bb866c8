import HearthEmulator

/// `hearth-emulator [--host HOST] [--port PORT] [--project PROJECT_ID] [--recent-login-seconds N] [--help]`
struct CommandLineOptions {
    static let usage = """
        usage: hearth-emulator [--host HOST] [--port PORT] [--project PROJECT_ID] [--recent-login-seconds N]

        A local server with the Firebase Auth Emulator's REST API.

          --host HOST          address to listen on (default 127.0.0.1)
          --port PORT          port to listen on; 0 picks a free one (default 9099)
          --project PROJECT_ID project that API-key requests act on (default demo-hearth)
          --recent-login-seconds N
                               password and email changes and account deletion need a sign-in
                               at most N seconds old, else CREDENTIAL_TOO_OLD_LOGIN_AGAIN
                               (default 0: never, like Firebase's emulator); per project it is
                               recentLoginMaxAgeSeconds in /emulator/v1/projects/{p}/config
          -h, --help           show this help

        Prints "hearth-emulator listening on http://HOST:PORT" once it accepts connections.
        Stops on SIGINT or SIGTERM.
        """

    enum Outcome {
        case run(EmulatorConfiguration)
        case help
    }

    struct Failure: Error {
        var message: String
    }

    /// Accepts `--name value` and `--name=value`.
    static func parse(_ arguments: [String]) throws(Failure) -> Outcome {
        var configuration = EmulatorConfiguration()
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            if argument == "-h" || argument == "--help" { return .help }
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard ["--host", "--port", "--project", "--recent-login-seconds"].contains(name) else {
                throw Failure(message: "unknown option '\(argument)'")
            }
            guard let value = inlineValue ?? remaining.popFirst() else {
                throw Failure(message: "option '\(name)' needs a value")
            }
            switch name {
            case "--host":
                guard !value.isEmpty else { throw Failure(message: "--host must not be empty") }
                configuration.host = value
            case "--port":
                guard let port = Int(value), (0...65535).contains(port) else {
                    throw Failure(message: "--port must be a number from 0 to 65535, not '\(value)'")
                }
                configuration.port = port
            case "--recent-login-seconds":
                guard let seconds = Int64(value), (0...Int64(Int32.max)).contains(seconds) else {
                    throw Failure(message: "--recent-login-seconds must be a number of seconds (0 turns the check off), not '\(value)'")
                }
                configuration.recentLoginMaxAgeSeconds = seconds
            default:
                guard !value.isEmpty else { throw Failure(message: "--project must not be empty") }
                configuration.projectId = value
            }
        }
        return .run(configuration)
    }
}
