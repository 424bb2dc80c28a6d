// The compiler's software prefetch hint, which Swift has no spelling for.

/// Starts loading the cache line holding `address` for reading, without waiting for
/// it; a hint only, so any address, even an invalid one, is safe.
static inline void prefetch_for_reading(const void *address) {
    __builtin_prefetch(address, 0, 3);
}
