#!/usr/bin/env bash
# The C programs (tests/c's suite, tests/crash's shutdown storm and exit-after-destroy) and the Swift unit
# tests under a sanitizer, or the C suite under valgrind, against a fresh emulator (scripts/with-emulator).
#   tests/sanitizers/run.sh asan        libhearth -sanitize=address + the suite and the shutdown storm
#                                       -fsanitize=address, LeakSanitizer on
#   tests/sanitizers/run.sh asan-swift  the Swift unit tests under --sanitize=address
#   tests/sanitizers/run.sh tsan        libhearth -sanitize=thread + the suite, the shutdown storm and processes
#                                       that exit right after destroy, -fsanitize=thread
#   tests/sanitizers/run.sh tsan-swift  the Swift unit tests that run a loop thread, under --sanitize=thread
#   tests/sanitizers/run.sh valgrind SUITE   memcheck on an already built, uninstrumented suite (make's out/c_suite)
#   tests/sanitizers/run.sh build SANITIZER  only the instrumented build (address or thread): make test makes it
#                                       early, in the background, so the suites above find it done
# Each sanitizer is built once, in debug, into .build-<sanitizer>-tests: the unit tests and the libhearth the
# C programs link share one instrumented client. Passes only when the programs pass AND the tool reported
# nothing: zero errors, zero leaks, zero races. Time limits scale under the tools (tests/common/time_scale.h).
# The emulator itself is the normal build (make build); it is not what is under test.
# Logs: out/sanitizers/<mode>*.log.
set -euo pipefail
here="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$here"
mode="${1:?usage: run.sh asan|asan-swift|tsan|tsan-swift|valgrind SUITE|build SANITIZER}"
SWIFT="${SWIFT:-swift}"
out="$here/out/sanitizers"
mkdir -p "$out"
log="$out/$mode.log"

# The toolchain's own clang: its sanitizer runtimes are the ones the Swift compiler links against, so the
# C programs and libhearth share one runtime.
toolchain_bin="$(dirname "$(readlink -f "$(command -v "$SWIFT")")")"
SAN_CC="${SAN_CC:-$toolchain_bin/clang}"
# -Wno-string-concatenation: clang (not gcc) warns about a deliberate literal concatenation in test_phone.c.
cflags=(-std=c11 -Wall -Wextra -Werror -Wno-string-concatenation -g -O1 -fno-omit-frame-pointer -Iinclude -pthread
        -fuse-ld=lld)
uv_libs=($(pkg-config --libs libuv 2>/dev/null || echo -luv))
# The toolchain's TSan runtime carries libdispatch interceptors, so TSan programs need libdispatch and the
# blocks runtime at link time (the toolchain's copies, which libhearth loads anyway).
swift_libs="$(dirname "$toolchain_bin")/lib/swift/linux"

# build SANITIZER: the unit tests and libhearth, instrumented, into .build-SANITIZER-tests/debug (idempotent);
# sets $scratch and $lib_dir.
build() {
  scratch=".build-$1-tests"
  "$SWIFT" build --product hearthPackageTests --scratch-path "$scratch" --sanitize="$1"
  "$SWIFT" build --product hearth --scratch-path "$scratch" --sanitize="$1"
  lib_dir="$here/$scratch/debug"
  ln -sf libhearth.so "$lib_dir/libhearth.so.0"
}

# compile SANITIZER OUTPUT SOURCES...: a C program against the instrumented libhearth.
compile() {
  local sanitizer="$1" output="$2"
  shift 2
  local extra=()
  [ "$sanitizer" = thread ] && extra=(-L"$swift_libs" -Wl,-rpath,"$swift_libs" -ldispatch -lBlocksRuntime)
  "$SAN_CC" "${cflags[@]}" -fsanitize="$sanitizer" -o "$output" "$@" -L"$lib_dir" -Wl,-rpath,"$lib_dir" -lhearth \
    "${uv_libs[@]}" "${extra[@]}"
}

