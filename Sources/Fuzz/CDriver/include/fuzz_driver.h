#ifndef HEARTH_FUZZ_DRIVER_H
#define HEARTH_FUZZ_DRIVER_H
#include <stddef.h>
#include <stdint.h>

/* libFuzzer's entry for programs that keep their own main (SwiftPM links every executable's main
 * itself, so libFuzzer's main cannot be used). Defined by libFuzzer (-sanitize=fuzzer); only called
 * in fuzzing builds. */
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*user_callback)(const uint8_t *data, size_t size));

#endif
