/*
 * bench_common.h — what every C and C++ bench client shares: the command line, the closed-loop
 * measurement window (warm-up, then a window bounded in operations and seconds), latencies, CPU time
 * (getrusage RUSAGE_SELF: every thread of the client process), thread count, RSS, and the one JSON line
 * each client prints for bench/run.py.
 *
 * A client keeps `inflight` operations going: each completion records its latency and, while the window
 * is open, starts the next one. After `warmup` completions the window opens (time and rusage taken);
 * it closes after `ops` completions or `seconds`, whichever comes first; operations still in flight
 * then finish outside the window.
 *
 * Wave mode (--wave N): after the warm-up, N operations are started at once and all must complete; the
 * peak RSS over that wave (VmHWM, reset through /proc/self/clear_refs first) minus the RSS before it is
 * the memory N in-flight operations cost.
 */
#ifndef BENCH_COMMON_H
#define BENCH_COMMON_H

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The canned server's API keys, account and bodies (bench/canned.py holds the same values). */
#define BENCH_ANON_KEY "bench-anon"
#define BENCH_PASSWORD_KEY "bench-password"
#define BENCH_EMAIL "bench@example.com"
#define BENCH_SECRET "bench-password-1"

enum bench_op { BENCH_ANON = 0, BENCH_PASSWORD = 1, BENCH_TOKEN = 2 };
static const char *const bench_op_names[] = {"anon", "password", "token"};

typedef struct bench_config {
  int op;
  int inflight;
  long warmup;
  double warmup_seconds; /* the window opens after `warmup` completions or this long, whichever first */
  long ops;
  double seconds;
  long wave;           /* > 0: wave mode */
  int first;           /* 1: one sign-in right after start, report time since spawn */
  const char *host;
  int port;
  const char *mode;    /* client-specific variant */
  int64_t spawn_ns;    /* CLOCK_MONOTONIC when bench/run.py spawned us (0 = unknown) */
} bench_config;

static inline int64_t bench_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static inline double bench_cpu_seconds(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
         ru.ru_stime.tv_usec / 1e6;
}

static inline int bench_thread_count(void) {
  DIR *dir = opendir("/proc/self/task");
  if (!dir) return -1;
  int n = 0;
  struct dirent *entry;
  while ((entry = readdir(dir)) != NULL)
    if (entry->d_name[0] != '.') n++;
  closedir(dir);
  return n;
}

/* A "VmRSS:" style field of /proc/self/status in KiB, or -1. */
static inline long bench_status_kib(const char *field) {
  FILE *f = fopen("/proc/self/status", "r");
  if (!f) return -1;
  char line[256];
  long value = -1;
  size_t len = strlen(field);
  while (fgets(line, sizeof line, f))
    if (strncmp(line, field, len) == 0) {
      value = strtol(line + len, NULL, 10);
      break;
    }
  fclose(f);
  return value;
}

/* A field of /proc/self/smaps_rollup in KiB ("Anonymous:": heap and other private memory), or -1. */
static inline long bench_rollup_kib(const char *field) {
  FILE *f = fopen("/proc/self/smaps_rollup", "r");
  if (!f) return -1;
  char line[256];
  long value = -1;
  size_t len = strlen(field);
  while (fgets(line, sizeof line, f))
    if (strncmp(line, field, len) == 0) {
      value = strtol(line + len, NULL, 10);
      break;
    }
  fclose(f);
  return value;
}

/* Resets VmHWM to the current RSS (Linux >= 4.0); returns 0 on success. */
static inline int bench_reset_peak_rss(void) {
  FILE *f = fopen("/proc/self/clear_refs", "w");
  if (!f) return -1;
  int ok = fputs("5", f) >= 0;
  return (fclose(f) == 0 && ok) ? 0 : -1;
}

static inline void bench_usage(const char *argv0) {
  fprintf(stderr,
          "usage: %s --op anon|password|token --port P [--host H] [--inflight N] [--warmup W]\n"
          "          [--warmup-seconds S] [--ops M] [--seconds S] [--wave N] [--first] [--mode NAME]\n",
          argv0);
  exit(2);
}

