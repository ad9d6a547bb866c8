/* Base64 decoding on the hot path (an ID token's payload, on every sign-in and token refresh), in C
 * because Swift's bounds checks cost more than the decoding itself. */
#ifndef HEARTH_BASE64_H
#define HEARTH_BASE64_H

#include <stddef.h>
#include <stdint.h>

#pragma GCC visibility push(hidden)

/* Decodes count characters of base64url or standard base64 (both alphabets are accepted, no padding:
 * the caller strips it) into out, which must hold count / 4 * 3 + 2 bytes. Returns the number of bytes
 * written, or -1 if a character is outside both alphabets or count % 4 == 1. */
long hearth_base64_decode(const uint8_t *text, size_t count, uint8_t *out);

#pragma GCC visibility pop

#endif
