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

// Copies `bytes` with cache-bypassing stores, 16 bytes at a time where both ends allow it
// (a row of a frame: the source is in cache, the destination is scanout memory).
typedef uint32_t panel_stream_v4 __attribute__((vector_size(16), aligned(16)));
typedef uint32_t panel_stream_v4u __attribute__((vector_size(16), aligned(1)));

static inline void panel_stream_copy(void *destination, const void *source, unsigned long bytes) {
    unsigned char *d = (unsigned char *)destination;
    const unsigned char *s = (const unsigned char *)source;
    // Head: up to 16-byte alignment of the destination, 4 bytes at a time.
    while (bytes >= 4 && ((uintptr_t)d & 15) != 0) {
        uint32_t v;
        __builtin_memcpy(&v, s, 4);
        __builtin_nontemporal_store(v, (uint32_t *)d);
        d += 4; s += 4; bytes -= 4;
    }
    while (bytes >= 64) {
        for (int i = 0; i < 4; i++) {
            panel_stream_v4 v = (panel_stream_v4)(*(const panel_stream_v4u *)(s + 16 * i));
            __builtin_nontemporal_store(v, (panel_stream_v4 *)(d + 16 * i));
        }
        d += 64; s += 64; bytes -= 64;
    }
    while (bytes >= 4) {
        uint32_t v;
        __builtin_memcpy(&v, s, 4);
        __builtin_nontemporal_store(v, (uint32_t *)d);
        d += 4; s += 4; bytes -= 4;
    }
    if (bytes) __builtin_memcpy(d, s, bytes);
}