static inline bench_config bench_parse(int argc, char **argv, const char *default_mode) {
  bench_config c;
  memset(&c, 0, sizeof c);
  c.op = BENCH_PASSWORD;
  c.inflight = 1;
  c.warmup = 50;
  c.warmup_seconds = 3.0;
  c.ops = 2000;
  c.seconds = 1.0;
  c.host = "127.0.0.1";
  c.mode = default_mode;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--first")) { c.first = 1; continue; }
    if (!v) bench_usage(argv[0]);
    if (!strcmp(a, "--op")) {
      c.op = !strcmp(v, "anon") ? BENCH_ANON : !strcmp(v, "password") ? BENCH_PASSWORD
           : !strcmp(v, "token") ? BENCH_TOKEN : -1;
      if (c.op < 0) bench_usage(argv[0]);
    } else if (!strcmp(a, "--inflight")) c.inflight = atoi(v);
    else if (!strcmp(a, "--warmup")) c.warmup = atol(v);
    else if (!strcmp(a, "--warmup-seconds")) c.warmup_seconds = atof(v);
    else if (!strcmp(a, "--ops")) c.ops = atol(v);
    else if (!strcmp(a, "--seconds")) c.seconds = atof(v);
    else if (!strcmp(a, "--wave")) c.wave = atol(v);
    else if (!strcmp(a, "--host")) c.host = v;
    else if (!strcmp(a, "--port")) c.port = atoi(v);
    else if (!strcmp(a, "--mode")) c.mode = v;
    else bench_usage(argv[0]);
    i++;
  }
  const char *spawn = getenv("BENCH_SPAWN_NS");
  if (spawn) c.spawn_ns = strtoll(spawn, NULL, 10);
  if (c.port <= 0 || c.inflight < 1) bench_usage(argv[0]);
  return c;
}

/* ------------------------------------------------------------------------------------------------
 * The measurement window
 * ---------------------------------------------------------------------------------------------- */
enum bench_phase { BENCH_WARMUP = 0, BENCH_MEASURE = 1, BENCH_DRAIN = 2 };

typedef struct bench_run {
  bench_config cfg;
  int phase;
  long completed_total; /* every completion, warm-up included */
  long measured;        /* completions inside the window */
  long errors;
  int last_error;
  long started;         /* operations started, warm-up included */
  long inflight_now;
  int64_t created_ns;
  int64_t t0, t1;
  double cpu0, cpu1;
  int threads;
  long rss_kib;
  uint32_t *latency_us; /* of completions inside the window */
  long latency_cap;
} bench_run;

static inline void bench_run_init(bench_run *r, bench_config cfg) {
  memset(r, 0, sizeof *r);
  r->cfg = cfg;
  r->latency_cap = cfg.ops > 0 ? cfg.ops + cfg.inflight + 16 : 16;
  r->latency_us = (uint32_t *)calloc((size_t)r->latency_cap, sizeof(uint32_t));
  r->phase = BENCH_WARMUP;
  r->created_ns = bench_now_ns();
  if (cfg.warmup <= 0) {
    r->phase = BENCH_MEASURE;
    r->t0 = bench_now_ns();
    r->cpu0 = bench_cpu_seconds();
  }
}

static inline void bench_close_window(bench_run *r) {
  r->t1 = bench_now_ns();
  r->cpu1 = bench_cpu_seconds();
  r->threads = bench_thread_count();
  r->rss_kib = bench_status_kib("VmRSS:");
  r->phase = BENCH_DRAIN;
}

