#include "png_inflate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__unix__) || defined(__APPLE__)
#include <dlfcn.h>
#include <pthread.h>
#define CT_CAN_DLOPEN 1
#endif

// Intel's ISA-L inflates two to three times as fast as zlib. It is not in the machine image
// this package must build on, so it is never linked: its runtime library is opened here when
// the machine has it (Debian `libisal2`), and zlib does the work when it does not. No header
// is needed either: the few entry points are declared below, and only the first fields of its
// `struct inflate_state` are touched. Those are the stream fields every release of
// libisal.so.2 keeps in this order (igzip_lib.h); the state is allocated larger than the
// whole struct (87,368 bytes in ISA-L 2.30), and a self-test against zlib at load time turns
// ISA-L off rather than trust a library that disagrees.
typedef struct {
    uint8_t *next_out;
    uint32_t avail_out;
    uint32_t total_out;
    uint8_t *next_in;
    uint64_t read_in;
    uint32_t avail_in;
    int32_t read_in_length;
} ct_isal_stream;

#define CT_ISAL_STATE_SIZE (256 * 1024)
// isal_inflate's result for data that is not valid deflate is negative; 0 is progress.
#define CT_ISAL_DECOMP_OK 0

static struct {
    void (*inflate_init)(void *state);
    int (*inflate)(void *state);
    uint32_t (*crc32_gzip_refl)(uint32_t seed, const uint8_t *bytes, uint64_t length);
    int available;
    char description[96];
} ct_isal;

static char ct_zlib_description[48];

/// A deterministic, compressible test text: repeats for back-references, varying digits for
/// literals, long enough for dynamic Huffman blocks.
static void ct_isal_test_text(uint8_t *text, size_t length) {
    uint32_t state = 12345;
    for (size_t index = 0; index < length; index++) {
        state = state * 1103515245u + 12345u;
        text[index] = (index / 97) % 3 == 0 ? (uint8_t)('a' + (state >> 16) % 26) : (uint8_t)("scrollwork "[index % 11]);
    }
}

#ifdef CT_CAN_DLOPEN
/// Inflates a stream deflated by zlib with ISA-L in small pieces of input and output, and
/// checks the text and ISA-L's CRC-32 against zlib's.
static int ct_isal_self_test(void) {
    enum { length = 20000 };
    uint8_t *text = malloc(length), *packed = malloc(length + 1024), *unpacked = malloc(length);
    void *state = calloc(1, CT_ISAL_STATE_SIZE);
    int passed = 0;
    z_stream deflater;
    memset(&deflater, 0, sizeof deflater);
    if (text == NULL || packed == NULL || unpacked == NULL || state == NULL) goto done;
    ct_isal_test_text(text, length);
    if (deflateInit2(&deflater, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) goto done;
    deflater.next_in = text;
    deflater.avail_in = length;
    deflater.next_out = packed;
    deflater.avail_out = length + 1024;
    int deflated = deflate(&deflater, Z_FINISH) == Z_STREAM_END;
    size_t packed_length = deflater.total_out;
    deflateEnd(&deflater);
    if (!deflated) goto done;

    ct_isal.inflate_init(state);
    ct_isal_stream *stream = state;
    size_t in = 0, out = 0;
    for (int round = 0; round < 100000 && out < length; round++) {
        if (stream->avail_in == 0 && in < packed_length) {
            size_t piece = packed_length - in < 333 ? packed_length - in : 333;
            stream->next_in = packed + in;
            stream->avail_in = (uint32_t)piece;
            in += piece;
        }
        size_t room = length - out < 1000 ? length - out : 1000;
        stream->next_out = unpacked + out;
        stream->avail_out = (uint32_t)room;
        if (ct_isal.inflate(state) != CT_ISAL_DECOMP_OK) goto done;
        out += room - stream->avail_out;
    }
    passed = out == length && memcmp(text, unpacked, length) == 0 &&
             ct_isal.crc32_gzip_refl(0, text, length) == (uint32_t)crc32(0, text, length);
done:
    free(text);
    free(packed);
    free(unpacked);
    free(state);
    return passed;
}
#endif

static void ct_inflate_load(void) {
    snprintf(ct_zlib_description, sizeof ct_zlib_description, "zlib %s", zlibVersion());
    snprintf(ct_isal.description, sizeof ct_isal.description, "%s (ISA-L not found)", ct_zlib_description);
#ifdef CT_CAN_DLOPEN
    const char *choice = getenv("SCROLLWORK_INFLATE");
    if (choice != NULL && strcmp(choice, "zlib") == 0) {
        snprintf(ct_isal.description, sizeof ct_isal.description, "%s (SCROLLWORK_INFLATE=zlib)", ct_zlib_description);
        return;
    }
    static const char *const names[] = {"libisal.so.2", "libisal.2.dylib", "libisal.dylib"};
    void *library = NULL;
    const char *name = NULL;
    for (size_t index = 0; index < sizeof names / sizeof names[0] && library == NULL; index++) {
        name = names[index];
        library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    }
    if (library == NULL) return;
    *(void **)&ct_isal.inflate_init = dlsym(library, "isal_inflate_init");
    *(void **)&ct_isal.inflate = dlsym(library, "isal_inflate");
    *(void **)&ct_isal.crc32_gzip_refl = dlsym(library, "crc32_gzip_refl");
    if (ct_isal.inflate_init == NULL || ct_isal.inflate == NULL || ct_isal.crc32_gzip_refl == NULL) {
        snprintf(ct_isal.description, sizeof ct_isal.description, "%s (%s lacks isal_inflate)", ct_zlib_description, name);
        dlclose(library);
        return;
    }
    if (!ct_isal_self_test()) {
        snprintf(ct_isal.description, sizeof ct_isal.description, "%s (%s failed its self-test)", ct_zlib_description, name);
        dlclose(library);
        return;
    }
    // Kept open for the life of the process.
    ct_isal.available = 1;
    snprintf(ct_isal.description, sizeof ct_isal.description, "ISA-L (%s)", name);
#endif
}

static void ct_inflate_load_once(void) {
#ifdef CT_CAN_DLOPEN
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, ct_inflate_load);
#else
    static int loaded = 0;
    if (!loaded) {
        ct_inflate_load();
        loaded = 1;
    }
#endif
}

