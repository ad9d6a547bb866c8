import Foundation
#if FUZZING
import CFuzzDriver
#endif

nonisolated(unsafe) private var target: (([UInt8]) -> Void)?

/// Every fuzz target's `main`: under `make fuzz` (FUZZING) hands control to libFuzzer with `body`
/// as the test function; otherwise replays the files and directories named on the command line.
public func fuzzMain(_ name: String, _ body: @escaping ([UInt8]) -> Void) -> Never {
    #if FUZZING
    target = body
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in
        target?(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
        return 0
    })
    #else
    replayMain(name, body)
    #endif
}

/// The fuzz targets' entry point when built without libFuzzer: runs the target's body once per file
/// named on the command line (directories are walked), so the committed seeds and crash-regression
/// inputs replay through the normal build. A crash is the failure; no output is compared.
public func replayMain(_ name: String, _ body: ([UInt8]) -> Void) -> Never {
    var files: [String] = []
    for argument in CommandLine.arguments.dropFirst() {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory) else {
            FileHandle.standardError.write(Data("\(name): no such file or directory: \(argument)\n".utf8))
            exit(2)
        }
        if isDirectory.boolValue {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: argument)) ?? []
            files += entries.filter { !$0.hasPrefix(".") }.sorted().map { "\(argument)/\($0)" }
        } else {
            files.append(argument)
        }
    }
    if files.isEmpty {
        FileHandle.standardError.write(Data("usage: \(name) FILE|DIR...\n".utf8))
        exit(2)
    }
    for file in files {
        guard let data = FileManager.default.contents(atPath: file) else {
            FileHandle.standardError.write(Data("\(name): cannot read \(file)\n".utf8))
            exit(2)
        }
        body(Array(data))
    }
    print("\(name): replayed \(files.count) inputs")
    exit(0)
}

/// Reads a fuzz input as a few structured choices followed by free bytes.
public struct FuzzInput {
    private let bytes: [UInt8]
    private var index = 0

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    public var isEmpty: Bool { index >= bytes.count }

    /// The next byte, 0 once the input is used up.
    public mutating func byte() -> UInt8 {
        guard index < bytes.count else { return 0 }
        defer { index += 1 }
        return bytes[index]
    }

    /// Up to `count` bytes.
    public mutating func bytes(_ count: Int) -> [UInt8] {
        let end = min(bytes.count, index + max(0, count))
        defer { index = end }
        return Array(bytes[index..<end])
    }

    /// Bytes up to (not including) the next `separator`, or the rest.
    public mutating func field(separatedBy separator: UInt8) -> [UInt8] {
        let end = bytes[index...].firstIndex(of: separator) ?? bytes.count
        defer { index = min(bytes.count, end + 1) }
        return Array(bytes[index..<end])
    }

    public mutating func rest() -> [UInt8] {
        defer { index = bytes.count }
        return Array(bytes[min(index, bytes.count)...])
    }
}

/// Stops the process with a message libFuzzer records as a crash: for properties (round trips,
/// chunking invariance) that must hold for every input.
public func fuzzCheck(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() {
        FileHandle.standardError.write(Data("fuzz property violated: \(message())\n".utf8))
        abort()
    }
}
