#include "hearth_crypto.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>

static const EVP_MD *message_digest(hearth_crypto_hash hash) {
  switch (hash) {
    case HEARTH_CRYPTO_SHA1: return EVP_sha1();
    case HEARTH_CRYPTO_SHA256: return EVP_sha256();
    case HEARTH_CRYPTO_SHA512: return EVP_sha512();
  }
  return NULL;
}

int hearth_crypto_digest(hearth_crypto_hash hash, const void *data, size_t length, uint8_t *out) {
  const EVP_MD *md = message_digest(hash);
  unsigned int written = 0;
  if (!md || EVP_Digest(data, length, out, &written, md, NULL) != 1) return -1;
  return (int)written;
}

int hearth_crypto_hmac(hearth_crypto_hash hash, const void *key, size_t key_length, const void *data, size_t length,
                       uint8_t *out) {
  const EVP_MD *md = message_digest(hash);
  unsigned int written = 0;
  /* An empty key is still a key: HMAC() reads no bytes of it, but needs a pointer. */
  static const uint8_t no_key = 0;
  if (!md || key_length > INT32_MAX) return -1;
  if (!HMAC(md, key_length ? key : &no_key, (int)key_length, data, length, out, &written)) return -1;
  return (int)written;
}
