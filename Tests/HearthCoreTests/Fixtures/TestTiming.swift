#if canImport(Glibc)
import Glibc
#endif

/// Time limits that guard product promises (a refused connection is reported at once, an idle loop
/// costs no CPU, uv_run returns when only Hearth's idle handles are left) hold on the plain build.
/// Under ASan or TSan everything runs several times slower, so there the same tests check behaviour
/// and their limits scale (they still catch a hang). The sanitizer runtimes define their entry points
/// in the test process, so the process itself tells; `HEARTH_TEST_TIME_SCALE` overrides.
enum TestTiming {
    /// "asan", "tsan", or nil on the plain build.
    static let instrumentation: String? = {
        let process = dlopen(nil, RTLD_NOW)
        defer { if let process { dlclose(process) } }
        if dlsym(process, "__tsan_init") != nil { return "tsan" }
        if dlsym(process, "__asan_init") != nil { return "asan" }
        return nil
    }()

    static let scale: Double = {
        if let given = getenv("HEARTH_TEST_TIME_SCALE").flatMap({ Double(String(cString: $0)) }), given > 0 {
            return given
        }
        switch instrumentation {
        case "tsan": return 10
        case "asan": return 5
        default: return 1
        }
    }()

    /// `seconds` on the plain build, scaled under a sanitizer.
    static func limit(_ seconds: Double) -> Double { seconds * scale }
}
