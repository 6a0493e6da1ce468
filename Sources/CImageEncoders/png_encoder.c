#include "CImageEncoders.h"

#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    uint8_t *bytes;
    size_t size;
    size_t capacity;
    int failed;
} cie_buffer;

static void cie_png_write(png_structp png, png_bytep data, size_t length) {
    cie_buffer *buffer = png_get_io_ptr(png);
    if (buffer->size + length > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity : 4096;
        while (capacity < buffer->size + length) capacity *= 2;
        uint8_t *grown = realloc(buffer->bytes, capacity);
        if (grown == NULL) {
            buffer->failed = 1;
            png_error(png, "out of memory");
        }
        buffer->bytes = grown;
        buffer->capacity = capacity;
    }
    memcpy(buffer->bytes + buffer->size, data, length);
    buffer->size += length;
}

static void cie_png_flush(png_structp png) {
    (void)png;
}

int cie_encode_png(const uint8_t *rows, size_t row_bytes, uint32_t width, uint32_t height,
                   int color_type, int bit_depth, int interlaced,
                   const uint8_t *palette, int palette_count,
                   const uint8_t *trns, int trns_count,
                   uint8_t **out, size_t *out_size) {
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    if (png == NULL) return 1;
    png_infop info = png_create_info_struct(png);
    png_bytep *pointers = NULL;
    cie_buffer *buffer = calloc(1, sizeof(cie_buffer));
    if (info == NULL || buffer == NULL) {
        png_destroy_write_struct(&png, &info);
        free(buffer);
        return 1;
    }
    pointers = malloc(sizeof(png_bytep) * (height ? height : 1));
    if (pointers == NULL || setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(pointers);
        free(buffer->bytes);
        free(buffer);
        return 1;
    }
    png_set_write_fn(png, buffer, cie_png_write, cie_png_flush);
    png_set_IHDR(png, info, width, height, bit_depth, color_type,
                 interlaced ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (palette != NULL && palette_count > 0) {
        png_color colors[256];
        for (int i = 0; i < palette_count && i < 256; i++) {
            colors[i].red = palette[i * 3];
            colors[i].green = palette[i * 3 + 1];
            colors[i].blue = palette[i * 3 + 2];
        }
        png_set_PLTE(png, info, colors, palette_count);
    }
    if (trns != NULL && trns_count > 0) {
        if (color_type == PNG_COLOR_TYPE_PALETTE) {
            png_set_tRNS(png, info, trns, trns_count, NULL);
        } else {
            // Grey and RGB keys are 16-bit big-endian samples: one for grey, three for RGB.
            png_color_16 key = {0};
            key.gray = (png_uint_16)((trns[0] << 8) | trns[1]);
            if (trns_count >= 6) {
                key.red = key.gray;
                key.green = (png_uint_16)((trns[2] << 8) | trns[3]);
                key.blue = (png_uint_16)((trns[4] << 8) | trns[5]);
            }
            png_set_tRNS(png, info, NULL, 0, &key);
        }
    }
    for (uint32_t y = 0; y < height; y++) pointers[y] = (png_bytep)(rows + (size_t)y * row_bytes);
    png_set_rows(png, info, pointers);
    png_write_png(png, info, PNG_TRANSFORM_IDENTITY, NULL);
    png_destroy_write_struct(&png, &info);
    free(pointers);
    *out = buffer->bytes;
    *out_size = buffer->size;
    free(buffer);
    return 0;
}

void cie_free(uint8_t *buffer) {
    free(buffer);
}
