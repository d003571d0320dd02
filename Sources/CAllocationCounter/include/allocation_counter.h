#ifndef RELBENCH_ALLOCATION_COUNTER_H
#define RELBENCH_ALLOCATION_COUNTER_H

#include <stdint.h>

/// Heap allocations made by every thread of the process since it started: calls to malloc, calloc, realloc and
/// the aligned allocators, and the bytes they asked for.
typedef struct {
    uint64_t allocations;
    uint64_t bytes;
} relbench_allocation_counts;

/// 1 where this process's allocator is interposed and counts (glibc on Linux), 0 elsewhere.
int relbench_allocation_counting_available(void);

/// The process's counts so far (the sum of every thread's).
relbench_allocation_counts relbench_allocation_counts_now(void);

/// The calling thread's counts so far (those of its slot; threads past the 512th share slots): work measured on one
/// thread while others allocate (a test among tests running in parallel).
relbench_allocation_counts relbench_allocation_counts_this_thread(void);

/// Bytes the heap holds for the program now (glibc's mallinfo2: chunks in use plus mmapped regions); 0 where
/// unknown.
uint64_t relbench_heap_bytes_in_use(void);

#endif
