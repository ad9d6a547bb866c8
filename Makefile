# Hearth: the single entry point. `make demo` and `make test` work on a fresh machine.
SHELL := /bin/bash
SWIFT ?= swift
PYTHON ?= python3
CC ?= cc
CXX ?= c++
RELEASE := .build/release
LIB := $(RELEASE)/libhearth.so
# The name programs linked with -lhearth load at run time (the library's soname).
SONAME_LINK := $(RELEASE)/libhearth.so.$(shell sed -n 's/^\#define HEARTH_VERSION_MAJOR //p' include/hearth.h)
# make install: a self-contained build (Swift runtime linked in) of its own, under PREFIX (and DESTDIR).
PREFIX ?= /usr/local
DESTDIR ?=
INSTALL_BUILD := .build-install
EMULATOR := $(RELEASE)/hearth-emulator
OUT := out
CFLAGS_T := -std=c11 -Wall -Wextra -Werror -g -Iinclude -pthread
CXXFLAGS_T := -std=c++17 -Wall -Wextra -Werror -pedantic -g -Iinclude -pthread
LDFLAGS_T := -L$(RELEASE) -Wl,-rpath,$(abspath $(RELEASE)) -lhearth $(shell pkg-config --libs libuv 2>/dev/null || echo -luv)

.PHONY: deps build demo test test-swift test-emulator test-c test-cpp test-compat test-python test-browser test-abi \
	test-install test-sdist test-lane install uninstall wheel sdist clean

deps:
	@scripts/deps.sh

build: deps
	$(SWIFT) build -c release --product hearth
	ln -sf libhearth.so $(SONAME_LINK)
	$(SWIFT) build -c release --product hearth-emulator

$(SONAME_LINK): $(LIB)
	ln -sf libhearth.so $@

$(OUT):
	@mkdir -p $(OUT)

$(OUT)/demo: examples/c/demo.c include/hearth.h $(LIB) $(SONAME_LINK) | $(OUT)
	$(CC) $(CFLAGS_T) -o $@ $< $(LDFLAGS_T)

demo: build $(OUT)/demo
	@scripts/with-emulator $(OUT)/demo

TEST_SUITES := test-swift test-emulator test-c test-cpp test-compat test-python test-browser test-abi test-install examples \
	test-docs test-faults test-bad-input test-load test-crash test-fuzz-corpus test-asan test-tsan test-valgrind

# Every suite in turn; each one's wall-clock and CPU time (user + system, its processes and their children)
# go to out/test-times.txt, printed at the end. Beside them, in a second lane (test-lane, output in
# out/test-lane.log): the builds later suites need, the sdist's from-source build and the schema fuzzing. The first suites
# mostly wait on the emulator, the network and the browser, so on 2 cores half the CPU would otherwise
# sit idle; SwiftPM's lock on a build folder makes a suite that reaches a build still under way wait for it.
test: build | $(OUT)
	@: > $(OUT)/test-times.txt
	@setsid -w bash -c 'TIMEFORMAT="test-lane (beside the others) %0R s wall, %0U + %0S s CPU"; \
	    time $(MAKE) test-lane > $(OUT)/test-lane.log 2>&1' 2>> $(OUT)/test-times.txt & lane=$$!; \
	  trap 'kill -- -$$lane 2>/dev/null' EXIT; \
	  for suite in $(TEST_SUITES); do \
	    TIMEFORMAT="$$suite %0R s wall, %0U + %0S s CPU"; \
	    { time $(MAKE) $$suite 2>&3 || { echo "make test: $$suite failed"; exit 1; }; } 3>&2 2>> $(OUT)/test-times.txt; \
	  done; \
	  wait $$lane || { tail -n 60 $(OUT)/test-lane.log; echo "make test: test-lane failed (log: $(OUT)/test-lane.log)"; exit 1; }; \
	  trap - EXIT
	@echo "make test: all suites passed"; cat $(OUT)/test-times.txt

