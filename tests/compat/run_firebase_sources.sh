#!/usr/bin/env bash
# Builds Firebase's own C++ auth programs, unchanged, against the compatibility headers and runs them
# against a fresh hearth-emulator. Not part of `make test` (the sources are Firebase's and are not in
# this repository; they come from checkouts you name):
#
#   tests/compat/run_firebase_sources.sh --sdk /path/to/firebase-cpp-sdk [--quickstart /path/to/quickstart-cpp]
#
# - the SDK's auth integration test (auth/integration_test/src/integration_test.cc, with its test and
#   sample frameworks from testing/), built with googletest (Debian: apt-get install googletest);
# - with --quickstart, the auth quickstart's desktop test app (auth/testapp/src), whose last steps wait
#   for a sign-out that never comes (the quickstart's own loop): it is stopped after 20 s, and what it
#   printed before is shown.
# Each runs as a desktop Firebase app does: google-services.json next to it, the emulator through
# USE_AUTH_EMULATOR and AUTH_EMULATOR_PORT. Needs `make build` (libhearth, hearth-emulator).
set -euo pipefail
here="$(cd "$(dirname "$0")/../.." && pwd)"
sdk="" quickstart=""
while [ $# -gt 0 ]; do
  case "$1" in
    --sdk) sdk="$2"; shift 2 ;;
    --quickstart) quickstart="$2"; shift 2 ;;
    *) echo "usage: $0 --sdk DIR [--quickstart DIR]" >&2; exit 2 ;;
  esac
done
[ -d "$sdk/auth/integration_test/src" ] || { echo "$0: --sdk must name a firebase-cpp-sdk checkout" >&2; exit 2; }
gtest=/usr/src/googletest
[ -d "$gtest/googletest/src" ] || { echo "$0: googletest sources not found in $gtest (apt-get install googletest)" >&2; exit 2; }
cxx="${CXX:-c++}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
include=(-I"$here/include/compat" -I"$here/include")
link=(-L"$here/.build/release" -Wl,-rpath,"$here/.build/release" -lhearth -luv -pthread)

cat >"$work/google-services.json" <<JSON
{"project_info": {"project_number": "1234567890", "project_id": "${HEARTH_PROJECT:-demo-hearth}",
  "firebase_url": "https://${HEARTH_PROJECT:-demo-hearth}.firebaseio.com",
  "storage_bucket": "${HEARTH_PROJECT:-demo-hearth}.appspot.com"},
 "client": [{"client_info": {"mobilesdk_app_id": "1:1234567890:android:0123456789abcdef",
   "android_client_info": {"package_name": "com.google.firebase.cpp.auth.testapp"}},
   "api_key": [{"current_key": "fake-api-key"}]}]}
JSON

# The SDK's test framework borrows the SDK's internal base64 functions; a plain implementation stands in.
cat >"$work/base64.cc" <<'CC'
#include <string>
namespace firebase {
namespace internal {
static const char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
bool Base64Encode(const std::string& input, std::string* output) {
  output->clear();
  unsigned value = 0;
  int bits = -6;
  for (unsigned char c : input) {
    value = (value << 8) + c;
    bits += 8;
    while (bits >= 0) {
      output->push_back(kAlphabet[(value >> bits) & 0x3F]);
      bits -= 6;
    }
  }
  if (bits > -6) output->push_back(kAlphabet[((value << 8) >> (bits + 8)) & 0x3F]);
  while (output->size() % 4) output->push_back('=');
  return true;
}
bool Base64Decode(const std::string& input, std::string* output) {
  output->clear();
  unsigned value = 0;
  int bits = -8;
  for (unsigned char c : input) {
    if (c == '=') break;
    const std::string alphabet(kAlphabet);
    const size_t index = alphabet.find(static_cast<char>(c));
    if (index == std::string::npos) return false;
    value = (value << 6) + static_cast<unsigned>(index);
    bits += 6;
    if (bits >= 0) {
      output->push_back(static_cast<char>((value >> bits) & 0xFF));
      bits -= 8;
    }
  }
  return true;
}
}  // namespace internal
}  // namespace firebase
CC

run_firebase_app() {  # DIRECTORY PROGRAM [TIMEOUT]
  cp "$work/google-services.json" "$1/"
  "$here/scripts/with-emulator" bash -c 'cd "$1" && exec timeout --signal=INT "$3" env -u FIREBASE_AUTH_EMULATOR_HOST \
      USE_AUTH_EMULATOR=1 AUTH_EMULATOR_PORT="${FIREBASE_AUTH_EMULATOR_HOST##*:}" XDG_DATA_HOME="$1/data" "$2"' \
    _ "$1" "$2" "${3:-600}"
}

echo "== the SDK's auth integration test ($(git -C "$sdk" describe --tags 2>/dev/null || echo "$sdk"))"
mkdir -p "$work/it/objs"
flags=(-std=c++17 -O0 -w "${include[@]}" -I"$sdk/testing/test_framework/src" -I"$sdk/testing/sample_framework/src"
       -I"$gtest/googletest/include" -I"$gtest/googletest" -I"$gtest/googlemock/include" -I"$gtest/googlemock" -pthread)
for source in "$sdk/auth/integration_test/src/integration_test.cc" "$sdk/testing/test_framework/src/firebase_test_framework.cc" \
    "$sdk/testing/test_framework/src/desktop/desktop_firebase_test_framework.cc" \
    "$sdk/testing/sample_framework/src/app_framework.cc" "$sdk/testing/sample_framework/src/desktop/desktop_app_framework.cc" \
    "$gtest/googletest/src/gtest-all.cc" "$gtest/googlemock/src/gmock-all.cc" "$work/base64.cc"; do
  "$cxx" "${flags[@]}" -c "$source" -o "$work/it/objs/$(basename "$source").o"
done
"$cxx" -o "$work/it/auth_integration_test" "$work/it/objs/"*.o "${link[@]}"
status=0
run_firebase_app "$work/it" "$work/it/auth_integration_test" || status=$?

if [ -n "$quickstart" ]; then
  echo "== the auth quickstart ($(git -C "$quickstart" rev-parse --short HEAD 2>/dev/null || echo "$quickstart"))"
  mkdir -p "$work/qs"
  "$cxx" -std=c++17 -w "${include[@]}" -I"$quickstart/auth/testapp/src" -o "$work/qs/auth_testapp" \
    "$quickstart/auth/testapp/src/common_main.cc" "$quickstart/auth/testapp/src/desktop/desktop_main.cc" "${link[@]}"
  run_firebase_app "$work/qs" "$work/qs/auth_testapp" 20 || true
fi
exit "$status"
