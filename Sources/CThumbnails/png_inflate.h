#ifndef CT_PNG_INFLATE_H
#define CT_PNG_INFLATE_H

// The PNG decoder's inflate: ISA-L where the machine has its runtime library, else zlib.

#include "CThumbnails.h"

#include <zlib.h>

/// One raw deflate stream (no zlib header or trailer) through whichever library was chosen.
typedef struct {
    /// ISA-L's state, or NULL when zlib does the work.
    void *isal_state;
    z_stream zlib;
    int zlib_ready;
} ct_inflater;

typedef enum {
    /// Some input taken or output made, or both buffers used up.
    CT_INFLATE_PROGRESS = 0,
    /// The deflate stream has ended; nothing more will come out.
    CT_INFLATE_ENDED = 1,
    /// The data are not valid deflate.
    CT_INFLATE_BROKEN = 2,
} ct_inflate_result;

/// 0 if out of memory.
int ct_inflater_init(ct_inflater *inflater, ct_inflate_choice choice);
void ct_inflater_destroy(ct_inflater *inflater);
/// Inflates from `*in` to `*out`, advancing both and shrinking the lengths.
ct_inflate_result ct_inflater_run(ct_inflater *inflater, const uint8_t **in, size_t *in_length, uint8_t **out, size_t *out_length);
/// The CRC-32 of PNG chunks (gzip's), from the same library as the inflate.
uint32_t ct_inflater_crc32(const ct_inflater *inflater, const uint8_t *bytes, size_t length);

#endif
