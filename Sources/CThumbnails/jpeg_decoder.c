#include "CThumbnails.h"

#include <stdio.h>
#include <jpeglib.h>
#include <jerror.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

// A real progressive photo has around ten scans; thousands only serve to burn CPU time.
#define CT_JPEG_MAX_SCANS 1000
// Rows per jpeg_read_scanlines call when libjpeg writes straight into the caller's buffer.
#define CT_JPEG_ROW_POINTERS 16

typedef struct {
    struct jpeg_error_mgr base;
    jmp_buf jump;
    ct_status status;
} ct_jpeg_error;

struct ct_jpeg_decoder {
    struct jpeg_decompress_struct cinfo;
    ct_jpeg_error error;
    struct jpeg_progress_mgr progress;
    int created;
    int ran_out;
    int adobe_inverted;
    // Set only while ct_jpeg_start runs, the one call that can take long without returning.
    ct_cancel_check cancelled;
    void *cancel_context;
    // CMYK and YCCK images only: one scanline of CMYK before conversion to RGB.
    uint8_t *cmyk_row;
    const uint8_t *data;
    size_t size;
    // A progressive image decoded small: the data without the scans the scaled IDCT never reads.
    uint8_t *filtered;
    char message[JMSG_LENGTH_MAX];
};

static void ct_jpeg_error_exit(j_common_ptr cinfo) {
    ct_jpeg_decoder *decoder = (ct_jpeg_decoder *)cinfo->client_data;
    if (decoder->ran_out) {
        // The source manager's filler after the end of the data is what broke the parse:
        // the file is short, not malformed, and the end-of-data message says so.
        decoder->error.status = CT_TRUNCATED;
    } else {
        (*cinfo->err->format_message)(cinfo, decoder->message);
        int code = cinfo->err->msg_code;
        if (code == JERR_BAD_PRECISION) {
            // A 12- or 16-bit JPEG is valid; this library is built for 8-bit samples.
            snprintf(decoder->message, sizeof decoder->message, "a %d-bit JPEG (only 8-bit JPEGs are decoded)",
                     ((j_decompress_ptr)cinfo)->data_precision);
            decoder->error.status = CT_UNSUPPORTED;
        } else if (code == JERR_SOF_UNSUPPORTED) {
            char reason[JMSG_LENGTH_MAX];
            memcpy(reason, decoder->message, sizeof reason);
            snprintf(decoder->message, sizeof decoder->message, "a lossless or hierarchical JPEG (%s)", reason);
            decoder->error.status = CT_UNSUPPORTED;
        } else {
            decoder->error.status = code == JERR_OUT_OF_MEMORY ? CT_OUT_OF_MEMORY : CT_CORRUPT;
        }
    }
    longjmp(decoder->error.jump, 1);
}

// libjpeg reports recoverable damage as warnings and carries on; the default prints them.
// The one that matters is the end of the data arriving early: the source manager then feeds
// libjpeg an end-of-image marker and the rest of the image comes out grey.
static void ct_jpeg_emit_message(j_common_ptr cinfo, int level) {
    if (level >= 0) return;
    ct_jpeg_decoder *decoder = (ct_jpeg_decoder *)cinfo->client_data;
    if (cinfo->err->msg_code == JWRN_JPEG_EOF && !decoder->ran_out) {
        decoder->ran_out = 1;
        (*cinfo->err->format_message)(cinfo, decoder->message);
    }
    cinfo->err->num_warnings++;
}

// libjpeg calls this after each row of blocks while it reads a multi-scan image, from inside
// jpeg_start_decompress: the place to stop runaway scan counts and to honour cancellation.
static void ct_jpeg_progress(j_common_ptr cinfo) {
    ct_jpeg_decoder *decoder = (ct_jpeg_decoder *)cinfo->client_data;
    if (decoder->cancelled != NULL && decoder->cancelled(decoder->cancel_context)) {
        snprintf(decoder->message, sizeof decoder->message, "cancelled");
        decoder->error.status = CT_CANCELLED;
        longjmp(decoder->error.jump, 1);
    }
    if (decoder->cinfo.input_scan_number > CT_JPEG_MAX_SCANS) {
        snprintf(decoder->message, sizeof decoder->message, "more than %d progressive scans", CT_JPEG_MAX_SCANS);
        decoder->error.status = CT_LIMIT;
        longjmp(decoder->error.jump, 1);
    }
}

ct_jpeg_decoder *ct_jpeg_create(const uint8_t *data, size_t size) {
    ct_jpeg_decoder *decoder = calloc(1, sizeof *decoder);
    if (decoder == NULL) return NULL;
    decoder->cinfo.err = jpeg_std_error(&decoder->error.base);
    decoder->error.base.error_exit = ct_jpeg_error_exit;
    decoder->error.base.emit_message = ct_jpeg_emit_message;
    decoder->cinfo.client_data = decoder;
    if (setjmp(decoder->error.jump)) {
        if (decoder->created) jpeg_destroy_decompress(&decoder->cinfo);
        free(decoder);
        return NULL;
    }
    jpeg_create_decompress(&decoder->cinfo);
    decoder->created = 1;
    decoder->progress.progress_monitor = ct_jpeg_progress;
    decoder->cinfo.progress = &decoder->progress;
    jpeg_mem_src(&decoder->cinfo, data, (unsigned long)size);
    decoder->data = data;
    decoder->size = size;
    return decoder;
}

