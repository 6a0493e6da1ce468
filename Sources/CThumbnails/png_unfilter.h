#ifndef CT_PNG_UNFILTER_H
#define CT_PNG_UNFILTER_H

#include <stddef.h>
#include <stdint.h>

/// Undoes PNG filter `filter` (0 None, 1 Sub, 2 Up, 3 Average, 4 Paeth; the caller has
/// checked it) on one row of `length` bytes: `src` is the filtered row, `prev` the previous
/// row unfiltered (zeros for a pass's first row), `dst` receives the row. `bpp` is the bytes
/// per complete pixel, at least 1. `dst` must not overlap `src` or `prev`.
void ct_png_unfilter(int filter, uint8_t *dst, const uint8_t *src, const uint8_t *prev, size_t length, size_t bpp);

#endif
