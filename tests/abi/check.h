/* A minimal test harness for the ABI checks: each TEST is a function; the program runs the one named on
 * its command line (tests/abi/test_abi.py runs each as a pytest case) or, without arguments, all. */
#ifndef HEARTH_ABI_CHECK_H
#define HEARTH_ABI_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check_failures;

#define CHECK(cond)                                                                            \
  do {                                                                                         \
    if (!(cond)) {                                                                             \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);                 \
      check_failures++;                                                                        \
    }                                                                                          \
  } while (0)

#define CHECK_INT(actual, expected)                                                            \
  do {                                                                                         \
    long long check_a_ = (long long)(actual), check_e_ = (long long)(expected);                \
    if (check_a_ != check_e_) {                                                                \
      fprintf(stderr, "%s:%d: %s is %lld, expected %lld\n", __FILE__, __LINE__, #actual,       \
              check_a_, check_e_);                                                             \
      check_failures++;                                                                        \
    }                                                                                          \
  } while (0)

#define CHECK_STR(actual, expected)                                                            \
  do {                                                                                         \
    const char *check_a_ = (actual), *check_e_ = (expected);                                   \
    if (!check_a_ || strcmp(check_a_, check_e_) != 0) {                                        \
      fprintf(stderr, "%s:%d: %s is \"%s\", expected \"%s\"\n", __FILE__, __LINE__, #actual,   \
              check_a_ ? check_a_ : "(null)", check_e_);                                       \
      check_failures++;                                                                        \
    }                                                                                          \
  } while (0)

/* Stops the test at once (later steps would only crash or mislead). */
#define REQUIRE(cond)                                                                          \
  do {                                                                                         \
    if (!(cond)) {                                                                             \
      fprintf(stderr, "%s:%d: REQUIRE failed: %s\n", __FILE__, __LINE__, #cond);               \
      exit(1);                                                                                 \
    }                                                                                          \
  } while (0)

typedef struct check_test {
  const char *name;
  void (*run)(void);
} check_test;

#define TEST_ENTRY(name) {#name, name}

/* Runs the test named argv[1], or every test; returns the process exit status. */
static int check_main(const check_test *tests, size_t count, int argc, char **argv) {
  size_t ran = 0;
  for (size_t i = 0; i < count; i++) {
    if (argc > 1 && strcmp(argv[1], tests[i].name) != 0) continue;
    int before = check_failures;
    tests[i].run();
    printf("%s %s\n", check_failures == before ? "ok  " : "FAIL", tests[i].name);
    ran++;
  }
  if (ran == 0) {
    fprintf(stderr, "no test named %s\n", argc > 1 ? argv[1] : "(any)");
    return 2;
  }
  return check_failures == 0 ? 0 : 1;
}

#endif
