#!/usr/bin/env bash
# The C suite (tests/c) under a sanitizer or valgrind, against a fresh emulator (scripts/with-emulator).
#   tests/sanitizers/run.sh asan        libhearth -sanitize=address (.build-asan) + suite -fsanitize=address; LSan on
#   tests/sanitizers/run.sh tsan        libhearth -sanitize=thread (.build-tsan) + suite -fsanitize=thread, and the
#                                       shutdown storm (tests/crash) the same way
#   tests/sanitizers/run.sh asan-swift  the Swift unit tests under swift test --sanitize=address (.build-asan-tests)
#   tests/sanitizers/run.sh tsan-swift  the Swift unit tests that run a loop thread, under --sanitize=thread
#                                       (.build-tsan-tests)
#   tests/sanitizers/run.sh valgrind SUITE   memcheck on an already built, uninstrumented suite (make's out/c_suite)
# Passes only when the suite passes AND the tool reported nothing: zero errors, zero leaks. The emulator itself
# is the normal build (make build); it is not what is under test. Logs: out/sanitizers/<mode>.log.
set -euo pipefail
here="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$here"
mode="${1:?usage: run.sh asan|tsan|asan-swift|tsan-swift|valgrind SUITE}"
SWIFT="${SWIFT:-swift}"
out="$here/out/sanitizers"
mkdir -p "$out"
log="$out/$mode.log"

# The toolchain's own clang: its sanitizer runtimes are the ones the Swift compiler links against, so the
# suite and libhearth share one runtime.
toolchain_bin="$(dirname "$(readlink -f "$(command -v "$SWIFT")")")"
SAN_CC="${SAN_CC:-$toolchain_bin/clang}"
# -Wno-string-concatenation: clang (not gcc) warns about a deliberate literal concatenation in test_phone.c.
cflags=(-std=c11 -Wall -Wextra -Werror -Wno-string-concatenation -g -O1 -fno-omit-frame-pointer -Iinclude -pthread
        -fuse-ld=lld)
uv_libs=($(pkg-config --libs libuv 2>/dev/null || echo -luv))

build_lib() { # build_lib SCRATCH SANITIZER
  "$SWIFT" build -c release --product hearth --scratch-path "$1" -Xswiftc -sanitize="$2"
  ln -sf libhearth.so "$1/release/libhearth.so.0"
}

# check LOG PATTERN RC: the suite's verdict and the tool's, with the reports (if any) shown.
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

