import Logging

/// Human-readable messages on stderr. Request bodies, tokens and passwords are never logged; the
/// action links the emulator "emails" are, because reading them from the log is how a developer
/// follows them (as with Firebase's emulator).
struct EmulatorLog: Sendable {
    let logger: Logger

    // Autoclosures: a message below the log level (every request's debug line) is never built.
    func info(_ message: @autoclosure () -> String) { logger.info("\(message())") }
    func warning(_ message: @autoclosure () -> String) { logger.warning("\(message())") }
    func debug(_ message: @autoclosure () -> String) { logger.debug("\(message())") }
}
