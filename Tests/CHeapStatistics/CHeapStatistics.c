#include "CHeapStatistics.h"
// A C library header first: glibc's defines __GLIBC__.
#include <stdlib.h>

#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
#include <malloc.h>

size_t scrollwork_heap_bytes_in_use(void) {
    return mallinfo2().uordblks;
}
#else
size_t scrollwork_heap_bytes_in_use(void) {
    return 0;
}
#endif