# check LOG PATTERN RC: the programs' verdict and the tool's, with the reports (if any) shown.
check() {
  local reports
  reports="$(grep -cE "$2" "$1" || true)"
  grep -E "^[0-9]+ passed, [0-9]+ failed" "$1" | tail -n 1 || true
  if [ "$3" -ne 0 ] || [ "$reports" -ne 0 ]; then
    grep -E "^FAIL" "$1" | head -n 20 || true
    grep -E -A 30 "$2" "$1" | head -n 200 || true
    echo "sanitizers($mode): FAILED (exit status $3, $reports report(s)); full log: $1" >&2
    exit 1
  fi
  echo "sanitizers($mode): 0 reports; log: $1"
}

# run LOG ENV... -- COMMAND...: runs COMMAND with ENV against a fresh emulator, output to LOG; sets $rc.
run() {
  local to="$1"
  shift
  local env=()
  while [ "$1" != "--" ]; do env+=("$1"); shift; done
  shift
  set +e
  env "${env[@]}" scripts/with-emulator "$@" >"$to" 2>&1
  rc=$?
  set -e
}

tsan_options="halt_on_error=0:second_deadlock_stack=1:history_size=4"

case "$mode" in
  asan)
    build address
    compile address "$out/c_suite_asan" tests/c/*.c
    run "$log" ASAN_OPTIONS="detect_leaks=1:halt_on_error=0:detect_stack_use_after_return=1:check_initialization_order=1:strict_init_order=1" \
      -- "$out/c_suite_asan"
    check "$log" "ERROR: (AddressSanitizer|LeakSanitizer)" "$rc"
    # hearth_app_destroy with 1,000 operations in flight, in both loop modes (tests/crash), under ASan too.
    compile address "$out/shutdown_storm_asan" tests/crash/shutdown_storm.c
    log="$out/asan-shutdown-storm.log"
    run "$log" ASAN_OPTIONS="detect_leaks=1:halt_on_error=0" -- "$out/shutdown_storm_asan" 2
    grep -E "destroy limit|max destroy|shutdown storm" "$log" || true
    check "$log" "ERROR: (AddressSanitizer|LeakSanitizer)" "$rc"
    ;;
  asan-swift)
    # The unit tests start their own fixtures (no emulator needed). Memory errors only: their test doubles
    # (FakeTransport, FakeIdentityService) keep the completions they are handed, which capture the Auth under
    # test, for the life of the process, so LeakSanitizer reports those cycles of test code. Leaks of the
    # library's real lifecycle (create, operate, hearth_app_destroy) are checked on the C suite above.
    build address
    set +e
    ASAN_OPTIONS="detect_leaks=0" "$SWIFT" test --skip-build --scratch-path "$scratch" --sanitize=address >"$log" 2>&1
    rc=$?
    set -e
    grep -E "Executed [0-9]+ tests" "$log" | tail -n 1 || true
    check "$log" "ERROR: AddressSanitizer" "$rc"
    ;;
  tsan)
    build thread
    compile thread "$out/c_suite_tsan" tests/c/*.c
    run "$log" TSAN_OPTIONS="$tsan_options" -- "$out/c_suite_tsan"
    check "$log" "WARNING: ThreadSanitizer" "$rc"
    # hearth_app_destroy with 1,000 operations in flight, destroyed from the loop thread and from another.
    compile thread "$out/shutdown_storm_tsan" tests/crash/shutdown_storm.c
    log="$out/tsan-shutdown-storm.log"
    run "$log" TSAN_OPTIONS="$tsan_options" -- "$out/shutdown_storm_tsan" 2
    grep -E "destroy limit|max destroy|shutdown storm" "$log" || true
    check "$log" "WARNING: ThreadSanitizer" "$rc"
    # Processes that exit right after destroying an app on Hearth's own loop thread: its loop thread must be
    # known to the exit handler before destroy returns (a thread still running at exit is a leak here).
    compile thread "$out/exit_after_destroy_tsan" tests/crash/exit_after_destroy.c
    log="$out/tsan-exit-after-destroy.log"
    run "$log" TSAN_OPTIONS="$tsan_options" -- bash -c '
      status=0
      for run in 1 2 3 4 5 6 7 8; do
        for mode in idle in-flight in-callback; do
          echo "run $run: $mode"
          "$1" "$mode" || { echo "run $run: $mode: exit status $?"; status=1; }
        done
      done
      exit $status' exit-after-destroy "$out/exit_after_destroy_tsan"
    echo "exit after destroy: 8 runs each of idle, in-flight, in-callback"
    check "$log" "WARNING: ThreadSanitizer" "$rc"
    ;;
  tsan-swift)
    # The unit tests that run a loop thread or log from several (owned loops, transports, redirect receivers,
    # Auth on a loop, the log sink); the rest are single-threaded and gain nothing from TSan but time.
    build thread
    threaded="AuthLinkingTests|AuthPhoneVerificationTests|AuthSessionTests|FederatedLoopbackReceiverHostLoopTests"
    threaded+="|FederatedLoopbackRedirectReceiverTests|FederatedProviderFlowRegistryTests|LoopBorrowedTests"
    threaded+="|LoopOwnedTests|LoopTimerTests|TransportCurlTests|TransportHostLoopTests|TransportTLSTests|LogTests"
    set +e
    TSAN_OPTIONS="$tsan_options" "$SWIFT" test --skip-build --scratch-path "$scratch" --sanitize=thread \
      --filter "^HearthClientTests\.($threaded)/" >"$log" 2>&1
    rc=$?
    set -e
    grep -E "Executed [0-9]+ tests" "$log" | tail -n 1 || true
    # A filter that matches nothing passes vacuously: require every class to have run and passed.
    ran="$(grep -cE "^Test Suite '($threaded)' passed" "$log" || true)"
    if [ "$ran" -ne "$(echo "$threaded" | tr '|' '\n' | wc -l)" ]; then
      echo "sanitizers($mode): only $ran of the threaded test classes passed; full log: $log" >&2
      exit 1
    fi
    check "$log" "WARNING: ThreadSanitizer" "$rc"
    ;;
  valgrind)
    suite="${2:?usage: run.sh valgrind SUITE}"
    if ! command -v valgrind >/dev/null; then
      SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
      $SUDO apt-get update -qq
      DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq valgrind >/dev/null
    fi
    # Indirect leaks count too: see tests/sanitizers/valgrind.supp for why.
    # --fair-sched=yes: memcheck runs one thread at a time, and its default lock lets a thread that keeps
    # calling into libhearth (test_destroy.c's racers registering against the destroy) take it back again
    # and again, so the loop thread waited minutes for its turn and the suite's watchdog called the test
    # hung (CI, 2026-11-28; 5 of 6 runs by hand). Turns in order are what the kernel's scheduler gives.
    run "$log" -- valgrind --fair-sched=yes --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
      --show-leak-kinds=definite,indirect --num-callers=40 --suppressions=tests/crash/swift-runtime.supp \
      --suppressions=tests/sanitizers/valgrind.supp "$suite"
    grep -E "ERROR SUMMARY|definitely lost:|indirectly lost:" "$log" || true
    # memcheck's own verdict is the exit status (99: errors, definite or indirect leaks); the pattern catches
    # anything that slipped past it.
    check "$log" "(Invalid (read|write|free)|uninitialised|Mismatched free|(definitely|indirectly) lost: [1-9])" "$rc"
    ;;
  build)
    sanitizer="${2:?usage: run.sh build address|thread}"
    case "$sanitizer" in address|thread) build "$sanitizer" ;; *) echo "run.sh: no build for $sanitizer" >&2; exit 2 ;; esac
    ;;
  *)
    echo "run.sh: unknown mode $mode" >&2
    exit 2
    ;;
esac
