#include "CThumbnails.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ct_png_decoder {
    png_structp png;
    png_infop info;
    const uint8_t *data;
    size_t size;
    size_t position;
    // Set by the read callback just before it raises, so a short file reads as truncated
    // rather than corrupt.
    int ran_out;
    uint32_t width;
    uint32_t height;
    int passes;
    size_t row_bytes;
    // Interlaced images only: the whole image, since Adam7 passes revisit every row.
    uint8_t *image;
    uint64_t interlaced_reads;
    uint32_t next_row;
    char message[200];
};

static void ct_png_error(png_structp png, png_const_charp text) {
    ct_png_decoder *decoder = png_get_error_ptr(png);
    snprintf(decoder->message, sizeof decoder->message, "%s", text ? text : "PNG error");
    png_longjmp(png, 1);
}

// Warnings (bad ancillary chunk CRCs, unknown chunks) are recoverable; libpng's default would
// print them to stderr.
static void ct_png_warning(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;
}

static void ct_png_read(png_structp png, png_bytep out, size_t length) {
    ct_png_decoder *decoder = png_get_io_ptr(png);
    if (length > decoder->size - decoder->position) {
        decoder->ran_out = 1;
        png_error(png, "the data end before the image does");
    }
    memcpy(out, decoder->data + decoder->position, length);
    decoder->position += length;
}

static ct_status ct_png_failure(ct_png_decoder *decoder) {
    if (decoder->ran_out) return CT_TRUNCATED;
    if (strstr(decoder->message, "memory") != NULL) return CT_OUT_OF_MEMORY;
    return CT_CORRUPT;
}

ct_png_decoder *ct_png_create(const uint8_t *data, size_t size) {
    ct_png_decoder *decoder = calloc(1, sizeof *decoder);
    if (decoder == NULL) return NULL;
    decoder->data = data;
    decoder->size = size;
    decoder->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, decoder, ct_png_error, ct_png_warning);
    if (decoder->png == NULL) {
        free(decoder);
        return NULL;
    }
    decoder->info = png_create_info_struct(decoder->png);
    if (decoder->info == NULL) {
        png_destroy_read_struct(&decoder->png, NULL, NULL);
        free(decoder);
        return NULL;
    }
    png_set_read_fn(decoder->png, decoder, ct_png_read);
    // Every IDAT chunk's CRC-32 is still checked, which catches damaged data; the Adler-32 of
    // the inflated stream on top of it costs a pass over every decoded byte (5% of a large
    // PNG). Browsers skip it for the same reason.
    png_set_option(decoder->png, PNG_IGNORE_ADLER32, PNG_OPTION_ON);
    return decoder;
}

ct_status ct_png_read_info(ct_png_decoder *decoder, ct_png_info *info) {
    if (setjmp(png_jmpbuf(decoder->png))) return ct_png_failure(decoder);
    png_read_info(decoder->png, decoder->info);
    decoder->width = png_get_image_width(decoder->png, decoder->info);
    decoder->height = png_get_image_height(decoder->png, decoder->info);
    info->width = decoder->width;
    info->height = decoder->height;
    info->bit_depth = png_get_bit_depth(decoder->png, decoder->info);
    info->color_type = png_get_color_type(decoder->png, decoder->info);
    info->interlaced = png_get_interlace_type(decoder->png, decoder->info) != PNG_INTERLACE_NONE;
    return CT_OK;
}