/* Records one completion started at `start_ns`. Returns 1 when the client should start another. */
static inline int bench_complete(bench_run *r, int64_t start_ns, int error) {
  r->completed_total++;
  r->inflight_now--;
  if (error) {
    r->errors++;
    r->last_error = error;
  }
  if (r->phase == BENCH_WARMUP) {
    if (r->completed_total >= r->cfg.warmup ||
        (double)(bench_now_ns() - r->created_ns) / 1e9 >= r->cfg.warmup_seconds) {
      r->phase = BENCH_MEASURE;
      r->t0 = bench_now_ns();
      r->cpu0 = bench_cpu_seconds();
      if (r->cfg.ops <= 0) bench_close_window(r);
    }
    return r->phase != BENCH_DRAIN;
  }
  if (r->phase == BENCH_MEASURE) {
    int64_t now = bench_now_ns();
    if (r->measured < r->latency_cap) r->latency_us[r->measured] = (uint32_t)((now - start_ns) / 1000);
    r->measured++;
    if (r->measured >= r->cfg.ops || (double)(now - r->t0) / 1e9 >= r->cfg.seconds) bench_close_window(r);
  }
  return r->phase != BENCH_DRAIN;
}

static inline void bench_started(bench_run *r) {
  if (r->started == 0 && r->phase == BENCH_WARMUP) r->created_ns = bench_now_ns(); /* warm-up clock: from the first operation */
  r->started++;
  r->inflight_now++;
}

static int bench_cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

static inline double bench_percentile(uint32_t *v, long n, double p) {
  if (n <= 0) return -1;
  long i = (long)(p * (double)(n - 1) + 0.5);
  return v[i];
}

/* Prints the result line. `requests_per_op`: HTTP requests one operation sends (for the server-side
 * check); `setup_requests`: requests sent before the first operation (sign-ins for token runs). */
static inline void bench_report(bench_run *r, const char *client, int requests_per_op, long setup_requests,
                                const char *extra_json) {
  long n = r->measured < r->latency_cap ? r->measured : r->latency_cap;
  qsort(r->latency_us, (size_t)n, sizeof(uint32_t), bench_cmp_u32);
  double wall = (double)(r->t1 - r->t0) / 1e9;
  double cpu = r->cpu1 - r->cpu0;
  printf("{\"client\":\"%s\",\"mode\":\"%s\",\"op\":\"%s\",\"inflight\":%d,\"measured\":%ld,"
         "\"completed_total\":%ld,\"started\":%ld,\"errors\":%ld,\"last_error\":%d,\"wall_s\":%.6f,"
         "\"cpu_s\":%.6f,\"ops_per_s\":%.3f,\"cpu_us_per_op\":%.3f,\"p50_us\":%.1f,\"p99_us\":%.1f,"
         "\"threads\":%d,\"rss_kib\":%ld,\"expected_requests\":%ld%s%s}\n",
         client, r->cfg.mode, bench_op_names[r->cfg.op], r->cfg.inflight, r->measured, r->completed_total,
         r->started, r->errors, r->last_error, wall, cpu, wall > 0 ? (double)r->measured / wall : 0.0,
         r->measured > 0 ? cpu * 1e6 / (double)r->measured : 0.0, bench_percentile(r->latency_us, n, 0.50),
         bench_percentile(r->latency_us, n, 0.99), r->threads, r->rss_kib,
         setup_requests + r->started * (long)requests_per_op, extra_json ? "," : "", extra_json ? extra_json : "");
  fflush(stdout);
}

/* RSS and private dirty memory by mapped file ("[anon]" for anonymous memory, "[heap]", "[stack]"), from
 * /proc/self/smaps, as two JSON objects of the largest `top` entries in KiB (by RSS, and by private dirty). */
