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

    /// Read at each call: on the plain build it follows the machine's load (see `loadScale`).
    static var scale: Double {
        if let given = getenv("HEARTH_TEST_TIME_SCALE").flatMap({ Double(String(cString: $0)) }), given > 0 {
            return given
        }
        switch instrumentation {
        case "tsan": return 10
        case "asan": return 5
        default: return loadScale
        }
    }

    /// The 1-minute load average over the online cores, at least 1: with more runnable threads than cores
    /// the process gets a share of a core, and the wall time it spends waiting for one is not Hearth's.
    static var loadScale: Double {
        guard let file = fopen("/proc/loadavg", "r") else { return 1 }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 128)
        guard fgets(&line, Int32(line.count), file) != nil else { return 1 }
        let load = strtod(line, nil)
        let cores = Double(max(sysconf(Int32(_SC_NPROCESSORS_ONLN)), 1))
        return max(load / cores, 1)
    }

    /// `seconds` on the plain build (times the load scale), scaled under a sanitizer.
    static func limit(_ seconds: Double) -> Double { seconds * scale }

    /// A limit on CPU time, which a loaded machine does not stretch: scaled under a sanitizer only.
    static func cpuLimit(_ milliseconds: Double) -> Double {
        instrumentation == nil && getenv("HEARTH_TEST_TIME_SCALE") == nil ? milliseconds : milliseconds * scale
    }
}
