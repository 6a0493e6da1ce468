#ifndef C_ALLOCATION_COUNT_H
#define C_ALLOCATION_COUNT_H

/// Counts the heap allocations (malloc, calloc, realloc and the aligned ones) this executable's
/// own code makes between a begin and an end: for the allocations per diff that
/// `scrollwork bench diff` reports. Every Swift object, array buffer and hash table is one.
///
/// The executable defines `malloc` and its siblings, forwarding to glibc's own (`__libc_malloc`,
/// …): its code, the statically linked Swift runtime included, calls them; shared libraries
/// keep calling glibc's directly. Outside a count an allocation pays one predictable branch.
/// One count at a time; allocations on other threads meanwhile count too. Under a sanitizer,
/// which defines these functions itself, nothing is counted and the count is -1.

/// Starts counting from zero.
void scrollwork_allocations_count_begin(void);

/// Stops counting and returns the number of allocations since the begin, or -1 when this
/// build cannot count them.
long scrollwork_allocations_count_end(void);

#endif
