#include <zlib.h>

/* deflateInit2 is a macro over deflateInit2_ that Swift cannot call. */
static inline int czlib_deflate_init_gzip(z_streamp stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}

/* inflateInit2 likewise; 15 + 32 reads a gzip or zlib header. */
static inline int czlib_inflate_init_auto(z_streamp stream) {
    return inflateInit2(stream, 15 + 32);
}
