/* bare.c — the baseline process: a C program that only reports its own RSS, thread count and how long
 * after bench/run.py spawned it main() began (the "bare C process" Hearth's targets are measured over). */
#include "bench_common.h"

int main(void) {
  int64_t main_ns = bench_now_ns();
  const char *spawn = getenv("BENCH_SPAWN_NS");
  double spawn_to_main_us = spawn ? (double)(main_ns - strtoll(spawn, NULL, 10)) / 1e3 : -1.0;
  printf("{\"client\":\"bare-c\",\"rss_kib\":%ld,\"anon_kib\":%ld,\"threads\":%d,\"spawn_to_main_us\":%.1f}\n",
         bench_status_kib("VmRSS:"), bench_rollup_kib("Anonymous:"), bench_thread_count(), spawn_to_main_us);
  return 0;
}
