// Stores that bypass the cache, for copies into scanout memory: Swift has no way to ask for
// them. On x86-64 a non-temporal store (movnti) goes to a write-combining buffer and reaches
// memory as whole lines, without the line being read first; on arm64 the compiler emits a
// plain or a non-temporal pair store. `panel_stream_fence` orders them before the buffer is
// handed to the kernel.
#include <stdint.h>

static inline void panel_stream_u32(uint32_t *destination, uint32_t value) {
    __builtin_nontemporal_store(value, destination);
}

static inline void panel_stream_fence(void) {
#if defined(__x86_64__)
    __builtin_ia32_sfence();
#else
    __atomic_thread_fence(__ATOMIC_RELEASE);
#endif
}
