#include "CHeapStatistics.h"
// A C library header first: glibc's defines __GLIBC__.
#include <stdlib.h>

// Under AddressSanitizer the heap is the sanitizer's, and glibc's statistics do not see it:
// its own count of the bytes handed out is asked instead, when the process has it.
extern size_t __sanitizer_get_current_allocated_bytes(void) __attribute__((weak));

#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
#include <malloc.h>

size_t scrollwork_heap_bytes_in_use(void) {
    if (__sanitizer_get_current_allocated_bytes) return __sanitizer_get_current_allocated_bytes();
    return mallinfo2().uordblks;
}
#else
size_t scrollwork_heap_bytes_in_use(void) {
    if (__sanitizer_get_current_allocated_bytes) return __sanitizer_get_current_allocated_bytes();
    return 0;
}
#endif
