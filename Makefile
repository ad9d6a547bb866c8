# Hearth: the single entry point. `make demo` and `make test` work on a fresh machine.
SHELL := /bin/bash
SWIFT ?= swift
PYTHON ?= python3
CC ?= cc
CXX ?= c++
RELEASE := .build/release
LIB := $(RELEASE)/libhearth.so
EMULATOR := $(RELEASE)/hearth-emulator
OUT := out
CFLAGS_T := -std=c11 -Wall -Wextra -Werror -g -Iinclude -pthread
CXXFLAGS_T := -std=c++17 -Wall -Wextra -Werror -pedantic -g -Iinclude -pthread
LDFLAGS_T := -L$(RELEASE) -Wl,-rpath,$(abspath $(RELEASE)) -lhearth $(shell pkg-config --libs libuv 2>/dev/null || echo -luv)

.PHONY: deps build demo test test-swift test-emulator test-c test-cpp test-python test-browser clean

deps:
	@scripts/deps.sh

build: deps
	$(SWIFT) build -c release --product hearth
	$(SWIFT) build -c release --product hearth-emulator

$(OUT):
	@mkdir -p $(OUT)

$(OUT)/demo: examples/c/demo.c include/hearth.h $(LIB) | $(OUT)
	$(CC) $(CFLAGS_T) -o $@ $< $(LDFLAGS_T)

demo: build $(OUT)/demo
	@scripts/with-emulator $(OUT)/demo

test: build
	$(MAKE) test-swift test-emulator test-c test-cpp test-python test-browser
	@echo "make test: all suites passed"

test-swift:
	$(SWIFT) build --product hearthPackageTests
	$(SWIFT) test --skip-build

test-emulator:
	scripts/with-emulator $(PYTHON) -m pytest -q -p no:cacheprovider tests/emulator

$(OUT)/c_suite: tests/c/*.c tests/c/*.h include/hearth.h $(LIB) | $(OUT)
	$(CC) $(CFLAGS_T) -o $@ tests/c/*.c $(LDFLAGS_T)

test-c: $(OUT)/c_suite
	scripts/with-emulator $(OUT)/c_suite

$(OUT)/cpp_suite: tests/cpp/*.cpp tests/cpp/*.h include/hearth.h include/hearth.hpp $(LIB) | $(OUT)
	$(CXX) $(CXXFLAGS_T) -o $@ tests/cpp/*.cpp $(LDFLAGS_T)

test-cpp: $(OUT)/cpp_suite
	scripts/with-emulator $(OUT)/cpp_suite

test-python:
	HEARTH_LIBRARY=$(abspath $(LIB)) PYTHONPATH=bindings/python \
	  scripts/with-emulator $(PYTHON) -m pytest -q -p no:cacheprovider bindings/python/tests

$(OUT)/provider_client: tests/browser/provider_client.c include/hearth.h $(LIB) | $(OUT)
	$(CC) $(CFLAGS_T) -o $@ $< $(LDFLAGS_T)

# A person in headless Chromium (Debian's, driven by its chromedriver) completes provider sign-ins
# that a C app started.
test-browser: $(OUT)/provider_client
	HEARTH_PROVIDER_CLIENT=$(abspath $(OUT)/provider_client) \
	  scripts/with-emulator $(PYTHON) -m pytest -q -p no:cacheprovider tests/browser

clean:
	rm -rf .build $(OUT)
