/* Byte scans on the hot path of JSON reading and writing (an ID token's string bytes are read twice and
 * written once per sign-in) and of percent-encoding (every token refresh encodes its refresh token),
 * sixteen bytes at a time where the CPU has SSE2 (every x86-64). In C because Swift's SIMD types
 * compile to lane-by-lane code for these. */
#ifndef HEARTH_SCAN_H
#define HEARTH_SCAN_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Internal to libhearth: hidden, so the shared library exports only the hearth_* functions of
 * include/hearth.h. */
#pragma GCC visibility push(hidden)

/* The index of the first byte of bytes[0..<count] that a JSON string cannot hold as it is: a quote,
 * a backslash or a control character (below 0x20), and, when stop_at_non_ascii is non-zero, any byte
 * of 0x80 or above. count when there is none. */
size_t hearth_scan_json_string(const uint8_t *bytes, size_t count, int stop_at_non_ascii);

/* The index of the first byte of bytes[0..<count] outside RFC 3986's unreserved set (ALPHA, DIGIT,
 * '-', '.', '_', '~'), i.e. the first that percent-encoding changes; count when there is none. */
size_t hearth_scan_unreserved(const uint8_t *bytes, size_t count);

/* Whether the count bytes at a and at b are the same: a JSON member's name against each name a reader
 * knows, for every member of every answer. Swift's elementsEqual walks the two through iterators, many
 * times the cost (bench/FINDINGS.md). Inline: no symbol, hidden or not. */
static inline int hearth_bytes_equal(const uint8_t *a, const uint8_t *b, size_t count) {
  return memcmp(a, b, count) == 0;
}

#pragma GCC visibility pop

#endif