ct_status ct_jpeg_read_header(ct_jpeg_decoder *decoder, ct_jpeg_info *info) {
    if (setjmp(decoder->error.jump)) return decoder->error.status;
    if (jpeg_read_header(&decoder->cinfo, TRUE) != JPEG_HEADER_OK) {
        snprintf(decoder->message, sizeof decoder->message, "no image in the data");
        return CT_CORRUPT;
    }
    if (decoder->ran_out) return CT_TRUNCATED;
    struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
    info->width = cinfo->image_width;
    info->height = cinfo->image_height;
    info->progressive = jpeg_has_multiple_scans(cinfo);
    switch (cinfo->jpeg_color_space) {
    case JCS_GRAYSCALE: info->color = CT_JPEG_GRAY; break;
    case JCS_CMYK: info->color = CT_JPEG_CMYK; break;
    case JCS_YCCK: info->color = CT_JPEG_YCCK; break;
    default: info->color = CT_JPEG_COLOR; break;
    }
    // Photoshop writes CMYK inverted (0 = full ink) and says so with its APP14 marker.
    decoder->adobe_inverted = cinfo->saw_Adobe_marker;
    return CT_OK;
}

// Whether the scan whose SOS segment (after the marker) is at `segment` carries only AC
// coefficients of components decoded at 1/8 scale, whose 1x1 IDCT reads the DC coefficient alone.
static int ct_jpeg_scan_is_unread(const struct jpeg_decompress_struct *cinfo, const uint8_t *segment, size_t length) {
    if (length < 3) return 0;
    unsigned count = segment[2];
    if (count == 0 || length < 3 + 2 * (size_t)count + 3) return 0;
    unsigned spectral_start = segment[3 + 2 * count];
    if (spectral_start == 0) return 0;
    for (unsigned i = 0; i < count; i++) {
        int id = segment[3 + 2 * i];
        int found = 0;
        for (int ci = 0; ci < cinfo->num_components; ci++) {
            if (cinfo->comp_info[ci].component_id != id) continue;
            found = 1;
            if (cinfo->comp_info[ci].DCT_scaled_size != 1) return 0;
        }
        if (!found) return 0;
    }
    return 1;
}

// A copy of the data without the scans that `ct_jpeg_scan_is_unread`, so that libjpeg never
// Huffman-decodes coefficients it would throw away; the output is the same, since every
// coefficient that is read still arrives. NULL when no scan would go, or when the data do
// not end in EOI: a short or damaged file is decoded as it is, so its damage still shows.
static uint8_t *ct_jpeg_without_unread_scans(const struct jpeg_decompress_struct *cinfo, const uint8_t *data, size_t size,
                                             size_t *out_size) {
    if (size < 4 || data[0] != 0xFF || data[1] != 0xD8) return NULL;
    uint8_t *out = malloc(size);
    if (out == NULL) return NULL;
    size_t written = 0, position = 2, dropped = 0;
    out[written++] = 0xFF;
    out[written++] = 0xD8;
    for (;;) {
        if (position + 1 >= size || data[position] != 0xFF) break;
        // Fill bytes before a marker.
        while (position + 1 < size && data[position + 1] == 0xFF) position++;
        if (position + 1 >= size) break;
        uint8_t marker = data[position + 1];
        if (marker == 0xD9) {
            out[written++] = 0xFF;
            out[written++] = 0xD9;
            if (dropped == 0) break;
            *out_size = written;
            return out;
        }
        if (marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7)) {
            memcpy(out + written, data + position, 2);
            written += 2;
            position += 2;
            continue;
        }
        if (position + 4 > size) break;
        size_t length = (size_t)data[position + 2] << 8 | data[position + 3];
        if (length < 2 || position + 2 + length > size) break;
        size_t end = position + 2 + length;
        int drop = 0;
        if (marker == 0xDA) {
            drop = ct_jpeg_scan_is_unread(cinfo, data + position + 2, length);
            // The entropy-coded data run to the next marker that is neither a stuffed 0xFF
            // nor a restart marker.
            while (end + 1 < size && !(data[end] == 0xFF && data[end + 1] != 0x00 && !(data[end + 1] >= 0xD0 && data[end + 1] <= 0xD7))) end++;
            if (end + 1 >= size) break;
        }
        if (drop) {
            dropped++;
        } else {
            memcpy(out + written, data + position, end - position);
            written += end - position;
        }
        position = end;
    }
    free(out);
    return NULL;
}

