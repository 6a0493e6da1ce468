#include "png_unfilter.h"

#include <string.h>

#if defined(__SSE2__) && defined(__x86_64__)
#include <emmintrin.h>
#define CT_UNFILTER_SSE2 1
#endif

// PNG's filters predict each byte from the byte one pixel to the left (a), the byte above (b)
// and the byte above and to the left (c). Undoing Sub, Average and Paeth is serial from pixel
// to pixel, but each pixel's bytes are independent, so for 3 to 8 bytes a pixel one SSE2
// register holds a whole pixel's predictions in 16-bit lanes: about three times as fast as
// libpng's byte loop, which is half a photo PNG's decode time without this. One- and two-byte
// pixels (grey, palette, grey with alpha) take the byte loop.

static inline uint8_t ct_paeth(int a, int b, int c) {
    int pa = b - c, pb = a - c, pc = pa + pb;
    pa = pa < 0 ? -pa : pa;
    pb = pb < 0 ? -pb : pb;
    pc = pc < 0 ? -pc : pc;
    return (uint8_t)(pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
}

static void ct_unfilter_bytes(int filter, uint8_t *dst, const uint8_t *src, const uint8_t *prev, size_t length, size_t bpp) {
    size_t lead = bpp < length ? bpp : length;
    switch (filter) {
    case 1:
        memcpy(dst, src, lead);
        for (size_t index = lead; index < length; index++) dst[index] = (uint8_t)(src[index] + dst[index - bpp]);
        break;
    case 3:
        for (size_t index = 0; index < lead; index++) dst[index] = (uint8_t)(src[index] + (prev[index] >> 1));
        for (size_t index = lead; index < length; index++) {
            dst[index] = (uint8_t)(src[index] + ((dst[index - bpp] + prev[index]) >> 1));
        }
        break;
    case 4:
        for (size_t index = 0; index < lead; index++) dst[index] = (uint8_t)(src[index] + prev[index]);
        for (size_t index = lead; index < length; index++) {
            dst[index] = (uint8_t)(src[index] + ct_paeth(dst[index - bpp], prev[index], prev[index - bpp]));
        }
        break;
    }
}

#ifdef CT_UNFILTER_SSE2
static inline __m128i ct_load_pixel(const uint8_t *bytes, size_t bpp) {
    uint64_t word = 0;
    memcpy(&word, bytes, bpp);
    return _mm_unpacklo_epi8(_mm_cvtsi64_si128((long long)word), _mm_setzero_si128());
}

static inline void ct_store_pixel(uint8_t *bytes, __m128i pixel, size_t bpp) {
    uint64_t word = (uint64_t)_mm_cvtsi128_si64(_mm_packus_epi16(pixel, pixel));
    memcpy(bytes, &word, bpp);
}

static inline __m128i ct_abs16(__m128i value) {
    return _mm_max_epi16(value, _mm_sub_epi16(_mm_setzero_si128(), value));
}

/// Sub, Average or Paeth over whole pixels of `bpp` bytes (3 to 8, a constant where inlined),
/// the sums in 16-bit lanes and wrapped to a byte as they are stored.
static inline __attribute__((always_inline)) void ct_unfilter_pixels(
    int filter, uint8_t *dst, const uint8_t *src, const uint8_t *prev, size_t length, size_t bpp
) {
    const __m128i low_byte = _mm_set1_epi16(0xff);
    __m128i a = _mm_setzero_si128(), c = _mm_setzero_si128();
    size_t pixels = length / bpp;
    for (size_t pixel = 0; pixel < pixels; pixel++) {
        size_t offset = pixel * bpp;
        __m128i x = ct_load_pixel(src + offset, bpp), predicted;
        if (filter == 1) {
            predicted = a;
        } else {
            __m128i b = ct_load_pixel(prev + offset, bpp);
            if (filter == 3) {
                predicted = _mm_srli_epi16(_mm_add_epi16(a, b), 1);
            } else {
                // p = a + b - c; the distances to it: |b - c|, |a - c| and |a + b - 2c|.
                __m128i from_a = _mm_sub_epi16(b, c), from_b = _mm_sub_epi16(a, c);
                __m128i pc = ct_abs16(_mm_add_epi16(from_a, from_b));
                __m128i pa = ct_abs16(from_a), pb = ct_abs16(from_b);
                __m128i smallest = _mm_min_epi16(pc, _mm_min_epi16(pa, pb));
                // a on ties with a, else b on ties with b, else c.
                __m128i is_b = _mm_cmpeq_epi16(smallest, pb);
                predicted = _mm_or_si128(_mm_and_si128(is_b, b), _mm_andnot_si128(is_b, c));
                __m128i is_a = _mm_cmpeq_epi16(smallest, pa);
                predicted = _mm_or_si128(_mm_and_si128(is_a, a), _mm_andnot_si128(is_a, predicted));
            }
            c = b;
        }
        a = _mm_and_si128(_mm_add_epi16(x, predicted), low_byte);
        ct_store_pixel(dst + offset, a, bpp);
    }
}

static void ct_unfilter_simd(int filter, uint8_t *dst, const uint8_t *src, const uint8_t *prev, size_t length, size_t bpp) {
    switch (bpp) {
    case 3: ct_unfilter_pixels(filter, dst, src, prev, length, 3); break;
    case 4: ct_unfilter_pixels(filter, dst, src, prev, length, 4); break;
    case 6: ct_unfilter_pixels(filter, dst, src, prev, length, 6); break;
    case 8: ct_unfilter_pixels(filter, dst, src, prev, length, 8); break;
    default: ct_unfilter_pixels(filter, dst, src, prev, length, bpp); break;
    }
}
#endif

void ct_png_unfilter(int filter, uint8_t *dst, const uint8_t *src, const uint8_t *prev, size_t length, size_t bpp) {
    switch (filter) {
    case 0:
        memcpy(dst, src, length);
        return;
    case 2:
        for (size_t index = 0; index < length; index++) dst[index] = (uint8_t)(src[index] + prev[index]);
        return;
    default:
#ifdef CT_UNFILTER_SSE2
        // Rows are whole pixels, so nothing is left over.
        if (bpp >= 3 && bpp <= 8) {
            ct_unfilter_simd(filter, dst, src, prev, length, bpp);
            return;
        }
#endif
        ct_unfilter_bytes(filter, dst, src, prev, length, bpp);
    }
}
