/* time_scale.h — how much slower than the plain build this process runs, for the C test programs.
 *
 * A time limit that guards a product promise (hearth_app_destroy with 1,000 operations in flight returns
 * within 50 ms, a wait on a complete future returns at once) is measured on the plain build. Under ASan,
 * TSan or valgrind everything runs several times slower, so there the same tests check correctness and
 * scale their limits, which then only catch a hang. The runtime tells which tool runs: the sanitizers'
 * runtimes define their entry points in the process (test programs and libhearth are instrumented
 * together), and valgrind preloads its core into the programs it runs. $HEARTH_TEST_TIME_SCALE overrides. */
#ifndef HEARTH_TESTS_TIME_SCALE_H
#define HEARTH_TESTS_TIME_SCALE_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

/* "asan", "tsan", "valgrind", or NULL on the plain build. */
static inline const char *hearth_test_instrumentation(void) {
  if (dlsym(RTLD_DEFAULT, "__tsan_init")) return "tsan";
  if (dlsym(RTLD_DEFAULT, "__asan_init")) return "asan";
  const char *preload = getenv("LD_PRELOAD");
  if (preload && strstr(preload, "vgpreload")) return "valgrind";
  return NULL;
}

/* 1 on the plain build; 5 under ASan, 10 under TSan, 30 under valgrind (their usual slow-downs on
 * Hearth's loop-heavy tests, with room for a loaded machine). */
static inline double hearth_test_time_scale(void) {
  const char *given = getenv("HEARTH_TEST_TIME_SCALE");
  double value = given ? strtod(given, NULL) : 0;
  if (value > 0) return value;
  const char *tool = hearth_test_instrumentation();
  if (!tool) return 1;
  if (strcmp(tool, "valgrind") == 0) return 30;
  if (strcmp(tool, "tsan") == 0) return 10;
  return 5;
}

#endif
