#!/usr/bin/env bash
# Runs one libFuzzer target for SECONDS: fuzz/run.sh BUILD_DIR TARGET SECONDS
# The working corpus starts from the committed seeds (fuzz/corpus/TARGET) and grows under
# BUILD_DIR/fuzz-corpus/TARGET; a crash leaves its input in fuzz/crashes/ and fails the run. The last
# line printed is the run's figures: runs, execs/s, cov, ft, corpus size, crashes.
set -euo pipefail
build="$1" target="$2" seconds="$3"
here="$(cd "$(dirname "$0")" && pwd)"
work="$build/fuzz-corpus/$target"
mkdir -p "$work" "$here/crashes"
dict=()
[ -f "$here/dict/$target.dict" ] && dict=(-dict="$here/dict/$target.dict")
# LeakSanitizer reports the emulator's route tables (lazily initialized globals, built once) as leaked:
# their request schemas are reached only through enum payloads it does not follow. Per-input leaks in
# that target still show as growth against -rss_limit_mb.
extra=()
if [ "$target" = fuzz-emulator-requests ]; then extra=(-detect_leaks=0); export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"; fi
log="$build/fuzz-$target.log"
status=0
"$build/$target" -max_total_time="$seconds" -print_final_stats=1 -timeout=10 -rss_limit_mb=2048 \
  -artifact_prefix="$here/crashes/$target-" "${dict[@]}" "${extra[@]}" "$work" "$here/corpus/$target" >"$log" 2>&1 || status=$?
last="$(grep -E '^#[0-9]+' "$log" | tail -n1 || true)"
runs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")"
rate="$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")"
cov="$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")"
ft="$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")"
corp="$(sed -n 's/.* corp: \([0-9]*\).*/\1/p' <<<"$last")"
crashes="$(ls "$here/crashes" | grep -c "^$target-" || true)"
echo "$target: seconds=$seconds runs=${runs:-?} execs/s=${rate:-?} cov=${cov:-?} ft=${ft:-?} corpus=${corp:-?} crashes=$crashes"
if [ "$status" -ne 0 ]; then
  grep -E 'ERROR|fuzz property|Fatal error|Test unit written' "$log" | head -n 5 >&2 || true
  echo "$target: FAILED (exit $status; log $log)" >&2
  exit 1
fi
