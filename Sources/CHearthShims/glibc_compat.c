/* Keeps libhearth loadable on glibc 2.34, the oldest glibc its Swift runtime allows (dlopen and the
 * pthread functions moved into libc there), so the Python wheel is manylinux_2_34 (RHEL 9 and its
 * rebuilds, Amazon Linux 2023) rather than 2_35.
 *
 * With -static-stdlib the Swift Glibc overlay's object is linked in whole, and it refers to hypotf,
 * which glibc 2.35 re-versioned (GLIBC_2.35). Nothing in Hearth calls it, but the reference alone makes
 * the loader demand glibc 2.35. This hidden definition satisfies the reference inside libhearth and
 * forwards to the original version every x86-64 glibc has. */
#include <limits.h> /* defines __GLIBC__ on glibc */

#if defined(__x86_64__) && defined(__GLIBC__)
float hearth_hypotf_glibc_2_2_5(float x, float y);
__asm__(".symver hearth_hypotf_glibc_2_2_5, hypotf@GLIBC_2.2.5");

__attribute__((visibility("hidden"))) float hypotf(float x, float y) {
  return hearth_hypotf_glibc_2_2_5(x, y);
}
#endif
