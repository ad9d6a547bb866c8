// swift-tools-version:6.0
import PackageDescription

// `make fuzz` sets HEARTH_FUZZ=1: the modules under test (not SwiftNIO) get
// libFuzzer coverage, ASan and testability, and the fuzz executables link libFuzzer. Without it the
// fuzz targets build as plain corpus-replay programs (`make test-fuzz-corpus`).
let fuzzing = Context.environment["HEARTH_FUZZ"] == "1"
let fuzzInstrumented: [SwiftSetting] = fuzzing ? [.unsafeFlags(["-sanitize=fuzzer,address", "-enable-testing"])] : []
let fuzzTargetSettings: [SwiftSetting] = fuzzing ? fuzzInstrumented + [.define("FUZZING")] : []
let fuzzLinking: [LinkerSetting] = fuzzing ? [.unsafeFlags(["-sanitize=fuzzer,address", "-use-ld=lld"])] : []
// Only `make fuzz` and `make test-fuzz-corpus` build these (by product name).
let fuzzTargets: [Target] = [
    .target(name: "CFuzzDriver", path: "Sources/Fuzz/CDriver"),
    .target(name: "FuzzSupport", dependencies: ["CFuzzDriver"], path: "Sources/Fuzz/Support",
            swiftSettings: fuzzTargetSettings),
] + [
    ("fuzz-rpc-responses", "RPCResponses", ["HearthAuth", "HearthBackend", "HearthTransport"]),
    ("fuzz-jwt", "JWT", ["HearthAuth", "HearthBackend", "HearthWire"]),
    ("fuzz-json-parser", "JSONParser", ["HearthWire"]),
    ("fuzz-redirect", "Redirect", ["HearthAuth"]),
    ("fuzz-persisted-session", "PersistedSession", ["HearthAuth", "HearthBackend"]),
    ("fuzz-emulator-requests", "EmulatorRequests", ["HearthEmulator"]),
].map { name, directory, dependencies in
    .executableTarget(name: name, dependencies: ["FuzzSupport"] + dependencies.map { .target(name: $0) },
                      path: "Sources/Fuzz/\(directory)", swiftSettings: fuzzTargetSettings, linkerSettings: fuzzLinking)
}

// The library's modules use neither Swift concurrency nor regexes: without the implicit imports of
// both, libhearth loads neither libswift_Concurrency nor _StringProcessing / _RegexParser (their
// memory and start-up). FoundationEssentials is not used either.
let leanRuntime: [SwiftSetting] = [.unsafeFlags([
    "-Xfrontend", "-disable-implicit-concurrency-module-import",
    "-Xfrontend", "-disable-implicit-string-processing-module-import",
])]

// The library's release build leaves out the run-time exclusivity checks (each class property or
// global mutated through a `modify` access calls into the runtime: ~40 calls and ~3,500 instructions
// per get_token(force), more per sign-in; bench/FINDINGS.md). The compile-time checks stay, and debug
// builds, which every test suite runs, keep the run-time ones too: a violation still stops the tests.
let releaseWithoutDynamicExclusivity: [SwiftSetting] = [
    .unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release)),
]

