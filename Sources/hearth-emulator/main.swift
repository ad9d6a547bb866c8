import Foundation
import HearthEmulator

/// Writes straight to the file descriptor: the readiness line must reach a pipe immediately.
func writeLine(_ text: String, to handle: FileHandle) {
    handle.write(Data((text + "\n").utf8))
}

let outcome: CommandLineOptions.Outcome
do {
    outcome = try CommandLineOptions.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    writeLine("hearth-emulator: \(error.message)\n\n\(CommandLineOptions.usage)", to: .standardError)
    exit(2)
}

switch outcome {
case .help:
    writeLine(CommandLineOptions.usage, to: .standardOutput)
case .run(let configuration):
    do {
        try await EmulatorServer(configuration: configuration).run { url in
            writeLine("hearth-emulator listening on \(url)", to: .standardOutput)
            writeLine("hearth-emulator console at \(url)/emulator/ui/", to: .standardOutput)
        }
    } catch {
        writeLine("hearth-emulator: \(error)", to: .standardError)
        exit(1)
    }
}