# make test's second lane: make install's self-contained build (test-install's), the sanitizers' builds
# (test-asan's, test-tsan's), then the sdist test test-install leaves out (pip builds libhearth from the
# sdist and the wheel it makes signs in), then the schema fuzzing (test-schema, against an emulator of its own).
test-lane:
	$(SWIFT) build -c release --product hearth --scratch-path $(INSTALL_BUILD) -Xswiftc -static-stdlib \
	  --disable-local-rpath
	SWIFT=$(SWIFT) tests/sanitizers/run.sh build address
	SWIFT=$(SWIFT) tests/sanitizers/run.sh build thread
	MAKE="$(MAKE)" scripts/with-emulator $(PYTHON) -m pytest -q -p no:cacheprovider -m sdist_build tests/install/test_sdist.py
	$(MAKE) test-schema

test-swift:
	$(SWIFT) build --product hearthPackageTests
	$(SWIFT) test --skip-build

test-emulator:
	scripts/with-emulator $(PYTHON) -m pytest -q -p no:cacheprovider tests/emulator

$(OUT)/c_suite: tests/c/*.c tests/c/*.h include/hearth.h $(LIB) $(SONAME_LINK) | $(OUT)
	$(CC) $(CFLAGS_T) -o $@ tests/c/*.c $(LDFLAGS_T)

test-c: $(OUT)/c_suite
	scripts/with-emulator $(OUT)/c_suite

$(OUT)/cpp_suite: tests/cpp/*.cpp tests/cpp/*.h include/hearth.h include/hearth.hpp $(LIB) $(SONAME_LINK) | $(OUT)
	$(CXX) $(CXXFLAGS_T) -o $@ tests/cpp/*.cpp $(LDFLAGS_T)

test-cpp: $(OUT)/cpp_suite
	scripts/with-emulator $(OUT)/cpp_suite

# The Firebase C++ SDK compatibility headers (include/compat): every public declaration of the SDK's
# headers is probed from the manifest tests/compat/sdk_manifest/ (extracted from the SDK itself, with a
# self-test that the probe notices gaps); a program written in the SDK's idiom, built against the
# compatibility headers alone, runs as a desktop Firebase app would (google-services.json, the SDK's
# emulator variables); and the layer's own suite.
COMPAT_HEADERS := $(shell find include/compat -name '*.h')
CXXFLAGS_COMPAT := $(CXXFLAGS_T) -Iinclude/compat

$(OUT)/compat_idiom: tests/compat/idiom/idiom.cpp tests/compat/idiom/emulator_http.h $(COMPAT_HEADERS) include/hearth.h \
		include/hearth.hpp $(LIB) $(SONAME_LINK) | $(OUT)
	$(CXX) $(CXXFLAGS_COMPAT) -o $@ tests/compat/idiom/idiom.cpp $(LDFLAGS_T)

$(OUT)/compat_suite: tests/compat/unit/*.cpp tests/compat/unit/*.h tests/cpp/harness.cpp tests/cpp/federated.cpp \
		tests/cpp/*.h $(COMPAT_HEADERS) include/hearth.h include/hearth.hpp $(LIB) $(SONAME_LINK) | $(OUT)
	$(CXX) $(CXXFLAGS_COMPAT) -Itests/cpp -o $@ tests/compat/unit/*.cpp tests/cpp/harness.cpp tests/cpp/federated.cpp \
	  $(LDFLAGS_T)

test-compat: $(OUT)/compat_idiom $(OUT)/compat_suite
	$(PYTHON) tests/compat/sdk_manifest/probe.py --cxx "$(CXX)" --include include/compat --include include --self-test
	scripts/with-emulator tests/compat/run_idiom.sh $(OUT)/compat_idiom
	scripts/with-emulator $(OUT)/compat_suite

test-python:
	HEARTH_LIBRARY=$(abspath $(LIB)) PYTHONPATH=bindings/python \
	  scripts/with-emulator $(PYTHON) -m pytest -q -p no:cacheprovider bindings/python/tests

$(OUT)/provider_client: tests/browser/provider_client.c include/hearth.h $(LIB) $(SONAME_LINK) | $(OUT)
	$(CC) $(CFLAGS_T) -o $@ $< $(LDFLAGS_T)

$(OUT)/email_link_client: tests/browser/email_link_client.c include/hearth.h $(LIB) $(SONAME_LINK) | $(OUT)
	$(CC) $(CFLAGS_T) -o $@ $< $(LDFLAGS_T)

# A person in headless Chromium (Debian's, driven by its chromedriver) completes provider sign-ins
# that a C app started, follows email action links (also the sign-in links a C app mailed, which come
# back to it through its URL scheme or a paste), and uses hearth-emulator's console
# (tests/browser/test_console*.py; its screenshots land in out/browser/console/).
test-browser: $(OUT)/provider_client $(OUT)/email_link_client
	HEARTH_PROVIDER_CLIENT=$(abspath $(OUT)/provider_client) HEARTH_EMAIL_LINK_CLIENT=$(abspath $(OUT)/email_link_client) \
	  scripts/with-emulator $(PYTHON) -m pytest -q -p no:cacheprovider tests/browser

# The console's screenshots (tests/browser/test_console.py) into docs/emulator-ui/, for
# docs/emulator-ui.md; commit them when the console's look changes.
.PHONY: console-screenshots
console-screenshots:
	HEARTH_CONSOLE_SCREENSHOTS=$(abspath docs/emulator-ui) \
	  scripts/with-emulator $(PYTHON) -m pytest -q -p no:cacheprovider tests/browser/test_console.py

# Exports, soname, version, strict header builds and options structs versioned by struct_size.
test-abi: $(LIB) $(SONAME_LINK)
	HEARTH_LIBRARY=$(abspath $(LIB)) scripts/with-emulator $(PYTHON) -m pytest -q -p no:cacheprovider tests/abi

# make install into a temporary prefix; programs built against it with pkg-config and CMake run. The
# Python wheel (make wheel, reusing that build) installs into a fresh virtualenv and signs in, also in a
# bare Debian root without libuv or libcurl (debootstrap, kept in out/bare-root; entered in mount and
# network namespaces of its own), where every library and symbol it loads must be the wheel's or
# glibc's and TLS must trust the root's CA bundle; make sdist's archive holds the library's sources and
# names what a machine lacks to build them.
test-install:
	MAKE="$(MAKE)" scripts/with-emulator $(PYTHON) -m pytest -q -p no:cacheprovider -m "not sdist_build" tests/install

# The sdist's tests with the one test-install leaves out: pip builds libhearth from the sdist (a full
# release build, a few minutes) and the wheel it makes signs in. make test runs it in its second lane.
test-sdist:
	MAKE="$(MAKE)" scripts/with-emulator $(PYTHON) -m pytest -q -p no:cacheprovider tests/install/test_sdist.py

# PREFIX/lib/libhearth.so.X.Y.Z (+ .so.X and .so links), PREFIX/include/hearth.h and hearth.hpp,
# PREFIX/lib/pkgconfig/hearth.pc, PREFIX/lib/cmake/Hearth/. The library links the Swift runtime
# statically, so hosts need no Swift toolchain; the test suites keep using the normal build.
install:
	$(SWIFT) build -c release --product hearth --scratch-path $(INSTALL_BUILD) -Xswiftc -static-stdlib \
	  --disable-local-rpath
	scripts/install.sh $(INSTALL_BUILD)/release/libhearth.so "$(DESTDIR)" "$(PREFIX)"

uninstall:
	scripts/install.sh --uninstall "$(DESTDIR)" "$(PREFIX)"

# out/wheel/hearth-VERSION-py3-none-manylinux_2_34_x86_64.whl: the Python package with make install's
# self-contained library inside (bindings/python/hatch_build.py, a hatchling build hook, adds it), and
# the libraries it needs besides glibc, vendored by auditwheel repair: libuv and a lean libcurl built
# from Debian's source (scripts/vendor-curl.sh, cached in .build-vendor/) with its OpenSSL and nghttp2.
# HEARTH_WHEEL_LIBRARY=FILE bundles a library built already (the wheel test passes make install's).
# WHEEL_PLAT is the manylinux policy the wheel must meet: auditwheel refuses to tag it otherwise.
WHEEL_DIR := $(OUT)/wheel
WHEEL_PLAT ?= manylinux_2_34_x86_64
VENDOR_CURL := .build-vendor/curl
HEARTH_WHEEL_LIBRARY ?=
wheel:
ifeq ($(HEARTH_WHEEL_LIBRARY),)
	$(SWIFT) build -c release --product hearth --scratch-path $(INSTALL_BUILD) -Xswiftc -static-stdlib \
	  --disable-local-rpath
endif
	scripts/vendor-curl.sh $(VENDOR_CURL)
	@mkdir -p $(WHEEL_DIR)
	rm -rf $(WHEEL_DIR)/hearth-*.whl $(WHEEL_DIR)/unrepaired
	HEARTH_WHEEL_LIBRARY=$(abspath $(or $(HEARTH_WHEEL_LIBRARY),$(INSTALL_BUILD)/release/libhearth.so)) \
	  $(PYTHON) -m pip wheel --quiet --no-build-isolation --no-deps --no-index --disable-pip-version-check \
	  --wheel-dir $(WHEEL_DIR)/unrepaired ./bindings/python
	PATH="$$($(PYTHON) -c 'import sysconfig; print(sysconfig.get_path("scripts"))'):$$PATH" \
	  LD_LIBRARY_PATH=$(abspath $(VENDOR_CURL)/lib) $(PYTHON) -m auditwheel repair --plat $(WHEEL_PLAT) -z 9 \
	  --wheel-dir $(WHEEL_DIR) $(WHEEL_DIR)/unrepaired/hearth-*.whl
	rm -rf $(WHEEL_DIR)/unrepaired
	@ls -l $(WHEEL_DIR)/hearth-*.whl

# out/wheel/hearth-VERSION.tar.gz: the Python package and the native library's sources (native/); pip
# builds libhearth from it where a Swift 6 toolchain and libuv's and libcurl's development files are.
sdist:
	@mkdir -p $(WHEEL_DIR)
	rm -f $(WHEEL_DIR)/hearth-*.tar.gz
	cd bindings/python && $(PYTHON) -m hatchling build --target sdist --directory $(abspath $(WHEEL_DIR))

# Network faults: a fault-injecting proxy between the client and the emulator (tests/faults).
$(OUT)/host_loop_faults: tests/faults/host_loop_faults.c include/hearth.h $(LIB) $(SONAME_LINK) | $(OUT)
	$(CC) $(CFLAGS_T) -o $@ $< $(LDFLAGS_T)

test-faults: $(OUT)/host_loop_faults
	HEARTH_LIBRARY=$(abspath $(LIB)) PYTHONPATH=bindings/python \
	  HEARTH_HOST_LOOP_FAULTS=$(abspath $(OUT)/host_loop_faults) \
	  scripts/with-emulator $(PYTHON) -m pytest -q -p no:cacheprovider tests/faults

# Token refresh through outages with the real backoff timers (minutes; not part of `make test`).
test-faults-long:
	HEARTH_LIBRARY=$(abspath $(LIB)) PYTHONPATH=bindings/python \
	  scripts/with-emulator $(PYTHON) tests/faults/outage_refresh.py $(OUTAGE_ARGS)

clean:
	rm -rf .build $(INSTALL_BUILD) .build-vendor $(OUT)

# ---- Examples and docs -------------------------------------------------------------------------------
.PHONY: examples docs test-docs
EXAMPLE_PYTHON_ENV := HEARTH_LIBRARY=$(abspath $(LIB)) PYTHONPATH=bindings/python

$(OUT)/example-c-game-loop: examples/c-game-loop/main.c include/hearth.h $(LIB) $(SONAME_LINK) | $(OUT)
	$(CC) $(CFLAGS_T) -pedantic -o $@ $< $(LDFLAGS_T)

$(OUT)/example-cpp: examples/cpp/main.cpp include/hearth.h include/hearth.hpp $(LIB) $(SONAME_LINK) | $(OUT)
	$(CXX) $(CXXFLAGS_T) -o $@ $< $(LDFLAGS_T)

# Every example, each against a fresh emulator; an example that fails fails the target.
examples: $(OUT)/example-c-game-loop $(OUT)/example-cpp
	scripts/with-emulator $(OUT)/example-c-game-loop
	scripts/with-emulator $(OUT)/example-cpp
	$(EXAMPLE_PYTHON_ENV) scripts/with-emulator $(PYTHON) examples/python-asyncio/main.py
	$(EXAMPLE_PYTHON_ENV) scripts/with-emulator $(PYTHON) examples/python-load/main.py --users 200 --wrong-passwords 3

# docs/api-reference.md is generated from include/hearth.h.
docs:
	$(PYTHON) docs/gen_api_reference.py

# The reference matches the header, the docs name only declared identifiers, and the quick starts'
# programs build and run against a fresh emulator.
test-docs: $(LIB) $(SONAME_LINK) | $(OUT)
	$(PYTHON) docs/gen_api_reference.py --check
	$(EXAMPLE_PYTHON_ENV) CC="$(CC)" CXX="$(CXX)" OUT=$(OUT) $(PYTHON) docs/run_quickstarts.py

# Benchmarks against raw libcurl and the Python peers on loopback (bench/RESULTS.md, bench/plots/).
# Not part of `make test`; a missed target never fails it.
.PHONY: bench
bench: build
	@bench/deps.sh
	$(PYTHON) bench/run.py

# Crash safety: SIGKILL while persisting sessions (CRASH_KILLS kills, default 150),
# hearth_app_destroy with 1,000 operations in flight in both loop modes, and processes that exit right
# after destroying an app on Hearth's own loop thread (tests/crash).
.PHONY: test-crash
CRASH_KILLS ?= 150
$(OUT)/session_writer: tests/crash/session_writer.c include/hearth.h $(LIB) $(SONAME_LINK) | $(OUT)
	$(CC) $(CFLAGS_T) -o $@ $< $(LDFLAGS_T)

$(OUT)/shutdown_storm: tests/crash/shutdown_storm.c include/hearth.h $(LIB) $(SONAME_LINK) | $(OUT)
	$(CC) $(CFLAGS_T) -o $@ $< $(LDFLAGS_T)

$(OUT)/exit_after_destroy: tests/crash/exit_after_destroy.c include/hearth.h $(LIB) $(SONAME_LINK) | $(OUT)
	$(CC) $(CFLAGS_T) -o $@ $< $(LDFLAGS_T)

test-crash: $(OUT)/session_writer $(OUT)/shutdown_storm $(OUT)/exit_after_destroy
	scripts/with-emulator $(OUT)/shutdown_storm
	HEARTH_CRASH_KILLS=$(CRASH_KILLS) HEARTH_SESSION_WRITER=$(abspath $(OUT)/session_writer) \
	  HEARTH_EXIT_AFTER_DESTROY=$(abspath $(OUT)/exit_after_destroy) \
	  scripts/with-emulator $(PYTHON) -m pytest -q -p no:cacheprovider -s tests/crash

# Bad input: tests/badinput/gen.py walks every function of include/hearth.h and generates its cases
# (NULL, "", invalid UTF-8, 1 MiB strings, released / foreign / other-app handles, out-of-range
# integers, calls from other threads); each function runs in a forked child with a timeout.
.PHONY: test-bad-input
$(OUT)/badinput.c: tests/badinput/gen.py docs/gen_api_reference.py include/hearth.h | $(OUT)
	$(PYTHON) tests/badinput/gen.py --output $@

$(OUT)/badinput: $(OUT)/badinput.c tests/badinput/harness.c tests/badinput/harness.h $(LIB) $(SONAME_LINK)
	$(CC) $(CFLAGS_T) -Itests/badinput -o $@ $(OUT)/badinput.c tests/badinput/harness.c $(LDFLAGS_T)

test-bad-input: $(OUT)/badinput
	scripts/with-emulator $(PYTHON) tests/badinput/gen.py --run $(OUT)/badinput

# Load: 10,000 concurrent sign-ins (half password, half anonymous) from one app, with Hearth's own
# loop thread and with a host loop; every future completes exactly once, without error (tests/load).
.PHONY: test-load soak
LOAD_SIGN_INS ?= 10000
$(OUT)/load: tests/load/load.c include/hearth.h $(LIB) $(SONAME_LINK) | $(OUT)
	$(CC) $(CFLAGS_T) -o $@ $< $(LDFLAGS_T)

test-load: $(OUT)/load
	scripts/with-emulator $(OUT)/load --sign-ins $(LOAD_SIGN_INS)
	scripts/with-emulator $(OUT)/load --host-loop --sign-ins $(LOAD_SIGN_INS)

# Soak: SOAK_SECONDS of mixed operations (sign-in, forced token refresh, reload, profile update,
# link/unlink email, sign-out) on 4 apps; RSS sampled every 10 s must grow < 1 MiB after a 60 s
# warm-up. Not part of `make test`.
SOAK_SECONDS ?= 600
soak: $(OUT)/load
	scripts/with-emulator $(OUT)/load --soak $(SOAK_SECONDS)

# ---- Fuzzing (fuzz/README.md) -------------------------------------------------------------------------
# make fuzz: libFuzzer targets (Sources/Fuzz) built with HEARTH_FUZZ=1 (coverage + ASan on the modules
# under test), each run FUZZ_SECONDS; a crash fails it and leaves its input in fuzz/crashes/.
# make test-fuzz-corpus: the same targets built plain, replaying every committed seed and
# crash-regression input (fuzz/corpus). make test-schema: schemathesis against the emulator.
.PHONY: fuzz fuzz-build test-fuzz-corpus test-schema
FUZZ_TARGETS ?= fuzz-rpc-responses fuzz-jwt fuzz-json-parser fuzz-redirect fuzz-persisted-session \
	fuzz-emulator-requests
FUZZ_SECONDS ?= 600
FUZZ_BUILD ?= .build-fuzz
# The debug build test-swift made already (the client's layers), so only the emulator side is extra.
FUZZ_REPLAY_BUILD ?= .build

fuzz-build:
	for t in $(FUZZ_TARGETS); do \
	  HEARTH_FUZZ=1 $(SWIFT) build -c release --scratch-path $(FUZZ_BUILD) --product $$t || exit 1; done

fuzz: fuzz-build
	status=0; for t in $(FUZZ_TARGETS); do \
	  fuzz/run.sh $(FUZZ_BUILD)/release $$t $(FUZZ_SECONDS) || status=1; done; exit $$status

test-fuzz-corpus:
	for t in $(FUZZ_TARGETS); do $(SWIFT) build --scratch-path $(FUZZ_REPLAY_BUILD) --product $$t || exit 1; done
	for t in $(FUZZ_TARGETS); do $(FUZZ_REPLAY_BUILD)/debug/$$t fuzz/corpus/$$t || exit 1; done

test-schema: $(EMULATOR)
	@scripts/deps.sh
	scripts/with-emulator $(PYTHON) tests/schema/run_schemathesis.py

# Sanitizers and leak checks (tests/sanitizers/run.sh): libhearth and the C suite under AddressSanitizer
# with LeakSanitizer (+ the Swift unit tests), ThreadSanitizer, and valgrind memcheck on the normal build.
# Each passes only with zero reports and zero leaks.
.PHONY: test-asan test-asan-c test-asan-swift test-tsan test-tsan-c test-tsan-swift test-valgrind
test-asan: test-asan-c test-asan-swift

test-asan-c:
	SWIFT=$(SWIFT) tests/sanitizers/run.sh asan

test-asan-swift:
	SWIFT=$(SWIFT) tests/sanitizers/run.sh asan-swift

# The C suite and the shutdown storm, then the Swift tests that run a loop thread: zero reports.
test-tsan: test-tsan-c test-tsan-swift

test-tsan-c:
	SWIFT=$(SWIFT) tests/sanitizers/run.sh tsan

test-tsan-swift:
	SWIFT=$(SWIFT) tests/sanitizers/run.sh tsan-swift

test-valgrind: $(OUT)/c_suite
	tests/sanitizers/run.sh valgrind $(abspath $(OUT)/c_suite)
