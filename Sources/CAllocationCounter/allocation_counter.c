// Counts heap allocations by interposing glibc's allocator entry points in the executable: each forwards to
// glibc's own implementation (__libc_malloc, ...) after adding one to the calling thread's counters. glibc
// documents replacing malloc this way (all its internal allocations go through these symbols too).
//
// Each thread counts in a slot of its own (found through an initial-exec TLS pointer: a plain add, no atomic
// read-modify-write, no lock), and a reading sums every slot, so that work a library runs on its own threads
// (GRDB's database queue) is counted with the phase. Only a slot's thread writes it; readers load each field
// atomically (relaxed), which on x86-64 and arm64 is a plain load.

#include "allocation_counter.h"

#ifndef __has_feature
#define __has_feature(feature) 0
#endif

// A sanitizer brings its own allocator, which calls malloc before this file's thread-local slots exist: under
// `swift build --sanitize=address` (or thread) nothing is interposed and counting reports itself unavailable.
#if defined(__linux__) && defined(__GLIBC__) && !__has_feature(address_sanitizer) && !__has_feature(thread_sanitizer)

#include <errno.h>
#include <malloc.h>
#include <stddef.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

typedef struct {
    uint64_t allocations;
    uint64_t bytes;
    char padding[48];  // a cache line per thread: no false sharing between counting threads
} slot;

enum { slot_count = 512 };
static slot slots[slot_count];
static unsigned int slots_used;
static __thread slot *own_slot __attribute__((tls_model("initial-exec")));

static inline void count(size_t size) {
    slot *mine = own_slot;
    if (__builtin_expect(mine == NULL, 0)) {
        // Past slot_count threads, later threads share slots: their counts stay in the sums, racily.
        unsigned int index = __atomic_fetch_add(&slots_used, 1, __ATOMIC_RELAXED);
        mine = &slots[index % slot_count];
        own_slot = mine;
    }
    __atomic_store_n(&mine->allocations, __atomic_load_n(&mine->allocations, __ATOMIC_RELAXED) + 1, __ATOMIC_RELAXED);
    __atomic_store_n(&mine->bytes, __atomic_load_n(&mine->bytes, __ATOMIC_RELAXED) + size, __ATOMIC_RELAXED);
}

void *malloc(size_t size) {
    count(size);
    return __libc_malloc(size);
}

void *calloc(size_t count_, size_t size) {
    count(count_ * size);
    return __libc_calloc(count_, size);
}

void *realloc(void *pointer, size_t size) {
    // A realloc may move the block: counted as an allocation of the new size (a shrink or free-by-realloc too).
    count(size);
    return __libc_realloc(pointer, size);
}

void *memalign(size_t alignment, size_t size) {
    count(size);
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    count(size);
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
    count(size);
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL && size != 0) return ENOMEM;
    *result = pointer;
    return 0;
}

int relbench_allocation_counting_available(void) { return 1; }

relbench_allocation_counts relbench_allocation_counts_now(void) {
    relbench_allocation_counts counts = { 0, 0 };
    unsigned int used = __atomic_load_n(&slots_used, __ATOMIC_RELAXED);
    if (used > slot_count) used = slot_count;
    for (unsigned int index = 0; index < used; index++) {
        counts.allocations += __atomic_load_n(&slots[index].allocations, __ATOMIC_RELAXED);
        counts.bytes += __atomic_load_n(&slots[index].bytes, __ATOMIC_RELAXED);
    }
    return counts;
}

relbench_allocation_counts relbench_allocation_counts_this_thread(void) {
    relbench_allocation_counts counts = { 0, 0 };
    slot *mine = own_slot;
    if (mine == NULL) return counts;
    counts.allocations = __atomic_load_n(&mine->allocations, __ATOMIC_RELAXED);
    counts.bytes = __atomic_load_n(&mine->bytes, __ATOMIC_RELAXED);
    return counts;
}

uint64_t relbench_heap_bytes_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return (uint64_t)info.uordblks + (uint64_t)info.hblkhd;
}

#else

int relbench_allocation_counting_available(void) { return 0; }

relbench_allocation_counts relbench_allocation_counts_now(void) {
    relbench_allocation_counts counts = { 0, 0 };
    return counts;
}

relbench_allocation_counts relbench_allocation_counts_this_thread(void) {
    relbench_allocation_counts counts = { 0, 0 };
    return counts;
}

uint64_t relbench_heap_bytes_in_use(void) { return 0; }

#endif
