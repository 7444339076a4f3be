#include <zlib.h>

// deflateInit2 and inflateInit2 are function-like macros Swift cannot import.
static inline int czlib_deflateInit2(z_streamp s, int level, int windowBits, int memLevel,
                                     int strategy) {
  return deflateInit2(s, level, Z_DEFLATED, windowBits, memLevel, strategy);
}
static inline int czlib_inflateInit2(z_streamp s, int windowBits) {
  return inflateInit2(s, windowBits);
}
