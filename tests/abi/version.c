/* hearth_version() is the version the header's HEARTH_VERSION_* macros announce. */
#include <hearth.h>

#include "check.h"

#if !defined(HEARTH_VERSION_MAJOR) || !defined(HEARTH_VERSION_MINOR) || !defined(HEARTH_VERSION_PATCH) || \
    !defined(HEARTH_VERSION_STRING)
#error "hearth.h must define HEARTH_VERSION_MAJOR, _MINOR, _PATCH and _STRING"
#endif
/* Usable in #if, as hosts do for feature checks. */
#if HEARTH_VERSION_MAJOR < 0 || HEARTH_VERSION_MINOR < 0 || HEARTH_VERSION_PATCH < 0
#error "HEARTH_VERSION_* must be non-negative integers"
#endif

static void the_version_string_macro_spells_out_the_numeric_macros(void) {
  char expected[64];
  snprintf(expected, sizeof expected, "%d.%d.%d", HEARTH_VERSION_MAJOR, HEARTH_VERSION_MINOR, HEARTH_VERSION_PATCH);
  CHECK_STR(HEARTH_VERSION_STRING, expected);
}

static void hearth_version_returns_the_version_the_header_announces(void) {
  CHECK_STR(hearth_version(), HEARTH_VERSION_STRING);
  /* A static string: the same pointer every time. */
  CHECK(hearth_version() == hearth_version());
}

int main(int argc, char **argv) {
  static const check_test tests[] = {
      TEST_ENTRY(the_version_string_macro_spells_out_the_numeric_macros),
      TEST_ENTRY(hearth_version_returns_the_version_the_header_announces),
  };
  return check_main(tests, sizeof tests / sizeof tests[0], argc, argv);
}
