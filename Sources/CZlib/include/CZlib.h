#ifndef CZLIB_H
#define CZLIB_H

#include <stddef.h>
#include <stdint.h>

// The system zlib's compression and checksum (Debian `zlib1g-dev`), for the pictures a
// terminal is sent compressed: kitty's `o=z` and the PNG files of iTerm2 images.

/// The most bytes `cz_deflate` can make of `size` bytes.
size_t cz_deflate_bound(size_t size);

/// The `size` bytes at `data` as a zlib stream (RFC 1950) at `level` (1, fastest, to 9) in
/// `out`, which holds `capacity` bytes; returns the stream's size, or 0 if it did not fit or
/// zlib failed. `cz_deflate_bound(size)` bytes always fit.
size_t cz_deflate(const uint8_t *data, size_t size, uint8_t *out, size_t capacity, int level);

/// zlib's CRC-32 of `size` bytes at `data`, continuing from `crc` (0 to start).
uint32_t cz_crc32(uint32_t crc, const uint8_t *data, size_t size);

#endif