const char *ct_inflate_library(ct_inflate_choice choice) {
    ct_inflate_load_once();
    return choice == CT_INFLATE_FASTEST ? ct_isal.description : ct_zlib_description;
}

int ct_inflate_uses_isal(ct_inflate_choice choice) {
    ct_inflate_load_once();
    return choice == CT_INFLATE_FASTEST && ct_isal.available;
}

int ct_inflater_init(ct_inflater *inflater, ct_inflate_choice choice) {
    memset(inflater, 0, sizeof *inflater);
    ct_inflate_load_once();
    if (choice == CT_INFLATE_FASTEST && ct_isal.available) {
        inflater->isal_state = calloc(1, CT_ISAL_STATE_SIZE);
        if (inflater->isal_state == NULL) return 0;
        ct_isal.inflate_init(inflater->isal_state);
        return 1;
    }
    if (inflateInit2(&inflater->zlib, -15) != Z_OK) return 0;
    inflater->zlib_ready = 1;
    return 1;
}

void ct_inflater_destroy(ct_inflater *inflater) {
    free(inflater->isal_state);
    if (inflater->zlib_ready) inflateEnd(&inflater->zlib);
    memset(inflater, 0, sizeof *inflater);
}

ct_inflate_result ct_inflater_run(ct_inflater *inflater, const uint8_t **in, size_t *in_length, uint8_t **out, size_t *out_length) {
    // Both libraries count in 32 bits.
    uint32_t in_room = *in_length > UINT32_MAX ? UINT32_MAX : (uint32_t)*in_length;
    uint32_t out_room = *out_length > UINT32_MAX ? UINT32_MAX : (uint32_t)*out_length;
    ct_inflate_result result = CT_INFLATE_PROGRESS;
    uint32_t in_left, out_left;
    if (inflater->isal_state != NULL) {
        ct_isal_stream *stream = inflater->isal_state;
        stream->next_in = (uint8_t *)*in;
        stream->avail_in = in_room;
        stream->next_out = *out;
        stream->avail_out = out_room;
        if (ct_isal.inflate(inflater->isal_state) != CT_ISAL_DECOMP_OK) result = CT_INFLATE_BROKEN;
        in_left = stream->avail_in;
        out_left = stream->avail_out;
    } else {
        z_stream *stream = &inflater->zlib;
        stream->next_in = (Bytef *)*in;
        stream->avail_in = in_room;
        stream->next_out = *out;
        stream->avail_out = out_room;
        int status = inflate(stream, Z_NO_FLUSH);
        if (status == Z_STREAM_END) {
            result = CT_INFLATE_ENDED;
        } else if (status != Z_OK && status != Z_BUF_ERROR) {
            result = CT_INFLATE_BROKEN;
        }
        in_left = stream->avail_in;
        out_left = stream->avail_out;
    }
    size_t consumed = in_room - in_left, produced = out_room - out_left;
    // ISA-L says nothing when its stream has ended: it just stops taking input.
    if (result == CT_INFLATE_PROGRESS && consumed == 0 && produced == 0 && in_room > 0 && out_room > 0) {
        result = CT_INFLATE_ENDED;
    }
    *in += consumed;
    *in_length -= consumed;
    *out += produced;
    *out_length -= produced;
    return result;
}

uint32_t ct_inflater_crc32(const ct_inflater *inflater, const uint8_t *bytes, size_t length) {
    if (inflater->isal_state != NULL) {
        uint32_t crc = ct_isal.crc32_gzip_refl(0, bytes, length);
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
        // ISA-L computes it with carry-less multiplication, tens of times as fast as zlib's
        // crc32, but where the CPU has AVX-512 it returns with the upper halves of the vector
        // registers in use, and until they are cleared every SSE instruction after it pays
        // for that: a palette thumbnail took a fifth longer.
        if (__builtin_cpu_supports("avx")) __asm__ volatile("vzeroupper");
#endif
        return crc;
    }
    uint32_t crc = 0;
    while (length > 0) {
        uInt piece = length > (1u << 30) ? (1u << 30) : (uInt)length;
        crc = (uint32_t)crc32(crc, bytes, piece);
        bytes += piece;
        length -= piece;
    }
    return crc;
}