ct_status ct_jpeg_start(ct_jpeg_decoder *decoder, unsigned scale_denom, ct_cancel_check cancelled, void *context,
                        uint32_t *width, uint32_t *height, ct_layout *layout) {
    if (setjmp(decoder->error.jump)) {
        decoder->cancelled = NULL;
        return decoder->error.status;
    }
    struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
    decoder->cancelled = cancelled;
    decoder->cancel_context = context;
    cinfo->scale_num = 1;
    cinfo->scale_denom = scale_denom;
    int cmyk = cinfo->jpeg_color_space == JCS_CMYK || cinfo->jpeg_color_space == JCS_YCCK;
    int gray = cinfo->jpeg_color_space == JCS_GRAYSCALE;
    cinfo->out_color_space = cmyk ? JCS_CMYK : gray ? JCS_GRAYSCALE : JCS_EXT_RGB;
    *layout = gray ? CT_LAYOUT_GRAY : CT_LAYOUT_RGB;
    if (jpeg_has_multiple_scans(cinfo) && scale_denom == 8) {
        // At 1/8 a component whose blocks become single pixels needs only its DC scans: the
        // AC scans, most of a progressive file, can go unread. libjpeg then starts over on
        // the shorter data, with the same settings.
        jpeg_calc_output_dimensions(cinfo);
        size_t filtered_size = 0;
        decoder->filtered = ct_jpeg_without_unread_scans(cinfo, decoder->data, decoder->size, &filtered_size);
        if (decoder->filtered != NULL) {
            jpeg_abort_decompress(cinfo);
            jpeg_mem_src(cinfo, decoder->filtered, (unsigned long)filtered_size);
            jpeg_read_header(cinfo, TRUE);
            cinfo->scale_num = 1;
            cinfo->scale_denom = scale_denom;
            cinfo->out_color_space = cmyk ? JCS_CMYK : gray ? JCS_GRAYSCALE : JCS_EXT_RGB;
            // Smoothing guesses missing low AC coefficients from neighbouring blocks; here
            // they are missing on purpose and never read, and with every scan present libjpeg
            // does not smooth anyway.
            cinfo->do_block_smoothing = FALSE;
        }
    }
    jpeg_start_decompress(cinfo);
    decoder->cancelled = NULL;
    if (cmyk) {
        decoder->cmyk_row = malloc((size_t)cinfo->output_width * 4);
        if (decoder->cmyk_row == NULL) {
            snprintf(decoder->message, sizeof decoder->message, "out of memory for a CMYK row");
            return CT_OUT_OF_MEMORY;
        }
    }
    *width = cinfo->output_width;
    *height = cinfo->output_height;
    return CT_OK;
}

static void ct_cmyk_to_rgb(const uint8_t *cmyk, uint8_t *rgb, uint32_t width, int inverted) {
    for (uint32_t x = 0; x < width; x++) {
        unsigned c = cmyk[0], m = cmyk[1], y = cmyk[2], k = cmyk[3];
        if (!inverted) {
            c = 255 - c;
            m = 255 - m;
            y = 255 - y;
            k = 255 - k;
        }
        // Now 255 means no ink: each channel is what the ink leaves of white, times what black leaves.
        rgb[0] = (uint8_t)((c * k + 127) / 255);
        rgb[1] = (uint8_t)((m * k + 127) / 255);
        rgb[2] = (uint8_t)((y * k + 127) / 255);
        cmyk += 4;
        rgb += 3;
    }
}

ct_status ct_jpeg_read_rows(ct_jpeg_decoder *decoder, uint8_t *out, size_t stride, uint32_t max_rows, uint32_t *rows_read) {
    struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
    volatile uint32_t done = 0;
    *rows_read = 0;
    if (setjmp(decoder->error.jump)) {
        *rows_read = done;
        return decoder->error.status;
    }
    while (done < max_rows && cinfo->output_scanline < cinfo->output_height) {
        if (decoder->cmyk_row != NULL) {
            JSAMPROW row = decoder->cmyk_row;
            if (jpeg_read_scanlines(cinfo, &row, 1) != 1) break;
            ct_cmyk_to_rgb(decoder->cmyk_row, out + (size_t)done * stride, cinfo->output_width, decoder->adobe_inverted);
            done = done + 1;
        } else {
            JSAMPROW rows[CT_JPEG_ROW_POINTERS];
            uint32_t wanted = max_rows - done;
            if (wanted > CT_JPEG_ROW_POINTERS) wanted = CT_JPEG_ROW_POINTERS;
            for (uint32_t i = 0; i < wanted; i++) rows[i] = out + (size_t)(done + i) * stride;
            JDIMENSION got = jpeg_read_scanlines(cinfo, rows, wanted);
            if (got == 0) break;
            done = done + got;
        }
    }
    *rows_read = done;
    return CT_OK;
}

int ct_jpeg_ran_out_of_data(const ct_jpeg_decoder *decoder) {
    return decoder->ran_out;
}

const char *ct_jpeg_message(const ct_jpeg_decoder *decoder) {
    return decoder->message;
}

void ct_jpeg_destroy(ct_jpeg_decoder *decoder) {
    if (decoder == NULL) return;
    free(decoder->cmyk_row);
    jpeg_destroy_decompress(&decoder->cinfo);
    free(decoder->filtered);
    free(decoder);
}
