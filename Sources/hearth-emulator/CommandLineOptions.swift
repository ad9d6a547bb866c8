import HearthEmulator

/// `hearth-emulator [--host HOST] [--port PORT] [--project PROJECT_ID] [--recent-login-seconds N]
/// [--sms-code-ttl-seconds N] [--sms-rate-limit COUNT/SECONDS] [--test-phone-number NUMBER=CODE]...
/// [--require-app-verification] [--help]`
struct CommandLineOptions {
    static let usage = """
        usage: hearth-emulator [--host HOST] [--port PORT] [--project PROJECT_ID] [--recent-login-seconds N]
                               [--sms-code-ttl-seconds N] [--sms-rate-limit COUNT/SECONDS]
                               [--test-phone-number NUMBER=CODE]... [--require-app-verification]

        A local server with the Firebase Auth Emulator's REST API.

          --host HOST          address to listen on (default 127.0.0.1)
          --port PORT          port to listen on; 0 picks a free one (default 9099)
          --project PROJECT_ID project that API-key requests act on (default demo-hearth)
          --recent-login-seconds N
                               password and email changes, account deletion, second-factor
                               enrollment and withdrawal need a sign-in at most N seconds old, else
                               CREDENTIAL_TOO_OLD_LOGIN_AGAIN (default 0: never, like Firebase's
                               emulator)
          --sms-code-ttl-seconds N
                               SMS verification codes (and TOTP enrollments) must be used within N
                               seconds, else SESSION_EXPIRED (default 300)
          --sms-rate-limit COUNT/SECONDS
                               at most COUNT codes per phone number in any SECONDS, else
                               TOO_MANY_ATTEMPTS_TRY_LATER; COUNT 0 turns the limit off (default 5/60)
          --test-phone-number NUMBER=CODE
                               a fictional number with a fixed 6-digit code, as in the Firebase
                               console, e.g. "+1 650-555-3434=654321" (spaces, dashes, dots and
                               parentheses are dropped); no SMS is logged for it, and it is exempt
                               from the rate limit and from app verification; repeatable
          --require-app-verification
                               SMS to numbers that are not test numbers need a recaptchaToken from the
                               fake reCAPTCHA page /emulator/auth/handler?authType=verifyApp (else
                               MISSING_APP_CREDENTIAL / INVALID_APP_CREDENTIAL); off by default, like
                               Firebase's emulator
          -h, --help           show this help

        Every setting but --host, --port and --project is per project in /emulator/v1/projects/{p}/config:
          {"recentLoginMaxAgeSeconds": 0, "smsCodeTtlSeconds": 300,
           "smsRateLimit": {"maxSends": 5, "windowSeconds": 60},
           "testPhoneNumbers": {"+16505553434": "654321"}, "appVerificationRequired": false}
        (PATCH changes the settings given; testPhoneNumbers replaces the whole set.)

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

    private static let valuedOptions: Set<String> = [
        "--host", "--port", "--project", "--recent-login-seconds", "--sms-code-ttl-seconds", "--sms-rate-limit",
        "--test-phone-number",
    ]
    private static let switches: Set<String> = ["--require-app-verification"]

    /// Accepts `--name value` and `--name=value`.
    static func parse(_ arguments: [String]) throws(Failure) -> Outcome {
        var configuration = EmulatorConfiguration()
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            if argument == "-h" || argument == "--help" { return .help }
            if switches.contains(argument) {
                configuration.appVerificationRequired = true
                continue
            }
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard valuedOptions.contains(name) else {
                throw Failure(message: "unknown option '\(argument)'")
            }
            guard let value = inlineValue ?? remaining.popFirst() else {
                throw Failure(message: "option '\(name)' needs a value")
            }
            try apply(name, value, to: &configuration)
        }
        return .run(configuration)
    }

    private static func apply(_ name: String, _ value: String, to configuration: inout EmulatorConfiguration) throws(Failure) {
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
        case "--sms-code-ttl-seconds":
            guard let seconds = Int64(value), (1...Int64(Int32.max)).contains(seconds) else {
                throw Failure(message: "--sms-code-ttl-seconds must be a number of seconds from 1, not '\(value)'")
            }
            configuration.smsCodeTtlSeconds = seconds
        case "--sms-rate-limit":
            let parts = value.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, let count = Int32(parts[0]), count >= 0,
                  let seconds = Int32(parts[1]), seconds >= 1 else {
                throw Failure(message: "--sms-rate-limit must be COUNT/SECONDS, e.g. 5/60 (COUNT 0 turns it off), not '\(value)'")
            }
            configuration.smsRateLimit = SmsRateLimit(maxSends: Int(count), windowSeconds: Int64(seconds))
        case "--test-phone-number":
            do throws(TestPhoneNumbers.Invalid) {
                try configuration.testPhoneNumbers.add(value)
            } catch {
                throw Failure(message: "--test-phone-number: \(error.message)")
            }
        default:
            guard !value.isEmpty else { throw Failure(message: "--project must not be empty") }
            configuration.projectId = value
        }
    }
}