static inline void bench_memory_by_mapping(char *rss_out, char *dirty_out, size_t cap, int top) {
  enum { MAX = 512 };
  static char names[MAX][96];
  static long rss[MAX], dirty[MAX];
  int n = 0, current = -1;
  snprintf(rss_out, cap, "{}");
  snprintf(dirty_out, cap, "{}");
  FILE *f = fopen("/proc/self/smaps", "r");
  if (!f) return;
  char line[1024];
  while (fgets(line, sizeof line, f)) {
    unsigned long a, b;
    char perms[8], path[512] = "";
    if (sscanf(line, "%lx-%lx %7s %*s %*s %*s %511[^\n]", &a, &b, perms, path) >= 3 && strchr(line, '-') < strchr(line, ' ')) {
      const char *p = path;
      while (*p == ' ') p++;
      const char *base = strrchr(p, '/');
      const char *name = *p == 0 ? "[anon]" : (base ? base + 1 : p);
      current = -1;
      for (int i = 0; i < n; i++)
        if (!strcmp(names[i], name)) current = i;
      if (current < 0 && n < MAX) {
        snprintf(names[n], sizeof names[n], "%s", name);
        rss[n] = dirty[n] = 0;
        current = n++;
      }
    } else if (current >= 0 && strncmp(line, "Rss:", 4) == 0) {
      rss[current] += strtol(line + 4, NULL, 10);
    } else if (current >= 0 && strncmp(line, "Private_Dirty:", 14) == 0) {
      dirty[current] += strtol(line + 14, NULL, 10);
    }
  }
  fclose(f);
  for (int which = 0; which < 2; which++) {
    long *kib = which == 0 ? rss : dirty;
    char *out = which == 0 ? rss_out : dirty_out;
    static long taken[MAX];
    memcpy(taken, kib, sizeof taken);
    size_t used = (size_t)snprintf(out, cap, "{");
    for (int k = 0; k < top && k < n; k++) {
      int best = -1;
      for (int i = 0; i < n; i++)
        if (taken[i] > 0 && (best < 0 || taken[i] > taken[best])) best = i;
      if (best < 0 || used + 128 >= cap) break;
      used += (size_t)snprintf(out + used, cap - used, "%s\"%s\":%ld", k ? "," : "", names[best], taken[best]);
      taken[best] = -1;
    }
    snprintf(out + used, cap - used, "}");
  }
}

/* The result line of a --first run: process spawn → first completed sign-in. */
static inline void bench_report_first(const bench_config *c, const char *client, int64_t main_ns, int64_t issue_ns,
                                      int64_t done_ns, int error, long rss_kib, int threads) {
  static char mappings[8192], dirty[8192];
  bench_memory_by_mapping(mappings, dirty, sizeof mappings, 40);
  printf("{\"client\":\"%s\",\"mode\":\"%s\",\"op\":\"%s\",\"first\":true,\"error\":%d,"
         "\"spawn_to_main_us\":%.1f,\"spawn_to_done_us\":%.1f,\"op_latency_us\":%.1f,\"rss_kib\":%ld,"
         "\"threads\":%d,\"anon_kib\":%ld,\"private_dirty_kib\":%ld,\"rss_by_mapping_kib\":%s,"
         "\"private_dirty_by_mapping_kib\":%s}\n",
         client, c->mode, bench_op_names[c->op], error,
         c->spawn_ns ? (double)(main_ns - c->spawn_ns) / 1e3 : -1.0,
         c->spawn_ns ? (double)(done_ns - c->spawn_ns) / 1e3 : -1.0, (double)(done_ns - issue_ns) / 1e3, rss_kib,
         threads, bench_rollup_kib("Anonymous:"), bench_rollup_kib("Private_Dirty:"), mappings, dirty);
  fflush(stdout);
}

/* The result line of a --wave run. */
static inline void bench_report_wave(const bench_config *c, const char *client, long completed, long errors,
                                     long rss_before_kib, long peak_kib, long rss_after_kib, int threads,
                                     double seconds) {
  printf("{\"client\":\"%s\",\"mode\":\"%s\",\"op\":\"%s\",\"wave\":%ld,\"completed\":%ld,\"errors\":%ld,"
         "\"rss_before_kib\":%ld,\"peak_kib\":%ld,\"rss_after_kib\":%ld,\"bytes_per_op\":%.1f,\"threads\":%d,"
         "\"wave_s\":%.3f}\n",
         client, c->mode, bench_op_names[c->op], c->wave, completed, errors, rss_before_kib, peak_kib,
         rss_after_kib, c->wave > 0 ? (double)(peak_kib - rss_before_kib) * 1024.0 / (double)c->wave : 0.0,
         threads, seconds);
  fflush(stdout);
}

#ifdef __cplusplus
}
#endif

#endif /* BENCH_COMMON_H */
