#include "CThumbnails.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Intel's ISA-L (Debian `libisal-dev`) inflates two to three times as fast as zlib, which is
// most of the time a large PNG takes. libpng inflates with zlib itself, so the image data are
// inflated here with ISA-L and handed to libpng re-wrapped as stored (uncompressed) deflate
// blocks, which zlib only copies. Everything else, unfiltering and transforms included, stays
// libpng's. Without ISA-L libpng reads the file as it is.
#if __has_include(<isa-l/igzip_lib.h>)
#include <isa-l/crc.h>
#include <isa-l/igzip_lib.h>
#define CT_PNG_ISAL 1
// The largest stored block; one synthetic IDAT chunk carries one.
#define CT_PNG_STORED_MAX 65535
#endif

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
#ifdef CT_PNG_ISAL
    // The run of IDAT chunks in the data: where it starts (0: none found, read as it is) and
    // ends, and whether the data end inside it.
    size_t idat_start;
    size_t idat_end;
    // 0: serving the data before the IDAT run, 1: synthetic IDAT chunks, 2: the data after.
    int phase;
    // The next IDAT chunk to inflate from.
    size_t next_idat;
    struct inflate_state *inflater;
    int zlib_header_read;
    int stream_done;
    int first_emitted;
    int final_emitted;
    // Damage met while inflating, raised once the rows before it have been served.
    const char *pending_error;
    int pending_ran_out;
    // The synthetic chunk being served: header, zlib header, stored block, Adler-32, CRC.
    uint8_t chunk[8 + 2 + 5 + CT_PNG_STORED_MAX + 4 + 4];
    size_t chunk_size;
    size_t chunk_position;
#endif
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

static void ct_png_copy_original(png_structp png, ct_png_decoder *decoder, png_bytep out, size_t length) {
    if (length > decoder->size - decoder->position) {
        decoder->ran_out = 1;
        png_error(png, "the data end before the image does");
    }
    memcpy(out, decoder->data + decoder->position, length);
    decoder->position += length;
}

#ifdef CT_PNG_ISAL
// Finds the run of IDAT chunks; leaves idat_start 0 if the chunks before it do not parse, so
// that libpng meets whatever is wrong with them itself.
static void ct_png_find_idat(ct_png_decoder *decoder) {
    size_t position = 8;
    while (position + 8 <= decoder->size) {
        size_t length = ct_png_be32(decoder->data + position);
        if (length > 0x7fffffff) return;
        if (memcmp(decoder->data + position + 4, "IDAT", 4) == 0) {
            decoder->idat_start = position;
            decoder->next_idat = position;
            while (position + 8 <= decoder->size && memcmp(decoder->data + position + 4, "IDAT", 4) == 0) {
                length = ct_png_be32(decoder->data + position);
                if (length > 0x7fffffff || length + 12 > decoder->size - position) {
                    position = decoder->size;
                    break;
                }
                position += length + 12;
            }
            decoder->idat_end = position;
            return;
        }
        if (length + 12 > decoder->size - position) return;
        position += length + 12;
    }
}

// PNG's CRC-32 is gzip's. ISA-L computes it with carry-less multiplication, tens of times as
// fast as zlib's crc32 (which was 5% of a large PNG), but where the CPU has AVX-512 it returns
// with the upper halves of the vector registers in use, and until they are cleared every SSE
// instruction after it pays for that: a palette thumbnail took a fifth longer.
static uint32_t ct_png_crc(const uint8_t *bytes, size_t length) {
    uint32_t crc = crc32_gzip_refl(0, bytes, length);
#if defined(__x86_64__)
    if (__builtin_cpu_supports("avx")) __asm__ volatile("vzeroupper");
#endif
    return crc;
}

// Inflates up to `capacity` bytes of image data, feeding ISA-L one CRC-checked IDAT chunk at a
// time. Damage stops it early and is kept in pending_error.
static size_t ct_png_inflate(ct_png_decoder *decoder, uint8_t *out, size_t capacity) {
    struct inflate_state *state = decoder->inflater;
    state->next_out = out;
    state->avail_out = (uint32_t)capacity;
    while (state->avail_out > 0 && !decoder->stream_done && decoder->pending_error == NULL) {
        if (state->avail_in == 0 && decoder->next_idat < decoder->idat_end) {
            size_t position = decoder->next_idat;
            size_t length = position + 8 <= decoder->size ? ct_png_be32(decoder->data + position) : 0;
            if (position + 8 > decoder->size || length + 12 > decoder->size - position) {
                decoder->pending_ran_out = 1;
                decoder->pending_error = "the data end before the image does";
                break;
            }
            const uint8_t *type_and_data = decoder->data + position + 4;
            if (ct_png_crc(type_and_data, length + 4) != ct_png_be32(type_and_data + 4 + length)) {
                decoder->pending_error = "IDAT: CRC error";
                break;
            }
            const uint8_t *bytes = type_and_data + 4;
            decoder->next_idat = position + length + 12;
            if (!decoder->zlib_header_read && length > 0) {
                // The zlib header: deflate, a window of at most 32 KB, no preset dictionary.
                if (length < 2 || (bytes[0] & 0x0f) != 8 || (bytes[0] >> 4) > 7 || (bytes[1] & 0x20) != 0 ||
                    ((bytes[0] << 8) | bytes[1]) % 31 != 0) {
                    decoder->pending_error = "IDAT: invalid zlib header";
                    break;
                }
                bytes += 2;
                length -= 2;
                decoder->zlib_header_read = 1;
            }
            state->next_in = (uint8_t *)bytes;
            state->avail_in = (uint32_t)length;
        }
        uint32_t room = state->avail_out;
        if (isal_inflate(state) != ISAL_DECOMP_OK) {
            decoder->pending_error = "IDAT: invalid compressed data";
            break;
        }
        if (state->block_state == ISAL_BLOCK_FINISH) {
            decoder->stream_done = 1;
        } else if (state->avail_in == 0 && decoder->next_idat >= decoder->idat_end && state->avail_out == room) {
            // Every IDAT chunk inflated and nothing more comes out: the data end early, or the
            // image data do.
            decoder->pending_ran_out = decoder->idat_end == decoder->size;
            decoder->pending_error = decoder->pending_ran_out ? "the data end before the image does" : "Not enough image data";
        }
    }
    return capacity - state->avail_out;
}

