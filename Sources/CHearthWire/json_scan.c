#include "hearth_scan.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

static inline int needs_look(uint8_t byte, int stop_at_non_ascii) {
  return byte == '"' || byte == '\\' || byte < 0x20 || (stop_at_non_ascii && byte >= 0x80);
}

#if defined(__SSE2__)
/* The bytes of `chunk` that need a look, with their high bit set: a quote, a backslash, a control character
 * (unsigned "below 0x20": the byte equals its minimum with 0x1F) or, when asked, a non-ASCII byte (the
 * chunk's own high bits). */
static inline __m128i flagged_bytes(__m128i chunk, int stop_at_non_ascii) {
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i backslash = _mm_set1_epi8('\\');
  const __m128i highest_control = _mm_set1_epi8(0x1F);
  __m128i control = _mm_cmpeq_epi8(_mm_min_epu8(chunk, highest_control), chunk);
  __m128i flagged = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(chunk, quote), _mm_cmpeq_epi8(chunk, backslash)),
                                 control);
  /* or'ed in whole: only the high bit of each byte reaches the movemask. */
  return stop_at_non_ascii ? _mm_or_si128(flagged, chunk) : flagged;
}
#endif

size_t hearth_scan_json_string(const uint8_t *bytes, size_t count, int stop_at_non_ascii) {
  size_t index = 0;
#if defined(__SSE2__)
  /* Most strings are short: sixteen bytes a turn for the first 64. */
  for (; index + 16 <= count && index < 64; index += 16) {
    unsigned mask = (unsigned)_mm_movemask_epi8(
        flagged_bytes(_mm_loadu_si128((const __m128i *)(bytes + index)), stop_at_non_ascii));
    if (mask != 0) return index + (size_t)__builtin_ctz(mask);
  }
  /* A long one (a token): 64 bytes a turn with one test for all four chunks, until a turn has a hit,
   * which the sixteen-byte loop below then finds. */
  for (; index + 64 <= count; index += 64) {
    __m128i any = _mm_or_si128(
        _mm_or_si128(flagged_bytes(_mm_loadu_si128((const __m128i *)(bytes + index)), stop_at_non_ascii),
                     flagged_bytes(_mm_loadu_si128((const __m128i *)(bytes + index + 16)), stop_at_non_ascii)),
        _mm_or_si128(flagged_bytes(_mm_loadu_si128((const __m128i *)(bytes + index + 32)), stop_at_non_ascii),
                     flagged_bytes(_mm_loadu_si128((const __m128i *)(bytes + index + 48)), stop_at_non_ascii)));
    if (_mm_movemask_epi8(any) != 0) break;
  }
  for (; index + 16 <= count; index += 16) {
    unsigned mask = (unsigned)_mm_movemask_epi8(
        flagged_bytes(_mm_loadu_si128((const __m128i *)(bytes + index)), stop_at_non_ascii));
    if (mask != 0) return index + (size_t)__builtin_ctz(mask);
  }
#endif
  for (; index < count; index++) {
    if (needs_look(bytes[index], stop_at_non_ascii)) return index;
  }
  return count;
}

static inline int is_unreserved(uint8_t byte) {
  return (byte >= 'A' && byte <= 'Z') || (byte >= 'a' && byte <= 'z') || (byte >= '0' && byte <= '9') ||
         byte == '-' || byte == '.' || byte == '_' || byte == '~';
}

size_t hearth_scan_unreserved(const uint8_t *bytes, size_t count) {
  size_t index = 0;
#if defined(__SSE2__)
  /* Unsigned "x - low <= high - low" for each range: subtract, then compare with the span through
   * min_epu8 (SSE2 has no unsigned byte compare). Letters of both cases at once: bit 5 set maps
   * A-Z onto a-z and nothing else onto a-z. */
  const __m128i case_bit = _mm_set1_epi8(0x20);
  const __m128i a = _mm_set1_epi8('a'), letters_span = _mm_set1_epi8('z' - 'a');
  const __m128i zero = _mm_set1_epi8('0'), digits_span = _mm_set1_epi8(9);
  const __m128i dash = _mm_set1_epi8('-'), dot = _mm_set1_epi8('.');
  const __m128i underscore = _mm_set1_epi8('_'), tilde = _mm_set1_epi8('~');
  for (; index + 16 <= count; index += 16) {
    __m128i chunk = _mm_loadu_si128((const __m128i *)(bytes + index));
    __m128i letter = _mm_sub_epi8(_mm_or_si128(chunk, case_bit), a);
    letter = _mm_cmpeq_epi8(_mm_min_epu8(letter, letters_span), letter);
    __m128i digit = _mm_sub_epi8(chunk, zero);
    digit = _mm_cmpeq_epi8(_mm_min_epu8(digit, digits_span), digit);
    __m128i mark = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(chunk, dash), _mm_cmpeq_epi8(chunk, dot)),
                                _mm_or_si128(_mm_cmpeq_epi8(chunk, underscore), _mm_cmpeq_epi8(chunk, tilde)));
    unsigned kept = (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(letter, digit), mark));
    if (kept != 0xFFFF) return index + (size_t)__builtin_ctz(~kept & 0xFFFF);
  }
#endif
  for (; index < count; index++) {
    if (!is_unreserved(bytes[index])) return index;
  }
  return count;
}
