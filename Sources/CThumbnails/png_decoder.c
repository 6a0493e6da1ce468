#include "CThumbnails.h"
#include "png_inflate.h"
#include "png_unfilter.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// libpng reads the chunks before the image data: it checks the header, the palette and the
// transparency, and every chunk's CRC. The image data are decoded here: their IDAT chunks
// CRC-checked, inflated (ISA-L where the machine has it, else zlib; png_inflate.c) a stage at
// a time, unfiltered a whole pixel per step (png_unfilter.c), and converted to 8 bits per
// sample. libpng's own row loop inflates a row per call to zlib and unfilters a byte per step,
// which was three quarters of a photo PNG's time.

// Bytes of image data inflated per call to the inflater, unless a row is longer.
#define CT_PNG_STAGE 65536

// Adam7: where each pass starts and how far apart its pixels are.
static const uint8_t ct_adam7_x0[7] = {0, 4, 0, 2, 0, 1, 0};
static const uint8_t ct_adam7_y0[7] = {0, 0, 4, 0, 2, 0, 1};
static const uint8_t ct_adam7_dx[7] = {8, 8, 4, 4, 2, 2, 1};
static const uint8_t ct_adam7_dy[7] = {8, 8, 8, 4, 4, 2, 2};

struct ct_png_decoder {
    png_structp png;
    png_infop info;
    const uint8_t *data;
    size_t size;
    // Where libpng's reads have got to.
    size_t position;
    // Set just before a failure the data's end caused, so that it reads as truncated.
    int ran_out;
    uint32_t width;
    uint32_t height;
    int bit_depth;
    int color_type;
    int interlaced;
    ct_layout layout;
    // Bytes per delivered pixel; bytes per whole pixel of the filtered data (at least 1).
    size_t out_pixel_bytes;
    size_t filter_pixel_bytes;
    // Whether the rows are delivered as they are unfiltered: 8-bit palette, grey, RGB and
    // RGBA with no tRNS key.
    int delivers_samples;
    // A grey or RGB tRNS key, masked to the bit depth.
    int has_key;
    uint16_t key[3];

    ct_inflate_choice choice;
    ct_inflater inflater;
    int inflater_ready;
    // The next chunk to read image data from; what is left of the current one.
    size_t next_chunk;
    const uint8_t *in;
    size_t in_length;
    uint8_t zlib_header[2];
    int zlib_header_length;
    // Image data still to inflate: the rows' filter bytes and samples. What a stream has past
    // them is never inflated, so damage there cannot fail a complete image.
    uint64_t inflate_left;
    // Inflated data not yet unfiltered: stage[stage_start ..< stage_end].
    uint8_t *stage;
    size_t stage_capacity;
    size_t stage_start;
    size_t stage_end;
    // The row being unfiltered and the one before it, each as long as the longest row.
    uint8_t *row;
    uint8_t *previous;
    // Damage met in the image data: raised when a row needs what lies past it.
    const char *pending_error;
    int pending_ran_out;

