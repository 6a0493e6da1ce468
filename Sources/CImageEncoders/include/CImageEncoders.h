#ifndef CIMAGEENCODERS_H
#define CIMAGEENCODERS_H

// PNG and JPEG encoders over libpng and libjpeg-turbo, for generating test images and
// benchmark inputs. As in the decoding shim, the libraries' error exits longjmp only within C.

#include <stddef.h>
#include <stdint.h>

/// Encodes a PNG from rows already in PNG's sample layout for `color_type` and `bit_depth`
/// (samples packed big-endian, rows `row_bytes` apart). `palette` holds `palette_count` RGB
/// triples, `trns` holds `trns_count` bytes of tRNS chunk payload; either may be NULL.
/// On success returns 0 and a malloc'd buffer in `*out` that the caller frees.
int cie_encode_png(const uint8_t *rows, size_t row_bytes, uint32_t width, uint32_t height,
                   int color_type, int bit_depth, int interlaced,
                   const uint8_t *palette, int palette_count,
                   const uint8_t *trns, int trns_count,
                   uint8_t **out, size_t *out_size);

typedef enum {
    CIE_JPEG_GRAY = 0,
    CIE_JPEG_RGB = 1,
    /// Input is CMYK as Adobe stores it (inverted, 255 = no ink), written as CMYK.
    CIE_JPEG_CMYK = 2,
    /// The same input, written in the YCCK transform.
    CIE_JPEG_YCCK = 3,
} cie_jpeg_color;

/// Encodes a JPEG from tightly packed samples (1, 3 or 4 per pixel for the colour model).
/// On success returns 0 and a malloc'd buffer in `*out` that the caller frees.
int cie_encode_jpeg(const uint8_t *pixels, uint32_t width, uint32_t height, cie_jpeg_color color,
                    int quality, int progressive, uint8_t **out, size_t *out_size);

void cie_free(uint8_t *buffer);

#endif
