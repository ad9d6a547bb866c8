/* The module needs one source file; the declaration in include/ is all it provides. */
#include "fuzz_driver.h"