ct_status ct_png_start(ct_png_decoder *decoder, ct_layout *layout, uint8_t palette[1024]) {
    if (setjmp(png_jmpbuf(decoder->png))) return ct_png_failure(decoder);
    png_structp png = decoder->png;
    png_infop info = decoder->info;
    int color_type = png_get_color_type(png, info);
    int has_trns = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
    size_t pixel_bytes;

    png_set_strip_16(png);
    if (color_type == PNG_COLOR_TYPE_PALETTE) {
        // Indices below 8 bits to a byte each; the palette is applied by the caller.
        png_set_packing(png);
        png_colorp colors = NULL;
        int count = 0;
        png_get_PLTE(png, info, &colors, &count);
        png_bytep alphas = NULL;
        int alpha_count = 0;
        if (has_trns) png_get_tRNS(png, info, &alphas, &alpha_count, NULL);
        memset(palette, 0, 1024);
        for (int index = 0; index < 256; index++) {
            if (index < count) {
                palette[4 * index] = colors[index].red;
                palette[4 * index + 1] = colors[index].green;
                palette[4 * index + 2] = colors[index].blue;
            }
            palette[4 * index + 3] = index < alpha_count ? alphas[index] : 255;
        }
        *layout = CT_LAYOUT_INDEXED;
        pixel_bytes = 1;
    } else if (color_type == PNG_COLOR_TYPE_GRAY && !has_trns) {
        png_set_expand_gray_1_2_4_to_8(png);
        *layout = CT_LAYOUT_GRAY;
        pixel_bytes = 1;
    } else if (color_type == PNG_COLOR_TYPE_RGB && !has_trns) {
        *layout = CT_LAYOUT_RGB;
        pixel_bytes = 3;
    } else {
        // Grey below 8 bits to 8, tRNS to an alpha channel.
        png_set_expand(png);
        png_set_gray_to_rgb(png);
        if ((color_type & PNG_COLOR_MASK_ALPHA) == 0 && !has_trns) {
            png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);
        }
        *layout = CT_LAYOUT_RGBA;
        pixel_bytes = 4;
    }
    decoder->passes = png_set_interlace_handling(png);
    png_read_update_info(png, info);
    decoder->row_bytes = (size_t)decoder->width * pixel_bytes;
    if (png_get_rowbytes(png, info) != decoder->row_bytes) {
        snprintf(decoder->message, sizeof decoder->message, "unexpected row layout after conversion");
        return CT_CORRUPT;
    }
    if (decoder->passes > 1) {
        decoder->image = calloc((size_t)decoder->height, decoder->row_bytes);
        if (decoder->image == NULL) {
            snprintf(decoder->message, sizeof decoder->message, "out of memory for the interlaced image");
            return CT_OUT_OF_MEMORY;
        }
    }
    return CT_OK;
}

ct_status ct_png_decode_interlaced(ct_png_decoder *decoder, uint32_t max_rows, int *finished) {
    const uint64_t total = (uint64_t)decoder->passes * decoder->height;
    // Written between setjmp and a possible longjmp, so it must not live in a register.
    volatile uint64_t reads = decoder->interlaced_reads;
    if (setjmp(png_jmpbuf(decoder->png))) {
        decoder->interlaced_reads = reads;
        return ct_png_failure(decoder);
    }
    for (uint32_t done = 0; done < max_rows && reads < total; done++) {
        uint8_t *row = decoder->image + (size_t)(reads % decoder->height) * decoder->row_bytes;
        png_read_row(decoder->png, row, NULL);
        reads = reads + 1;
    }
    decoder->interlaced_reads = reads;
    *finished = reads == total;
    return CT_OK;
}

ct_status ct_png_read_rows(ct_png_decoder *decoder, uint8_t *out, size_t stride, uint32_t max_rows, uint32_t *rows_read) {
    const size_t row_bytes = decoder->row_bytes;
    volatile uint32_t done = 0;
    *rows_read = 0;
    if (setjmp(png_jmpbuf(decoder->png))) {
        *rows_read = done;
        decoder->next_row += done;
        return ct_png_failure(decoder);
    }
    while (done < max_rows && decoder->next_row + done < decoder->height) {
        uint8_t *target = out + (size_t)done * stride;
        if (decoder->image != NULL) {
            memcpy(target, decoder->image + (size_t)(decoder->next_row + done) * row_bytes, row_bytes);
        } else {
            png_read_row(decoder->png, target, NULL);
        }
        done = done + 1;
    }
    *rows_read = done;
    decoder->next_row += done;
    return CT_OK;
}

const char *ct_png_message(const ct_png_decoder *decoder) {
    return decoder->message;
}

void ct_png_destroy(ct_png_decoder *decoder) {
    if (decoder == NULL) return;
    png_destroy_read_struct(&decoder->png, &decoder->info, NULL);
    free(decoder->image);
    free(decoder);
}
