#include "CZlib.h"

#include <zlib.h>

// zlib's one-shot compression, for pictures sent to a terminal compressed (kitty's `o=z`).

size_t cz_deflate_bound(size_t size) {
    return (size_t)compressBound((uLong)size);
}

size_t cz_deflate(const uint8_t *data, size_t size, uint8_t *out, size_t capacity, int level) {
    uLongf length = (uLongf)capacity;
    if (compress2(out, &length, data, (uLong)size, level) != Z_OK) return 0;
    return (size_t)length;
}

uint32_t cz_crc32(uint32_t crc, const uint8_t *data, size_t size) {
    return (uint32_t)crc32((uLong)crc, data, (uInt)size);
}