    // Non-interlaced images: the next row to deliver.
    uint32_t next_row;
    // Interlaced images: the whole image, the pass and row being decoded, and one pass row.
    uint8_t *image;
    int pass;
    uint32_t pass_row;
    uint8_t *pass_pixels;
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

static uint32_t ct_png_be32(const uint8_t *bytes) {
    return (uint32_t)bytes[0] << 24 | (uint32_t)bytes[1] << 16 | (uint32_t)bytes[2] << 8 | bytes[3];
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

ct_png_decoder *ct_png_create(const uint8_t *data, size_t size, ct_inflate_choice inflate) {
    ct_png_decoder *decoder = calloc(1, sizeof *decoder);
    if (decoder == NULL) return NULL;
    decoder->data = data;
    decoder->size = size;
    decoder->choice = inflate;
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
    // Of the chunks before the image data only IHDR, PLTE and tRNS matter here. Every other
    // chunk, known or not, is skipped in small reads and never allocated at the length it
    // declares: a 57-byte file declaring a 1 GiB zTXt chunk took a gigabyte before it was
    // refused. Unknown critical chunks still fail, as they must.
    png_set_keep_unknown_chunks(decoder->png, PNG_HANDLE_CHUNK_NEVER, NULL, -1);
    png_set_chunk_malloc_max(decoder->png, 1 << 20);
    return decoder;
}

ct_status ct_png_read_info(ct_png_decoder *decoder, ct_png_info *info) {
    if (setjmp(png_jmpbuf(decoder->png))) return ct_png_failure(decoder);
    png_read_info(decoder->png, decoder->info);
    // libpng stops after the first IDAT chunk's length and type.
    if (decoder->position < 8 || memcmp(decoder->data + decoder->position - 4, "IDAT", 4) != 0) {
        snprintf(decoder->message, sizeof decoder->message, "no image data where libpng stopped");
        return CT_CORRUPT;
    }
    decoder->next_chunk = decoder->position - 8;
    decoder->width = png_get_image_width(decoder->png, decoder->info);
    decoder->height = png_get_image_height(decoder->png, decoder->info);
    decoder->bit_depth = png_get_bit_depth(decoder->png, decoder->info);
    decoder->color_type = png_get_color_type(decoder->png, decoder->info);
    decoder->interlaced = png_get_interlace_type(decoder->png, decoder->info) != PNG_INTERLACE_NONE;
    info->width = decoder->width;
    info->height = decoder->height;
    info->bit_depth = decoder->bit_depth;
    info->color_type = decoder->color_type;
    info->interlaced = decoder->interlaced;
    return CT_OK;
}

// MARK: Image data

/// The bytes of one filtered row of `pixels` pixels, without its filter byte.
static size_t ct_png_row_bytes(const ct_png_decoder *decoder, uint32_t pixels) {
    size_t bits = (size_t)pixels * (size_t)png_get_channels(decoder->png, decoder->info) * (size_t)decoder->bit_depth;
    return (bits + 7) / 8;
}

static uint32_t ct_adam7_count(uint32_t size, int start, int step) {
    return size > (uint32_t)start ? (size - start + step - 1) / step : 0;
}

static void ct_png_damage(ct_png_decoder *decoder, const char *error, int ran_out) {
    if (decoder->pending_error != NULL) return;
    decoder->pending_error = error;
    decoder->pending_ran_out = ran_out;
}

/// Points `in` at the next IDAT chunk's data, past the zlib header, once its
/// CRC checks. 0, with the damage noted, when no IDAT chunk is left or one is broken.
static int ct_png_next_idat(ct_png_decoder *decoder) {
    for (;;) {
        size_t position = decoder->next_chunk;
        if (position > decoder->size || decoder->size - position < 8) {
            ct_png_damage(decoder, "the data end before the image does", 1);
            return 0;
        }
        const uint8_t *type_and_data = decoder->data + position + 4;
        size_t length = ct_png_be32(decoder->data + position);
        if (memcmp(type_and_data, "IDAT", 4) != 0) {
            ct_png_damage(decoder, "Not enough image data", 0);
            return 0;
        }
        if (length > 0x7fffffff || length + 12 > decoder->size - position) {
            ct_png_damage(decoder, "the data end before the image does", 1);
            return 0;
        }
        if (ct_inflater_crc32(&decoder->inflater, type_and_data, length + 4) != ct_png_be32(type_and_data + 4 + length)) {
            ct_png_damage(decoder, "IDAT: CRC error", 0);
            return 0;
        }
        decoder->next_chunk = position + length + 12;
        const uint8_t *bytes = type_and_data + 4;
        // The zlib header may be split between chunks like everything else.
        while (decoder->zlib_header_length < 2 && length > 0) {
            decoder->zlib_header[decoder->zlib_header_length++] = *bytes++;
            length -= 1;
            if (decoder->zlib_header_length < 2) continue;
            // Deflate with a window of at most 32 KB and no preset dictionary. (The Adler-32 at
            // the stream's end is not checked: the CRCs catch damaged data, and checking it too
            // costs a pass over every byte, which browsers skip for the same reason.)
            const uint8_t *header = decoder->zlib_header;
            if ((header[0] & 0x0f) != 8 || (header[0] >> 4) > 7 || (header[1] & 0x20) != 0 || ((header[0] << 8) | header[1]) % 31 != 0) {
                ct_png_damage(decoder, "IDAT: invalid zlib header", 0);
                return 0;
            }
        }
        if (length > 0) {
            decoder->in = bytes;
            decoder->in_length = length;
            return 1;
        }
    }
}

/// Makes `need` bytes of inflated image data ready at stage + stage_start. 0, with the
/// damage noted, if the data end or break before that.
static int ct_png_need(ct_png_decoder *decoder, size_t need) {
    if (decoder->stage_end - decoder->stage_start >= need) return 1;
    if (decoder->pending_error != NULL) return 0;
    size_t kept = decoder->stage_end - decoder->stage_start;
    memmove(decoder->stage, decoder->stage + decoder->stage_start, kept);
    decoder->stage_start = 0;
    decoder->stage_end = kept;
    while (decoder->stage_end < need) {
        size_t room = decoder->stage_capacity - decoder->stage_end;
        if (room > decoder->inflate_left) room = (size_t)decoder->inflate_left;
        if (room == 0) {
            ct_png_damage(decoder, "Not enough image data", 0);
            return 0;
        }
        uint8_t *out = decoder->stage + decoder->stage_end;
        size_t out_left = room, in_before = decoder->in_length;
        ct_inflate_result result = ct_inflater_run(&decoder->inflater, &decoder->in, &decoder->in_length, &out, &out_left);
        size_t produced = room - out_left;
        decoder->stage_end += produced;
        decoder->inflate_left -= produced;
        if (result == CT_INFLATE_BROKEN) {
            ct_png_damage(decoder, "IDAT: invalid compressed data", 0);
            break;
        }
        if (result == CT_INFLATE_ENDED && decoder->inflate_left > 0) {
            ct_png_damage(decoder, "Not enough image data", 0);
            break;
        }
        // Nothing came out of what was left of this chunk: the inflater wants the next one.
        if (produced == 0 && decoder->in_length == 0 && in_before == 0 && !ct_png_next_idat(decoder)) break;
    }
    return decoder->stage_end >= need;
}

/// Inflates the next row of `length` bytes (filter byte not counted) and unfilters it into
/// `dst`, predicted from `above`, the row before it unfiltered.
static int ct_png_next_row(ct_png_decoder *decoder, size_t length, uint8_t *dst, const uint8_t *above) {
    if (!ct_png_need(decoder, length + 1)) return 0;
    const uint8_t *filtered = decoder->stage + decoder->stage_start;
    if (filtered[0] > 4) {
        ct_png_damage(decoder, "bad adaptive filter value", 0);
        return 0;
    }
    ct_png_unfilter(filtered[0], dst, filtered + 1, above, length, decoder->filter_pixel_bytes);
    decoder->stage_start += length + 1;
    return 1;
}

/// The next row into `decoder->previous`, which the row after it is predicted from.
static int ct_png_next_kept_row(ct_png_decoder *decoder, size_t length) {
    if (!ct_png_next_row(decoder, length, decoder->row, decoder->previous)) return 0;
    uint8_t *row = decoder->row;
    decoder->row = decoder->previous;
    decoder->previous = row;
    return 1;
}

static ct_status ct_png_data_failure(ct_png_decoder *decoder) {
    snprintf(decoder->message, sizeof decoder->message, "%s", decoder->pending_error ? decoder->pending_error : "PNG error");
    return decoder->pending_ran_out ? CT_TRUNCATED : CT_CORRUPT;
}

// MARK: Conversion to 8 bits per sample

/// Sample `index` of a row at `depth` bits.
static inline uint32_t ct_png_sample(const uint8_t *row, size_t index, int depth) {
    if (depth == 16) return (uint32_t)row[2 * index] << 8 | row[2 * index + 1];
    if (depth == 8) return row[index];
    size_t bit = index * (size_t)depth;
    return (uint32_t)(row[bit >> 3] >> (8 - depth - (bit & 7))) & ((1u << depth) - 1);
}

/// A sample at `depth` bits as 8: low depths scaled to the whole range, 16 bits cut to the
/// high byte.
static inline uint8_t ct_png_eight(uint32_t sample, int depth) {
    if (depth == 16) return (uint8_t)(sample >> 8);
    if (depth == 8) return (uint8_t)sample;
    return (uint8_t)(sample * 255 / ((1u << depth) - 1));
}

/// Converts `count` pixels of an unfiltered row to the decoder's layout.
static void ct_png_convert(const ct_png_decoder *decoder, const uint8_t *row, uint8_t *out, uint32_t count) {
    const int depth = decoder->bit_depth;
    switch (decoder->color_type) {
    case PNG_COLOR_TYPE_PALETTE:
        if (depth == 8) {
            memcpy(out, row, count);
        } else {
            for (uint32_t x = 0; x < count; x++) out[x] = (uint8_t)ct_png_sample(row, x, depth);
        }
        return;
    case PNG_COLOR_TYPE_GRAY:
        if (decoder->has_key) {
            for (uint32_t x = 0; x < count; x++) {
                uint32_t sample = ct_png_sample(row, x, depth);
                uint8_t grey = ct_png_eight(sample, depth);
                out[4 * x] = out[4 * x + 1] = out[4 * x + 2] = grey;
                out[4 * x + 3] = sample == decoder->key[0] ? 0 : 255;
            }
        } else if (depth == 8) {
            memcpy(out, row, count);
        } else {
            for (uint32_t x = 0; x < count; x++) out[x] = ct_png_eight(ct_png_sample(row, x, depth), depth);
        }
        return;
    case PNG_COLOR_TYPE_RGB:
        if (decoder->has_key) {
            for (uint32_t x = 0; x < count; x++) {
                uint32_t red = ct_png_sample(row, 3 * (size_t)x, depth);
                uint32_t green = ct_png_sample(row, 3 * (size_t)x + 1, depth);
                uint32_t blue = ct_png_sample(row, 3 * (size_t)x + 2, depth);
                out[4 * x] = ct_png_eight(red, depth);
                out[4 * x + 1] = ct_png_eight(green, depth);
                out[4 * x + 2] = ct_png_eight(blue, depth);
                out[4 * x + 3] = red == decoder->key[0] && green == decoder->key[1] && blue == decoder->key[2] ? 0 : 255;
            }
        } else if (depth == 8) {
            memcpy(out, row, (size_t)count * 3);
        } else {
            for (size_t index = 0; index < (size_t)count * 3; index++) out[index] = row[2 * index];
        }
        return;
    case PNG_COLOR_TYPE_GRAY_ALPHA: {
        const size_t step = depth == 16 ? 2 : 1;
        for (uint32_t x = 0; x < count; x++) {
            uint8_t grey = row[2 * step * x], alpha = row[2 * step * x + step];
            out[4 * x] = out[4 * x + 1] = out[4 * x + 2] = grey;
            out[4 * x + 3] = alpha;
        }
        return;
    }
    default:
        if (depth == 8) {
            memcpy(out, row, (size_t)count * 4);
        } else {
            for (size_t index = 0; index < (size_t)count * 4; index++) out[index] = row[2 * index];
        }
        return;
    }
}

ct_status ct_png_start(ct_png_decoder *decoder, ct_layout *layout, uint8_t palette[1024]) {
    png_structp png = decoder->png;
    png_infop info = decoder->info;
    const int color_type = decoder->color_type;
    const int depth = decoder->bit_depth;
    int has_trns = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
    png_color_16p key = NULL;
    if (has_trns && color_type != PNG_COLOR_TYPE_PALETTE) {
        png_get_tRNS(png, info, NULL, NULL, &key);
        has_trns = key != NULL;
    }

    if (color_type == PNG_COLOR_TYPE_PALETTE) {
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
        decoder->layout = CT_LAYOUT_INDEXED;
        decoder->out_pixel_bytes = 1;
    } else if (color_type == PNG_COLOR_TYPE_GRAY && !has_trns) {
        decoder->layout = CT_LAYOUT_GRAY;
        decoder->out_pixel_bytes = 1;
    } else if (color_type == PNG_COLOR_TYPE_RGB && !has_trns) {
        decoder->layout = CT_LAYOUT_RGB;
        decoder->out_pixel_bytes = 3;
    } else {
        // Grey or RGB with a tRNS key, grey with alpha, RGBA.
        decoder->layout = CT_LAYOUT_RGBA;
        decoder->out_pixel_bytes = 4;
        if (has_trns && (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_RGB)) {
            // Compared at the image's bit depth, as libpng's expansion does.
            const uint16_t mask = depth == 16 ? 0xffff : (uint16_t)((1u << depth) - 1);
            decoder->has_key = 1;
            if (color_type == PNG_COLOR_TYPE_GRAY) {
                decoder->key[0] = key->gray & mask;
            } else {
                decoder->key[0] = key->red & mask;
                decoder->key[1] = key->green & mask;
                decoder->key[2] = key->blue & mask;
            }
        }
    }
    *layout = decoder->layout;
    decoder->delivers_samples = depth == 8 && !decoder->has_key && color_type != PNG_COLOR_TYPE_GRAY_ALPHA;

    size_t bits_per_pixel = (size_t)png_get_channels(png, info) * (size_t)depth;
    decoder->filter_pixel_bytes = bits_per_pixel < 8 ? 1 : bits_per_pixel / 8;
    // The image data's length: every row of every pass, with its filter byte.
    size_t longest = ct_png_row_bytes(decoder, decoder->width);
    uint64_t total = 0;
    if (decoder->interlaced) {
        for (int pass = 0; pass < 7; pass++) {
            uint32_t columns = ct_adam7_count(decoder->width, ct_adam7_x0[pass], ct_adam7_dx[pass]);
            uint32_t rows = ct_adam7_count(decoder->height, ct_adam7_y0[pass], ct_adam7_dy[pass]);
            if (columns > 0) total += (uint64_t)rows * (ct_png_row_bytes(decoder, columns) + 1);
        }
    } else {
        total = (uint64_t)decoder->height * (longest + 1);
    }
    decoder->inflate_left = total;

    decoder->stage_capacity = longest + 1 > CT_PNG_STAGE ? longest + 1 : CT_PNG_STAGE;
    decoder->stage = malloc(decoder->stage_capacity);
    decoder->row = calloc(1, longest);
    decoder->previous = calloc(1, longest);
    if (decoder->stage == NULL || decoder->row == NULL || decoder->previous == NULL) {
        snprintf(decoder->message, sizeof decoder->message, "out of memory for the rows");
        return CT_OUT_OF_MEMORY;
    }
    if (!ct_inflater_init(&decoder->inflater, decoder->choice)) {
        snprintf(decoder->message, sizeof decoder->message, "out of memory for the inflater");
        return CT_OUT_OF_MEMORY;
    }
    decoder->inflater_ready = 1;
    if (decoder->interlaced) {
        decoder->image = calloc((size_t)decoder->height, (size_t)decoder->width * decoder->out_pixel_bytes);
        decoder->pass_pixels = malloc((size_t)decoder->width * decoder->out_pixel_bytes);
        if (decoder->image == NULL || decoder->pass_pixels == NULL) {
            snprintf(decoder->message, sizeof decoder->message, "out of memory for the interlaced image");
            return CT_OUT_OF_MEMORY;
        }
    }
    return CT_OK;
}

ct_status ct_png_decode_interlaced(ct_png_decoder *decoder, uint32_t max_rows, int *finished) {
    const size_t pixel_bytes = decoder->out_pixel_bytes;
    const size_t image_row_bytes = (size_t)decoder->width * pixel_bytes;
    uint32_t done = 0;
    while (done < max_rows && decoder->pass < 7) {
        const int pass = decoder->pass;
        uint32_t columns = ct_adam7_count(decoder->width, ct_adam7_x0[pass], ct_adam7_dx[pass]);
        uint32_t rows = columns > 0 ? ct_adam7_count(decoder->height, ct_adam7_y0[pass], ct_adam7_dy[pass]) : 0;
        if (decoder->pass_row >= rows) {
            decoder->pass += 1;
            decoder->pass_row = 0;
            continue;
        }
        size_t length = ct_png_row_bytes(decoder, columns);
        // Each pass is an image of its own: its first row is predicted from zeros.
        if (decoder->pass_row == 0) memset(decoder->previous, 0, length);
        if (!ct_png_next_kept_row(decoder, length)) return ct_png_data_failure(decoder);
        ct_png_convert(decoder, decoder->previous, decoder->pass_pixels, columns);
        size_t y = ct_adam7_y0[pass] + (size_t)decoder->pass_row * ct_adam7_dy[pass];
        uint8_t *target = decoder->image + y * image_row_bytes + ct_adam7_x0[pass] * pixel_bytes;
        const size_t step = ct_adam7_dx[pass] * pixel_bytes;
        for (uint32_t column = 0; column < columns; column++) {
            memcpy(target + column * step, decoder->pass_pixels + column * pixel_bytes, pixel_bytes);
        }
        decoder->pass_row += 1;
        done += 1;
    }
    *finished = decoder->pass == 7;
    return CT_OK;
}

ct_status ct_png_read_rows(ct_png_decoder *decoder, uint8_t *out, size_t stride, uint32_t max_rows, uint32_t *rows_read) {
    const size_t image_row_bytes = (size_t)decoder->width * decoder->out_pixel_bytes;
    const size_t length = ct_png_row_bytes(decoder, decoder->width);
    ct_status status = CT_OK;
    uint32_t done = 0;
    while (done < max_rows && decoder->next_row < decoder->height) {
        uint8_t *target = out + (size_t)done * stride;
        if (decoder->image != NULL) {
            memcpy(target, decoder->image + (size_t)decoder->next_row * image_row_bytes, image_row_bytes);
        } else if (decoder->delivers_samples) {
            // Unfiltered straight into place, each row predicted from the one above it.
            if (!ct_png_next_row(decoder, length, target, done == 0 ? decoder->previous : target - stride)) {
                status = ct_png_data_failure(decoder);
                break;
            }
        } else {
            if (!ct_png_next_kept_row(decoder, length)) {
                status = ct_png_data_failure(decoder);
                break;
            }
            ct_png_convert(decoder, decoder->previous, target, decoder->width);
        }
        done += 1;
        decoder->next_row += 1;
    }
    if (decoder->image == NULL && decoder->delivers_samples && done > 0) {
        memcpy(decoder->previous, out + (size_t)(done - 1) * stride, length);
    }
    *rows_read = done;
    // The rows before damage are delivered now, and the damage on the next call, which meets
    // it again at once.
    return done > 0 ? CT_OK : status;
}

const char *ct_png_message(const ct_png_decoder *decoder) {
    return decoder->message;
}

void ct_png_destroy(ct_png_decoder *decoder) {
    if (decoder == NULL) return;
    png_destroy_read_struct(&decoder->png, &decoder->info, NULL);
    if (decoder->inflater_ready) ct_inflater_destroy(&decoder->inflater);
    free(decoder->stage);
    free(decoder->row);
    free(decoder->previous);
    free(decoder->image);
    free(decoder->pass_pixels);
    free(decoder);
}
