/* Hashes and HMAC from OpenSSL's libcrypto, which libcurl already loads into every Hearth process.
 * Typed one-shot wrappers only: HearthCrypto (Swift) owns every decision. Hidden, like the curl shims:
 * they are not part of libhearth's ABI. */
#ifndef HEARTH_CRYPTO_H
#define HEARTH_CRYPTO_H

#include <stddef.h>
#include <stdint.h>

#pragma GCC visibility push(hidden)

typedef enum hearth_crypto_hash {
  HEARTH_CRYPTO_SHA1 = 1,
  HEARTH_CRYPTO_SHA256 = 2,
  HEARTH_CRYPTO_SHA512 = 3,
} hearth_crypto_hash;

/* The digest of `data` into `out` (at least 64 bytes); its length, or -1 when libcrypto failed. */
int hearth_crypto_digest(hearth_crypto_hash hash, const void *data, size_t length, uint8_t *out);

/* HMAC of `data` under `key` into `out` (at least 64 bytes); its length, or -1 when libcrypto failed. */
int hearth_crypto_hmac(hearth_crypto_hash hash, const void *key, size_t key_length, const void *data, size_t length,
                       uint8_t *out);

#pragma GCC visibility pop

#endif