// libhearth: the client (HearthTransport, HearthBackend, HearthAuth) behind a C ABI (Hearth).
// hearth-emulator: the local server. The library never links the emulator's server stack; build
// products separately (`swift build --product hearth`) so library work stays fast.
// There is no Swift library product: the supported interface is the C ABI (include/hearth.h), with the
// C++ wrapper and the Python package over it. The client's modules are this package's inside, shared
// between its targets with `package` access; a Swift API would be a design of its own.
let package = Package(
    name: "hearth",
    products: [
        .library(name: "hearth", type: .dynamic, targets: ["Hearth"]),
        .executable(name: "hearth-emulator", targets: ["hearth-emulator"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.0"),
    ],
    targets: [
        .systemLibrary(name: "CLibUV", pkgConfig: "libuv", providers: [.apt(["libuv1-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // hearth-emulator's gzip answers.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // Typed wrappers for curl's variadic functions, which Swift cannot call (no logic).
        // DWARF 4: valgrind 3.19 (make test-valgrind) gives up on a library with two DWARF 5 units.
        .target(name: "CHearthShims", dependencies: ["CCurl"], cSettings: [.unsafeFlags(["-gdwarf-4"])]),
        // The wire format's byte scans, in C for SSE2 (Swift's SIMD types compile to per-lane code there).
        .target(name: "CHearthWire", cSettings: [.unsafeFlags(["-gdwarf-4"])]),
        // JSON, base64, percent and form encoding: one implementation for the client and the emulator.
        // Cross-module optimization lets its small public functions (JSONValue's accessors, JSONObject's
        // lookups) inline into both as when each had its own copy; the member reading is @inlinable.
        .target(name: "HearthWire", dependencies: ["CHearthWire"],
                swiftSettings: leanRuntime + fuzzInstrumented + [.unsafeFlags(["-cross-module-optimization"])]),
        // Hashes and HMAC from OpenSSL's libcrypto (which libcurl loads anyway): typed one-shot wrappers.
        .target(name: "CHearthCrypto", cSettings: [.unsafeFlags(["-gdwarf-4"])], linkerSettings: [.linkedLibrary("crypto")]),
        // Hashes and HMAC (through CHearthCrypto) and base32, shared by the client and the emulator.
        .target(name: "HearthCrypto", dependencies: ["CHearthCrypto"], swiftSettings: leanRuntime + fuzzInstrumented),
        // The public C header: the ABI layer reads the options structs with the host's layout, and the
        // client and the emulator take the version from its HEARTH_VERSION_* numbers (its one source).
        .systemLibrary(name: "CHearthHeader"),
        // The client in three layers, each depending only on the ones below it, so an arrow the wrong way
        // does not build. Not built with -cross-module-optimization: it serializes public declarations
        // only, and what the layers share is `package` (the locks, taken on every operation, are public
        // and @inlinable for that reason; Locks.swift).
        // The libuv loop, locks, logging and the libcurl transport;
        .target(name: "HearthTransport", dependencies: ["CLibUV", "CCurl", "CHearthShims"],
                swiftSettings: leanRuntime + releaseWithoutDynamicExclusivity + fuzzInstrumented),
        // the Identity Toolkit and Secure Token RPCs, their records and the error table;
        .target(name: "HearthBackend", dependencies: ["HearthTransport", "HearthWire", "HearthCrypto", "CHearthHeader"],
                swiftSettings: leanRuntime + releaseWithoutDynamicExclusivity + fuzzInstrumented),
        // apps, auth state and its persistence, credentials, provider flows, phone and multi-factor, futures.
        .target(name: "HearthAuth", dependencies: ["HearthBackend", "HearthTransport", "HearthWire", "HearthCrypto", "CLibUV"],
                swiftSettings: leanRuntime + releaseWithoutDynamicExclusivity + fuzzInstrumented),
        // The shipped ABI: exports only hearth_* (exports.map) under the soname libhearth.so.<major>.
        // lld, because gold leaves the hidden Swift symbols in .dynsym (as LOCAL entries).
        .target(name: "Hearth", dependencies: ["HearthAuth", "HearthBackend", "HearthTransport", "HearthCrypto", "CHearthHeader", "CLibUV"],
                exclude: ["exports.map"],
                swiftSettings: leanRuntime + releaseWithoutDynamicExclusivity,
                linkerSettings: [.unsafeFlags([
                    "-use-ld=lld",
                    "-Xlinker", "--version-script=\(Context.packageDirectory)/Sources/Hearth/exports.map",
                    "-Xlinker", "-soname=libhearth.so.0",
                ])]),
        .target(name: "HearthEmulator", dependencies: [
            "HearthWire", "HearthCrypto", "CHearthHeader", "CZlib",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
        ], swiftSettings: fuzzInstrumented),
        .executableTarget(name: "hearth-emulator", dependencies: ["HearthEmulator"]),
        .testTarget(name: "HearthWireTests", dependencies: ["HearthWire"]),
        .testTarget(name: "HearthClientTests", dependencies: ["HearthAuth", "HearthBackend", "HearthTransport", "HearthWire", "HearthCrypto"],
                    exclude: ["Fixtures/http_test_server.py", "Fixtures/make_test_pki.sh"]),
    ] + fuzzTargets
)

// HEARTH_LIBRARY_ONLY=1, the Python sdist's build (bindings/python): the hearth library and the
// targets it is made of, nothing else, so an sdist carries only their sources and, as long as the
// library uses no other package, nothing (SwiftNIO) is resolved.
if Context.environment["HEARTH_LIBRARY_ONLY"] == "1" {
    var needed: Set<String> = []
    var pending = ["Hearth"]
    var usesPackages = false
    while let name = pending.popLast() {
        guard needed.insert(name).inserted, let target = package.targets.first(where: { $0.name == name }) else {
            continue
        }
        for dependency in target.dependencies {
            switch dependency {
            case .targetItem(let name, _), .byNameItem(let name, _): pending.append(name)
            case .productItem: usesPackages = true
            @unknown default: usesPackages = true
            }
        }
    }
    package.targets.removeAll { !needed.contains($0.name) }
    package.products.removeAll { $0.name != "hearth" }
    if !usesPackages { package.dependencies.removeAll() }
}