// Builds the next synthetic IDAT chunk: one stored block of inflated data, the zlib header
// before the first, an Adler-32 after the last (zero: libpng is told to ignore it), and a CRC
// of zero (libpng is told not to check synthetic chunks; the real ones were checked above).
static void ct_png_next_chunk(png_structp png, ct_png_decoder *decoder) {
    if (decoder->pending_error != NULL) {
        decoder->ran_out = decoder->pending_ran_out;
        png_error(png, decoder->pending_error);
    }
    uint8_t *chunk = decoder->chunk;
    size_t size = 8;
    if (!decoder->first_emitted) {
        chunk[size++] = 0x78;
        chunk[size++] = 0x01;
        decoder->first_emitted = 1;
    }
    size_t block = size;
    size += 5;
    size_t produced = ct_png_inflate(decoder, chunk + size, CT_PNG_STORED_MAX);
    if (produced == 0 && decoder->pending_error != NULL) {
        decoder->ran_out = decoder->pending_ran_out;
        png_error(png, decoder->pending_error);
    }
    size += produced;
    chunk[block] = decoder->stream_done ? 1 : 0;
    chunk[block + 1] = (uint8_t)produced;
    chunk[block + 2] = (uint8_t)(produced >> 8);
    chunk[block + 3] = (uint8_t)~produced;
    chunk[block + 4] = (uint8_t)(~produced >> 8);
    if (decoder->stream_done) {
        memset(chunk + size, 0, 4);
        size += 4;
        decoder->final_emitted = 1;
    }
    size_t length = size - 8;
    chunk[0] = (uint8_t)(length >> 24);
    chunk[1] = (uint8_t)(length >> 16);
    chunk[2] = (uint8_t)(length >> 8);
    chunk[3] = (uint8_t)length;
    memcpy(chunk + 4, "IDAT", 4);
    memset(chunk + size, 0, 4);
    decoder->chunk_size = size + 4;
    decoder->chunk_position = 0;
}
#endif

static void ct_png_read(png_structp png, png_bytep out, size_t length) {
    ct_png_decoder *decoder = png_get_io_ptr(png);
#ifdef CT_PNG_ISAL
    while (decoder->idat_start != 0 && length > 0) {
        if (decoder->phase == 0) {
            if (decoder->position < decoder->idat_start) {
                size_t count = decoder->idat_start - decoder->position;
                if (count > length) count = length;
                ct_png_copy_original(png, decoder, out, count);
                out += count;
                length -= count;
                continue;
            }
            decoder->phase = 1;
            png_set_crc_action(png, PNG_CRC_QUIET_USE, PNG_CRC_DEFAULT);
        }
        if (decoder->phase == 1) {
            if (decoder->chunk_position == decoder->chunk_size) {
                if (decoder->final_emitted) {
                    decoder->phase = 2;
                    decoder->position = decoder->idat_end;
                    png_set_crc_action(png, PNG_CRC_DEFAULT, PNG_CRC_DEFAULT);
                    break;
                }
                ct_png_next_chunk(png, decoder);
            }
            size_t count = decoder->chunk_size - decoder->chunk_position;
            if (count > length) count = length;
            memcpy(out, decoder->chunk + decoder->chunk_position, count);
            decoder->chunk_position += count;
            out += count;
            length -= count;
            continue;
        }
        break;
    }
#endif
    ct_png_copy_original(png, decoder, out, length);
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
#ifdef CT_PNG_ISAL
    ct_png_find_idat(decoder);
    if (decoder->idat_start != 0) {
        decoder->inflater = calloc(1, sizeof *decoder->inflater);
        if (decoder->inflater == NULL) {
            png_destroy_read_struct(&decoder->png, &decoder->info, NULL);
            free(decoder);
            return NULL;
        }
        isal_inflate_init(decoder->inflater);
        decoder->inflater->crc_flag = ISAL_DEFLATE;
    }
#endif
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
#ifdef CT_PNG_ISAL
    free(decoder->inflater);
#endif
    free(decoder);
}
