#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Owned loop threads that nobody joins because they outlive their shutdown: one that frees curl's
/// state after `hearth_app_destroy` returned (`EventLoop.afterShutdown`), or one destroyed from its
/// own callback. Detaching them is not enough: a host that exits right after destroy would run the
/// process's exit handlers beside them, and OpenSSL's handler frees state that curl's teardown and
/// the thread's own OpenSSL thread-exit destructor still use (measured with detached threads:
/// "double free or corruption" aborts in about 1 of 20 runs that sign in, destroy and exit).
///
/// So they stay joinable and are joined here: by the exit handler `CurlGlobal` registers just after
/// `curl_global_init` (so after OpenSSL's own; exit handlers run in reverse order), or, in a
/// long-running process, when the next thread is adopted.
enum LoopThreadsAtExit {
    private final class State: @unchecked Sendable {
        let lock = ConditionLock()
        /// Guarded by `lock`: adopted and not yet joined.
        var adopted: [pthread_t] = []
        /// Guarded by `lock`: threads past their last Hearth work (they only return and exit now).
        var finished: [pthread_t] = []

        /// With the lock held: takes out adopted threads that have finished, except `keep`.
        func takeFinished(except keep: pthread_t) -> [pthread_t] {
            let ready = adopted.filter { thread in
                pthread_equal(thread, keep) == 0 && finished.contains { pthread_equal($0, thread) != 0 }
            }
            adopted.removeAll { thread in ready.contains { pthread_equal($0, thread) != 0 } }
            finished.removeAll { thread in ready.contains { pthread_equal($0, thread) != 0 } }
            return ready
        }
    }

    /// Replaced only in a forked child (`forgetAfterFork`), which is single-threaded at that point.
    nonisolated(unsafe) private static var state = State()

    /// Takes a joinable loop thread nobody else will join; joins adopted threads that have finished.
    static func adopt(_ thread: pthread_t) {
        let ready = state.lock.withLock { () -> [pthread_t] in
            state.adopted.append(thread)
            return state.takeFinished(except: thread)
        }
        for thread in ready { pthread_join(thread, nil) }
    }

    /// Last call of an adopted loop thread: nothing of Hearth's runs on it any more.
    static func finishing() {
        let me = pthread_self()
        state.lock.broadcast { state.finished.append(me) }
    }

    /// Runs the one-time initialisation of the shared state (see `CurlGlobal`).
    static func initialise() {
        _ = state
    }

    /// Fork handler, in the child: the parent's loop threads do not exist here (joining one would be
    /// undefined), and the parent's lock may have been held by one of them when it forked.
    static func forgetAfterFork() {
        state = State()
    }

    /// Exit handler. Waits up to 2 s (freeing 1,000 transfers takes ~20 ms) for adopted threads to
    /// finish, then joins them, so their thread-exit destructors have run too. The exiting thread is
    /// skipped: a host may call `exit` from inside a Hearth callback.
    static func joinAtExit() {
        let me = pthread_self()
        state.lock.withLock {
            _ = state.lock.wait(until: {
                state.adopted.allSatisfy { thread in
                    pthread_equal(thread, me) != 0 || state.finished.contains { pthread_equal($0, thread) != 0 }
                }
            }, timeoutMs: 2_000)
        }
        let ready = state.lock.withLock { state.takeFinished(except: me) }
        for thread in ready { pthread_join(thread, nil) }
    }
}
