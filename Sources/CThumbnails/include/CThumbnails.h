#ifndef CTHUMBNAILS_H
#define CTHUMBNAILS_H

// A small incremental decoding interface over libpng and libjpeg-turbo.
//
// Every function that calls into either library sets up its own setjmp point, so the
// libraries' error exits longjmp only within C frames and never across a Swift frame. Each
// function returns a status; on failure `*_message` holds the library's explanation. Rows are
// delivered 8 bits per sample in the narrowest layout that holds the image: RGBA with straight
// alpha, RGB, grey, or palette indices.

#include <stddef.h>
#include <stdint.h>

typedef enum {
    CT_OK = 0,
    /// The data break the format's rules.
    CT_CORRUPT = 1,
    /// The data end before the image does.
    CT_TRUNCATED = 2,
    /// The library could not allocate what the image needs.
    CT_OUT_OF_MEMORY = 3,
    /// The file asks for more work than any sane image needs (e.g. thousands of progressive scans).
    CT_LIMIT = 4,
    /// The caller's cancellation check said stop.
    CT_CANCELLED = 5,
    /// A valid file of a kind this decoder does not read (a 12-bit or lossless JPEG).
    CT_UNSUPPORTED = 6,
} ct_status;

/// How the delivered rows lay out their pixels.
typedef enum {
    /// Red, green, blue, straight alpha: 4 bytes.
    CT_LAYOUT_RGBA = 0,
    /// Red, green, blue, opaque: 3 bytes.
    CT_LAYOUT_RGB = 1,
    /// Grey, opaque: 1 byte.
    CT_LAYOUT_GRAY = 2,
    /// An index into a palette of 256 RGBA entries: 1 byte.
    CT_LAYOUT_INDEXED = 3,
} ct_layout;

/// Asked now and then during long work inside one call; nonzero stops it with CT_CANCELLED.
typedef int (*ct_cancel_check)(void *context);

// MARK: PNG

typedef struct ct_png_decoder ct_png_decoder;

typedef struct {
    uint32_t width;
    uint32_t height;
    int bit_depth;
    int color_type;
    int interlaced;
} ct_png_info;

/// Which library inflates a PNG's image data.
typedef enum {
    /// Intel's ISA-L where the machine has its runtime library (libisal.so.2) and it passes a
    /// self-test, and the environment does not say `SCROLLWORK_INFLATE=zlib`; else zlib.
    CT_INFLATE_FASTEST = 0,
    /// zlib, always.
    CT_INFLATE_ZLIB = 1,
} ct_inflate_choice;

/// Whether `choice` inflates with ISA-L on this machine.
int ct_inflate_uses_isal(ct_inflate_choice choice);

/// What `choice` uses on this machine, for reports: for example "ISA-L (libisal.so.2)" or
/// "zlib 1.2.13 (ISA-L not found)". The string lives as long as the process.
const char *ct_inflate_library(ct_inflate_choice choice);

/// A decoder over `size` bytes at `data`, which must stay valid until `ct_png_destroy`, whose
/// image data `inflate` inflates. NULL if out of memory.
ct_png_decoder *ct_png_create(const uint8_t *data, size_t size, ct_inflate_choice inflate);
/// Reads the chunks up to the first IDAT; allocates nothing in proportion to the image.
ct_status ct_png_read_info(ct_png_decoder *decoder, ct_png_info *info);
/// Picks the layout rows are delivered in, 8 bits per sample: palette images stay
/// indices (with `palette` filled with 256 RGBA entries, tRNS applied, entries past the PLTE
/// black, as libpng's expansion has them), opaque grey and RGB stay as they are, everything
/// else becomes RGBA. For an interlaced image this allocates width * height * (bytes per pixel).
ct_status ct_png_start(ct_png_decoder *decoder, ct_layout *layout, uint8_t palette[1024]);
/// Interlaced images only: runs up to `max_rows` row reads of the Adam7 passes into the
/// decoder's image buffer. `*finished` becomes 1 once every pass is done.
ct_status ct_png_decode_interlaced(ct_png_decoder *decoder, uint32_t max_rows, int *finished);
/// Copies or decodes up to `max_rows` finished rows to `out`, `stride` bytes apart. Damage
/// after some rows returns CT_OK with those rows; the next call fails with it.
ct_status ct_png_read_rows(ct_png_decoder *decoder, uint8_t *out, size_t stride, uint32_t max_rows, uint32_t *rows_read);
const char *ct_png_message(const ct_png_decoder *decoder);
void ct_png_destroy(ct_png_decoder *decoder);

// MARK: JPEG

typedef struct ct_jpeg_decoder ct_jpeg_decoder;

typedef enum {
    CT_JPEG_GRAY = 0,
    CT_JPEG_COLOR = 1,
    CT_JPEG_CMYK = 2,
    CT_JPEG_YCCK = 3,
} ct_jpeg_color;

typedef struct {
    uint32_t width;
    uint32_t height;
    ct_jpeg_color color;
    int progressive;
} ct_jpeg_info;

/// A decoder over `size` bytes at `data`, which must stay valid until `ct_jpeg_destroy`. NULL if out of memory.
ct_jpeg_decoder *ct_jpeg_create(const uint8_t *data, size_t size);
/// Reads the markers up to the first scan; allocates nothing in proportion to the image.
ct_status ct_jpeg_read_header(ct_jpeg_decoder *decoder, ct_jpeg_info *info);
/// Starts decompression at 1/`scale_denom` (1, 2, 4 or 8) and reports the scaled size and the
/// layout: grey for grey images, RGB for everything else (CMYK and YCCK converted).
/// A progressive image's whole coefficient buffer is allocated and every scan decoded here,
/// so for one `cancelled` (which may be NULL) is asked after each row of blocks it reads.
ct_status ct_jpeg_start(ct_jpeg_decoder *decoder, unsigned scale_denom, ct_cancel_check cancelled, void *context,
                        uint32_t *width, uint32_t *height, ct_layout *layout);
/// Decodes up to `max_rows` rows to `out`, `stride` bytes apart.
ct_status ct_jpeg_read_rows(ct_jpeg_decoder *decoder, uint8_t *out, size_t stride, uint32_t max_rows, uint32_t *rows_read);
/// 1 once libjpeg has met the end of the data before the end of the image. It then goes on
/// with grey filler, so this is how a caller that wants only intact images finds out.
int ct_jpeg_ran_out_of_data(const ct_jpeg_decoder *decoder);
const char *ct_jpeg_message(const ct_jpeg_decoder *decoder);
void ct_jpeg_destroy(ct_jpeg_decoder *decoder);

#endif
