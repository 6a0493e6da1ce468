#ifndef SCROLLWORK_CHEAPSTATISTICS_H
#define SCROLLWORK_CHEAPSTATISTICS_H

#include <stddef.h>

/// The bytes malloc has handed out and not yet taken back (glibc's `mallinfo2().uordblks`, or
/// under AddressSanitizer its allocator's count),
/// for tests that check a loop leaks nothing; 0 where the C library does not say.
size_t scrollwork_heap_bytes_in_use(void);

#endif
