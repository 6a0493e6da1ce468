#include "CImageEncoders.h"

#include <stdio.h>
#include <jpeglib.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    struct jpeg_error_mgr base;
    jmp_buf jump;
} cie_jpeg_error;

static void cie_jpeg_error_exit(j_common_ptr cinfo) {
    longjmp(((cie_jpeg_error *)cinfo->err)->jump, 1);
}

int cie_encode_jpeg(const uint8_t *pixels, uint32_t width, uint32_t height, cie_jpeg_color color,
                    int quality, int progressive, uint8_t **out, size_t *out_size) {
    struct jpeg_compress_struct cinfo;
    cie_jpeg_error error;
    // jpeg_mem_dest grows this buffer through its address, so after a longjmp it holds the
    // latest allocation to free.
    unsigned char *buffer = NULL;
    unsigned long size = 0;
    memset(&cinfo, 0, sizeof cinfo);
    cinfo.err = jpeg_std_error(&error.base);
    error.base.error_exit = cie_jpeg_error_exit;
    if (setjmp(error.jump)) {
        jpeg_destroy_compress(&cinfo);
        free(buffer);
        return 1;
    }
    jpeg_create_compress(&cinfo);
    jpeg_mem_dest(&cinfo, &buffer, &size);
    cinfo.image_width = width;
    cinfo.image_height = height;
    int components;
    switch (color) {
    case CIE_JPEG_GRAY: cinfo.in_color_space = JCS_GRAYSCALE; components = 1; break;
    case CIE_JPEG_RGB: cinfo.in_color_space = JCS_RGB; components = 3; break;
    default: cinfo.in_color_space = JCS_CMYK; components = 4; break;
    }
    cinfo.input_components = components;
    jpeg_set_defaults(&cinfo);
    // jpeg_set_colorspace writes the Adobe marker for both, which tells decoders the data are inverted.
    if (color == CIE_JPEG_CMYK) jpeg_set_colorspace(&cinfo, JCS_CMYK);
    if (color == CIE_JPEG_YCCK) jpeg_set_colorspace(&cinfo, JCS_YCCK);
    jpeg_set_quality(&cinfo, quality, TRUE);
    if (progressive) jpeg_simple_progression(&cinfo);
    jpeg_start_compress(&cinfo, TRUE);
    while (cinfo.next_scanline < cinfo.image_height) {
        JSAMPROW row = (JSAMPROW)(pixels + (size_t)cinfo.next_scanline * width * components);
        jpeg_write_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    *out = buffer;
    *out_size = size;
    return 0;
}
