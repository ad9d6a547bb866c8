/* totp.c — the suite's own one-time codes: SHA-1 (FIPS 180-4), HMAC (RFC 2104), base32 (RFC 4648) and
 * TOTP (RFC 6238), written here from the RFCs so that Hearth's hearth_totp_code_generate and the
 * emulator are checked against something that shares no code with them. */
#include "test.h"

static uint32_t rotate_left(uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }

void t_sha1(const uint8_t *data, size_t length, uint8_t digest[20]) {
  /* The message, a 1 bit, zeros, and its length in bits as a 64-bit big-endian number, in 64-byte blocks. */
  size_t padded = ((length + 8) / 64 + 1) * 64;
  uint8_t *m = calloc(padded, 1);
  if (!m) abort();
  if (length) memcpy(m, data, length);
  m[length] = 0x80;
  uint64_t bits = (uint64_t)length * 8;
  for (int i = 0; i < 8; i++) m[padded - 1 - (size_t)i] = (uint8_t)(bits >> (8 * i));

  uint32_t h[5] = {0x67452301u, 0xEFCDAB89u, 0x98BADCFEu, 0x10325476u, 0xC3D2E1F0u};
  for (size_t block = 0; block < padded; block += 64) {
    uint32_t w[80];
    for (int i = 0; i < 16; i++) {
      const uint8_t *p = m + block + 4 * (size_t)i;
      w[i] = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
    }
    for (int i = 16; i < 80; i++) w[i] = rotate_left(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
    for (int i = 0; i < 80; i++) {
      uint32_t f, k;
      if (i < 20) {
        f = (b & c) | (~b & d);
        k = 0x5A827999u;
      } else if (i < 40) {
        f = b ^ c ^ d;
        k = 0x6ED9EBA1u;
      } else if (i < 60) {
        f = (b & c) | (b & d) | (c & d);
        k = 0x8F1BBCDCu;
      } else {
        f = b ^ c ^ d;
        k = 0xCA62C1D6u;
      }
      uint32_t next = rotate_left(a, 5) + f + e + k + w[i];
      e = d;
      d = c;
      c = rotate_left(b, 30);
      b = a;
      a = next;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
  }
  free(m);
  for (int i = 0; i < 5; i++) {
    digest[4 * i] = (uint8_t)(h[i] >> 24);
    digest[4 * i + 1] = (uint8_t)(h[i] >> 16);
    digest[4 * i + 2] = (uint8_t)(h[i] >> 8);
    digest[4 * i + 3] = (uint8_t)h[i];
  }
}

void t_hmac_sha1(const uint8_t *key, size_t key_length, const uint8_t *message, size_t length, uint8_t mac[20]) {
  uint8_t block_key[64] = {0};
  if (key_length > 64) {
    t_sha1(key, key_length, block_key);
  } else if (key_length) {
    memcpy(block_key, key, key_length);
  }
  uint8_t *inner = malloc(64 + length + 1);
  if (!inner) abort();
  for (int i = 0; i < 64; i++) inner[i] = block_key[i] ^ 0x36;
  if (length) memcpy(inner + 64, message, length);
  uint8_t inner_digest[20];
  t_sha1(inner, 64 + length, inner_digest);
  free(inner);
  uint8_t outer[64 + 20];
  for (int i = 0; i < 64; i++) outer[i] = block_key[i] ^ 0x5c;
  memcpy(outer + 64, inner_digest, 20);
  t_sha1(outer, sizeof outer, mac);
}

const char *t_base32(const uint8_t *bytes, size_t length) {
  static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  char *out = t_alloc(length * 8 / 5 + 2);
  size_t n = 0;
  uint32_t buffer = 0;
  int bits = 0;
  for (size_t i = 0; i < length; i++) {
    buffer = (buffer << 8) | bytes[i];
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out[n++] = alphabet[(buffer >> bits) & 31];
    }
  }
  if (bits > 0) out[n++] = alphabet[(buffer << (5 - bits)) & 31];
  out[n] = '\0';
  return out;
}

/* Upper-case base32 without separators, '=' padding optional. Returns the byte count, or -1. */
static long base32_decode(const char *text, uint8_t *out, size_t capacity) {
  size_t n = 0;
  uint32_t buffer = 0;
  int bits = 0;
  for (const char *c = text; *c && *c != '='; c++) {
    int value;
    if (*c >= 'A' && *c <= 'Z') value = *c - 'A';
    else if (*c >= '2' && *c <= '7') value = *c - '2' + 26;
    else return -1;
    buffer = ((buffer << 5) | (uint32_t)value) & 0xFFF;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      if (n == capacity) return -1;
      out[n++] = (uint8_t)(buffer >> bits);
    }
  }
  return (long)n;
}

const char *t_totp_sha1(const char *base32_secret, int digits, int period, int64_t unix_time) {
  uint8_t secret[256];
  long length = base32_secret ? base32_decode(base32_secret, secret, sizeof secret) : -1;
  if (length <= 0 || digits < 1 || digits > 9 || period < 1 || unix_time < 0) return NULL;
  uint64_t counter = (uint64_t)unix_time / (uint64_t)period;
  uint8_t message[8];
  for (int i = 0; i < 8; i++) message[i] = (uint8_t)(counter >> (56 - 8 * i));
  uint8_t mac[20];
  t_hmac_sha1(secret, (size_t)length, message, sizeof message, mac);
  int offset = mac[19] & 0x0F;
  uint32_t binary = (uint32_t)(mac[offset] & 0x7F) << 24 | (uint32_t)mac[offset + 1] << 16 |
                    (uint32_t)mac[offset + 2] << 8 | mac[offset + 3];
  uint32_t modulus = 1;
  for (int i = 0; i < digits; i++) modulus *= 10;
  return t_printf("%0*u", digits, binary % modulus);
}
