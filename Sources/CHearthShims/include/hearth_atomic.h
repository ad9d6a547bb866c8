/* A word many threads read on every operation and one rarely writes (the log's threshold), without a
 * lock: Swift's standard library has no atomics outside the Synchronization module, which the library
 * does not load. */
#ifndef HEARTH_ATOMIC_H
#define HEARTH_ATOMIC_H

#include <stdint.h>

static inline int32_t hearth_atomic_load_i32(const int32_t *word) {
  return __atomic_load_n(word, __ATOMIC_ACQUIRE);
}

static inline void hearth_atomic_store_i32(int32_t *word, int32_t value) {
  __atomic_store_n(word, value, __ATOMIC_RELEASE);
}

#endif