case "$mode" in
  asan)
    build_lib .build-asan address
    "$SAN_CC" "${cflags[@]}" -fsanitize=address -o "$out/c_suite_asan" tests/c/*.c \
      -L.build-asan/release -Wl,-rpath,"$here/.build-asan/release" -lhearth "${uv_libs[@]}"
    set +e
    ASAN_OPTIONS="detect_leaks=1:halt_on_error=0:detect_stack_use_after_return=1:check_initialization_order=1:strict_init_order=1" \
      scripts/with-emulator "$out/c_suite_asan" >"$log" 2>&1
    rc=$?
    set -e
    check "$log" "ERROR: (AddressSanitizer|LeakSanitizer)" "$rc"
    # hearth_app_destroy with 1,000 operations in flight, in both loop modes (tests/crash), under ASan too.
    "$SAN_CC" "${cflags[@]}" -fsanitize=address -o "$out/shutdown_storm_asan" tests/crash/shutdown_storm.c \
      -L.build-asan/release -Wl,-rpath,"$here/.build-asan/release" -lhearth "${uv_libs[@]}"
    log="$out/asan-shutdown-storm.log"
    set +e
    ASAN_OPTIONS="detect_leaks=1:halt_on_error=0" scripts/with-emulator "$out/shutdown_storm_asan" 2 >"$log" 2>&1
    rc=$?
    set -e
    grep -E "max destroy|shutdown storm" "$log" || true
    check "$log" "ERROR: (AddressSanitizer|LeakSanitizer)" "$rc"
    ;;
  tsan)
    build_lib .build-tsan thread
    # The toolchain's TSan runtime carries libdispatch interceptors, so it needs libdispatch and the blocks
    # runtime at link time (the toolchain's copies, which libhearth loads anyway).
    swift_libs="$(dirname "$toolchain_bin")/lib/swift/linux"
    "$SAN_CC" "${cflags[@]}" -fsanitize=thread -o "$out/c_suite_tsan" tests/c/*.c \
      -L.build-tsan/release -Wl,-rpath,"$here/.build-tsan/release" -lhearth "${uv_libs[@]}" \
      -L"$swift_libs" -Wl,-rpath,"$swift_libs" -ldispatch -lBlocksRuntime
    set +e
    TSAN_OPTIONS="halt_on_error=0:second_deadlock_stack=1:history_size=4" \
      scripts/with-emulator "$out/c_suite_tsan" >"$log" 2>&1
    rc=$?
    set -e
    check "$log" "WARNING: ThreadSanitizer" "$rc"
    # hearth_app_destroy with 1,000 operations in flight, destroyed from the loop thread and from another.
    "$SAN_CC" "${cflags[@]}" -fsanitize=thread -o "$out/shutdown_storm_tsan" tests/crash/shutdown_storm.c \
      -L.build-tsan/release -Wl,-rpath,"$here/.build-tsan/release" -lhearth "${uv_libs[@]}" \
      -L"$swift_libs" -Wl,-rpath,"$swift_libs" -ldispatch -lBlocksRuntime
    log="$out/tsan-shutdown-storm.log"
    set +e
    TSAN_OPTIONS="halt_on_error=0:second_deadlock_stack=1:history_size=4" \
      scripts/with-emulator "$out/shutdown_storm_tsan" 2 >"$log" 2>&1
    rc=$?
    set -e
    grep -E "destroy limit|max destroy|shutdown storm" "$log" || true
    check "$log" "WARNING: ThreadSanitizer" "$rc"
    ;;
  tsan-swift)
    # The unit tests that run a loop thread (owned loops, transports, redirect receivers, Auth on a loop);
    # the rest are single-threaded and gain nothing from TSan but build time.
    "$SWIFT" build --build-tests --scratch-path .build-tsan-tests --sanitize=thread
    threaded="AuthLinkingTests|AuthPhoneVerificationTests|AuthSessionTests|FederatedLoopbackReceiverHostLoopTests"
    threaded+="|FederatedLoopbackRedirectReceiverTests|FederatedProviderFlowRegistryTests|LoopBorrowedTests"
    threaded+="|LoopOwnedTests|LoopTimerTests|TransportCurlTests|TransportHostLoopTests|TransportTLSTests|LogTests"
    set +e
    TSAN_OPTIONS="halt_on_error=0:second_deadlock_stack=1:history_size=4" \
      "$SWIFT" test --skip-build --scratch-path .build-tsan-tests --sanitize=thread \
      --filter "^HearthCoreTests\.($threaded)/" >"$log" 2>&1
    rc=$?
    set -e
    grep -E "Executed [0-9]+ tests" "$log" | tail -n 1 || true
    # A filter that matches nothing passes vacuously: require the classes to have run.
    ran="$(grep -cE "^Test Suite '($threaded)' passed" "$log" || true)"
    if [ "$ran" -ne "$(echo "$threaded" | tr '|' '\n' | wc -l)" ]; then
      echo "sanitizers($mode): only $ran of the threaded test classes passed; full log: $log" >&2
      exit 1
    fi
    check "$log" "WARNING: ThreadSanitizer" "$rc"
    ;;
  asan-swift)
    # The unit tests start their own fixtures (no emulator needed). Memory errors only: their test doubles
    # (FakeTransport, FakeIdentityService) keep the completions they are handed, which capture the Auth under
    # test, for the life of the process, so LeakSanitizer reports those cycles of test code. Leaks of the
    # library's real lifecycle (create, operate, hearth_app_destroy) are checked on the C suite above.
    "$SWIFT" build --product hearthPackageTests --scratch-path .build-asan-tests --sanitize=address
    set +e
    ASAN_OPTIONS="detect_leaks=0" \
      "$SWIFT" test --skip-build --scratch-path .build-asan-tests --sanitize=address >"$log" 2>&1
    rc=$?
    set -e
    grep -E "Executed [0-9]+ tests" "$log" | tail -n 1 || true
    check "$log" "ERROR: AddressSanitizer" "$rc"
    ;;
  valgrind)
    suite="${2:?usage: run.sh valgrind SUITE}"
    if ! command -v valgrind >/dev/null; then
      SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
      $SUDO apt-get update -qq
      DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq valgrind >/dev/null
    fi
    set +e
    # Indirect leaks count too: see tests/sanitizers/valgrind.supp for why.
    scripts/with-emulator valgrind --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
      --show-leak-kinds=definite,indirect --num-callers=40 --suppressions=tests/crash/swift-runtime.supp \
      --suppressions=tests/sanitizers/valgrind.supp "$suite" >"$log" 2>&1
    rc=$?
    set -e
    grep -E "ERROR SUMMARY|definitely lost:|indirectly lost:" "$log" || true
    # memcheck's own verdict is the exit status (99: errors, definite or indirect leaks); the pattern catches
    # anything that slipped past it.
    check "$log" "(Invalid (read|write|free)|uninitialised|Mismatched free|(definitely|indirectly) lost: [1-9])" "$rc"
    ;;
  *)
    echo "run.sh: unknown mode $mode" >&2
    exit 2
    ;;
esac
