import HearthEmulator

/// `hearth-emulator [--host HOST] [--port PORT] [--project PROJECT_ID] [--recent-login-seconds N]
/// [--sms-code-ttl-seconds N] [--oob-code-ttl-seconds N] [--sms-rate-limit COUNT/SECONDS] [--test-phone-number NUMBER=CODE]...
/// [--require-app-verification] [--no-gzip] [--import DIR] [--export-on-exit [DIR]] [--help]`
struct CommandLineOptions {
    static let usage = """
        usage: hearth-emulator [--host HOST] [--port PORT] [--project PROJECT_ID] [--recent-login-seconds N]
                               [--sms-code-ttl-seconds N] [--oob-code-ttl-seconds N] [--sms-rate-limit COUNT/SECONDS]
                               [--test-phone-number NUMBER=CODE]... [--require-app-verification]
                               [--no-gzip] [--import DIR] [--export-on-exit [DIR]]

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
          --oob-code-ttl-seconds N
                               email action codes (sign-in links, password resets, email
                               verification) must be used within N seconds, else EXPIRED_OOB_CODE
                               (default 0: never expire, like Firebase's emulator)
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
          --no-gzip            answer uncompressed even to clients that accept gzip, as Firebase's
                               emulator does (by default answers are gzipped when the client's
                               Accept-Encoding allows it, as Google's servers do)
          --import DIR         load a Firebase emulator export into PROJECT_ID before listening:
                               DIR/firebase-export-metadata.json (its auth.path, if present), else
                               DIR/auth_export (else DIR itself) with accounts.json (the users, loaded
                               as accounts:batchCreate does) and config.json (the settings; flags
                               given here win over it). Passwords must be the emulator's
                               "fakeHash:salt=SALT:password=PASSWORD" or a "rawPassword". A missing
                               DIR or any file or account that cannot be loaded stops the start with
                               exit status 1.
          --export-on-exit [DIR]
                               on SIGINT or SIGTERM, write PROJECT_ID's accounts and settings to DIR
                               in the same format (each file replaced atomically, other emulators'
                               entries in the metadata kept), then exit; without DIR, the --import
                               directory
          -h, --help           show this help

        Every setting but --host, --port, --project, --import and --export-on-exit is per project in /emulator/v1/projects/{p}/config:
          {"recentLoginMaxAgeSeconds": 0, "smsCodeTtlSeconds": 300, "oobCodeTtlSeconds": 0,
           "smsRateLimit": {"maxSends": 5, "windowSeconds": 60},
           "testPhoneNumbers": {"+16505553434": "654321"}, "appVerificationRequired": false}
        (PATCH changes the settings given; testPhoneNumbers replaces the whole set.)

        Prints "hearth-emulator listening on http://HOST:PORT" once it accepts connections.
        Stops on SIGINT or SIGTERM. Messages go to stderr, one line each: every SMS code ("To verify
        the phone number +15555550100, use the code 123456.") and every email action link ("To
        verify the email address ..., follow this link: http://...") can be copied from there.
        """

    enum Outcome {
        case run(EmulatorConfiguration)
        case help
    }

    struct Failure: Error {
        var message: String
    }

    private static let valuedOptions: Set<String> = [
        "--host", "--port", "--project", "--recent-login-seconds", "--sms-code-ttl-seconds", "--oob-code-ttl-seconds",
        "--sms-rate-limit",
        "--test-phone-number", "--import",
    ]
    private static let switches: Set<String> = ["--require-app-verification", "--no-gzip"]
    /// Options whose value may be left out (as with firebase-tools' `--export-on-exit`).
    private static let optionallyValued: Set<String> = ["--export-on-exit"]
    /// The `config.json` name of the setting each option sets.
    private static let settingNames = [
        "--recent-login-seconds": "recentLoginMaxAgeSeconds", "--sms-code-ttl-seconds": "smsCodeTtlSeconds",
        "--oob-code-ttl-seconds": "oobCodeTtlSeconds",
        "--sms-rate-limit": "smsRateLimit", "--test-phone-number": "testPhoneNumbers",
        "--require-app-verification": "appVerificationRequired",
    ]

    /// Accepts `--name value` and `--name=value`.
    static func parse(_ arguments: [String]) throws(Failure) -> Outcome {
        var configuration = EmulatorConfiguration()
        var remaining = arguments[...]
        var exportToImportDirectory = false
        while let argument = remaining.popFirst() {
            if argument == "-h" || argument == "--help" { return .help }
            if argument == "--no-gzip" {
                configuration.compressesAnswers = false
                continue
            }
            if switches.contains(argument) {
                configuration.appVerificationRequired = true
                configuration.settingsFromCommandLine.insert(settingNames[argument] ?? argument)
                continue
            }
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            if optionallyValued.contains(name) {
                // A following word is the directory unless it is the next option.
                let value = inlineValue ?? (remaining.first.map { $0.hasPrefix("-") } == false ? remaining.popFirst() : nil)
                if let value {
                    guard !value.isEmpty else { throw Failure(message: "--export-on-exit: the directory must not be empty") }
                    configuration.exportOnExitDirectory = value
                } else {
                    exportToImportDirectory = true
                }
                continue
            }
            guard valuedOptions.contains(name) else {
                throw Failure(message: "unknown option '\(argument)'")
            }
            guard let value = inlineValue ?? remaining.popFirst() else {
                throw Failure(message: "option '\(name)' needs a value")
            }
            try apply(name, value, to: &configuration)
            if let setting = settingNames[name] { configuration.settingsFromCommandLine.insert(setting) }
        }
        if exportToImportDirectory && configuration.exportOnExitDirectory == nil {
            guard let directory = configuration.importDirectory else {
                throw Failure(message: "--export-on-exit needs a directory, or --import DIR to export back to")
            }
            configuration.exportOnExitDirectory = directory
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
        case "--oob-code-ttl-seconds":
            guard let seconds = Int64(value), (0...Int64(Int32.max)).contains(seconds) else {
                throw Failure(message: "--oob-code-ttl-seconds must be a number of seconds (0: codes never expire), not '\(value)'")
            }
            configuration.oobCodeTtlSeconds = seconds
        case "--sms-rate-limit":
            let parts = value.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, let count = Int32(parts[0]), count >= 0,
                  let seconds = Int32(parts[1]), seconds >= 1 else {
                throw Failure(message: "--sms-rate-limit must be COUNT/SECONDS, e.g. 5/60 (COUNT 0 turns it off), not '\(value)'")
            }
            configuration.smsRateLimit = SmsRateLimit(maxSends: Int(count), windowSeconds: Int64(seconds))
        case "--import":
            guard !value.isEmpty else { throw Failure(message: "--import: the directory must not be empty") }
            configuration.importDirectory = value
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
