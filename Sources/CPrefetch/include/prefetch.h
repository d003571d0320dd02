#ifndef RELBENCH_PREFETCH_H
#define RELBENCH_PREFETCH_H

/// Asks the CPU to bring the cache line holding `address` in, ready to be written: a hint with no effect on any
/// result and no fault on any address. Swift has no prefetch of its own; clang inlines this into the caller.
static inline void relbench_prefetch_for_write(const void *address) { __builtin_prefetch(address, 1, 3); }

/// The same for a line that will only be read.
static inline void relbench_prefetch_for_read(const void *address) { __builtin_prefetch(address, 0, 3); }

#endif
