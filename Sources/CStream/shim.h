// Stores that bypass the cache, for copies into scanout memory: Swift has no way to ask for
// them. A non-temporal store goes to a write-combining buffer and reaches memory as whole
// lines, without the line being read first (x86-64: movnti, movntdq; arm64: stnp).
// `panel_stream_fence` orders them before the buffer is handed to the kernel.
//
// The straight copy (`panel_stream_copy`) moves whole 64-byte cache lines, two per round,
// with the widest streaming store the CPU has: on x86-64 AVX-512 (one store a line), AVX2
// (two) or SSE2 (four), chosen once from CPUID and the registers the system saves (XGETBV);
// on arm64 `ldp` and `stnp` of two 16-byte registers (two a line). The goal is at most
// memcpy's own instruction count for the same bytes (docs/benchmarks.md, "The copy to the glass").
#include <stdint.h>
#include <string.h>

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

// Unaligned loads, aligned streaming stores, of 16, 32 and 64 bytes.
typedef uint32_t panel_stream_v4 __attribute__((vector_size(16), aligned(16)));
typedef uint32_t panel_stream_v4u __attribute__((vector_size(16), aligned(1)));

// Copies the head (up to 64-byte alignment of the destination) and the tail (less than a
// round) a 32-bit pixel at a time, and any odd bytes at the very end.
static inline unsigned long panel_stream_head(unsigned char **d, const unsigned char **s, unsigned long bytes) {
    while (bytes >= 4 && ((uintptr_t)*d & 63) != 0) {
        uint32_t v;
        memcpy(&v, *s, 4);
        __builtin_nontemporal_store(v, (uint32_t *)*d);
        *d += 4; *s += 4; bytes -= 4;
    }
    return bytes;
}

static inline void panel_stream_tail(unsigned char *d, const unsigned char *s, unsigned long bytes) {
    while (bytes >= 16 && ((uintptr_t)d & 15) == 0) {
        panel_stream_v4 v = (panel_stream_v4)(*(const panel_stream_v4u *)s);
        __builtin_nontemporal_store(v, (panel_stream_v4 *)d);
        d += 16; s += 16; bytes -= 16;
    }
    while (bytes >= 4) {
        uint32_t v;
        memcpy(&v, s, 4);
        __builtin_nontemporal_store(v, (uint32_t *)d);
        d += 4; s += 4; bytes -= 4;
    }
    if (bytes) memcpy(d, s, bytes);
}

#if defined(__x86_64__)
#include <cpuid.h>

typedef uint32_t panel_stream_v8 __attribute__((vector_size(32), aligned(32)));
typedef uint32_t panel_stream_v8u __attribute__((vector_size(32), aligned(1)));
typedef uint32_t panel_stream_v16 __attribute__((vector_size(64), aligned(64)));
typedef uint32_t panel_stream_v16u __attribute__((vector_size(64), aligned(1)));

// Each body copies `rounds` rounds of 128 bytes (two lines) to a 64-byte aligned destination.
static void panel_stream_lines_sse2(unsigned char *d, const unsigned char *s, unsigned long rounds) {
    for (; rounds; rounds--, d += 128, s += 128) {
        // Unrolled whole: eight loads and eight stores a round (left alone, the compiler keeps
        // the loop and spends five instructions on every 16 bytes).
#pragma clang loop unroll(full)
        for (int i = 0; i < 128; i += 16) {
            __builtin_nontemporal_store((panel_stream_v4)(*(const panel_stream_v4u *)(s + i)), (panel_stream_v4 *)(d + i));
        }
    }
}

__attribute__((target("avx2")))
static void panel_stream_lines_avx2(unsigned char *d, const unsigned char *s, unsigned long rounds) {
    for (; rounds; rounds--, d += 128, s += 128) {
        panel_stream_v8 v0 = (panel_stream_v8)(*(const panel_stream_v8u *)(s + 0));
        panel_stream_v8 v1 = (panel_stream_v8)(*(const panel_stream_v8u *)(s + 32));
        panel_stream_v8 v2 = (panel_stream_v8)(*(const panel_stream_v8u *)(s + 64));
        panel_stream_v8 v3 = (panel_stream_v8)(*(const panel_stream_v8u *)(s + 96));
        __builtin_nontemporal_store(v0, (panel_stream_v8 *)(d + 0));
        __builtin_nontemporal_store(v1, (panel_stream_v8 *)(d + 32));
        __builtin_nontemporal_store(v2, (panel_stream_v8 *)(d + 64));
        __builtin_nontemporal_store(v3, (panel_stream_v8 *)(d + 96));
    }
}

__attribute__((target("avx512f")))
static void panel_stream_lines_avx512(unsigned char *d, const unsigned char *s, unsigned long rounds) {
    for (; rounds; rounds--, d += 128, s += 128) {
        panel_stream_v16 v0 = (panel_stream_v16)(*(const panel_stream_v16u *)(s + 0));
        panel_stream_v16 v1 = (panel_stream_v16)(*(const panel_stream_v16u *)(s + 64));
        __builtin_nontemporal_store(v0, (panel_stream_v16 *)(d + 0));
        __builtin_nontemporal_store(v1, (panel_stream_v16 *)(d + 64));
    }
}

// The widest body this CPU and system run, as a number for `panel_stream_copy`: 3 AVX-512,
// 2 AVX2, 1 SSE2. AVX2 and AVX-512 need the CPUID bit and the system saving the YMM (XCR0
// bits 1-2) or ZMM (bits 5-7) registers. Asked once, at start (ScanoutTarget.streamWidth):
// a header cannot keep the answer, as Swift emits no static variable of a C header.
static inline int panel_stream_pick(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_OSXSAVE)) return 1;
    unsigned xcr0_low, xcr0_high;
    __asm__("xgetbv" : "=a"(xcr0_low), "=d"(xcr0_high) : "c"(0));
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 1;
    if ((b & bit_AVX512F) && (xcr0_low & 0xe6) == 0xe6) return 3;
    if ((b & bit_AVX2) && (xcr0_low & 0x06) == 0x06) return 2;
    return 1;
}
#else
static inline int panel_stream_pick(void) { return 1; }
#endif

#if defined(__aarch64__)
// Rounds of 128 bytes (two lines) with pairs both ways: `ldp` loads two 16-byte registers,
// `stnp` stores two with the hint not to keep the line (the compiler emits it for no builtin,
// and left to itself loads a register at a time and steps each pointer apart: 16 instructions
// a round). Two rounds a pass, then the odd one: 20 instructions for 256 bytes, 0.63x
// glibc's memcpy on the same bytes (docs/benchmarks.md, "The copy to the glass").
static inline void panel_stream_lines_neon(unsigned char *d, const unsigned char *s, unsigned long rounds) {
    unsigned long pairs = rounds / 2;
    if (pairs) {
        __asm__ volatile(
            "1:\n\t"
            "ldp q0, q1, [%[s]]\n\t"
            "ldp q2, q3, [%[s], #32]\n\t"
            "ldp q4, q5, [%[s], #64]\n\t"
            "ldp q6, q7, [%[s], #96]\n\t"
            "ldp q16, q17, [%[s], #128]\n\t"
            "ldp q18, q19, [%[s], #160]\n\t"
            "ldp q20, q21, [%[s], #192]\n\t"
            "ldp q22, q23, [%[s], #224]\n\t"
            "add %[s], %[s], #256\n\t"
            "stnp q0, q1, [%[d]]\n\t"
            "stnp q2, q3, [%[d], #32]\n\t"
            "stnp q4, q5, [%[d], #64]\n\t"
            "stnp q6, q7, [%[d], #96]\n\t"
            "stnp q16, q17, [%[d], #128]\n\t"
            "stnp q18, q19, [%[d], #160]\n\t"
            "stnp q20, q21, [%[d], #192]\n\t"
            "stnp q22, q23, [%[d], #224]\n\t"
            "add %[d], %[d], #256\n\t"
            "subs %[n], %[n], #1\n\t"
            "b.ne 1b\n\t"
            : [d] "+r"(d), [s] "+r"(s), [n] "+r"(pairs)
            :
            : "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7",
              "v16", "v17", "v18", "v19", "v20", "v21", "v22", "v23", "memory", "cc");
    }
    if (rounds & 1) {
        __asm__ volatile(
            "ldp q0, q1, [%[s]]\n\t"
            "ldp q2, q3, [%[s], #32]\n\t"
            "ldp q4, q5, [%[s], #64]\n\t"
            "ldp q6, q7, [%[s], #96]\n\t"
            "stnp q0, q1, [%[d]]\n\t"
            "stnp q2, q3, [%[d], #32]\n\t"
            "stnp q4, q5, [%[d], #64]\n\t"
            "stnp q6, q7, [%[d], #96]\n\t"
            :
            : [d] "r"(d), [s] "r"(s)
            : "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "memory");
    }
}
#endif

// Copies `bytes` with cache-bypassing stores (a row or rows of a frame: the source is in
// cache, the destination is scanout memory); `width` is what `panel_stream_pick` said.
static inline void panel_stream_copy(void *destination, const void *source, unsigned long bytes, int width) {
    unsigned char *d = (unsigned char *)destination;
    const unsigned char *s = (const unsigned char *)source;
    bytes = panel_stream_head(&d, &s, bytes);
    unsigned long rounds = bytes / 128;
#if defined(__x86_64__)
    if (rounds) {
        if (width >= 3) panel_stream_lines_avx512(d, s, rounds);
        else if (width == 2) panel_stream_lines_avx2(d, s, rounds);
        else panel_stream_lines_sse2(d, s, rounds);
    }
#elif defined(__aarch64__)
    (void)width;
    if (rounds) panel_stream_lines_neon(d, s, rounds);
#else
    (void)width;
    for (unsigned long i = 0; i < rounds * 128; i += 16) {
        panel_stream_v4 v = (panel_stream_v4)(*(const panel_stream_v4u *)(s + i));
        __builtin_nontemporal_store(v, (panel_stream_v4 *)(d + i));
    }
#endif
    d += rounds * 128; s += rounds * 128; bytes -= rounds * 128;
    panel_stream_tail(d, s, bytes);
}

// Four glass rows from `row` on, columns x to x1 (a multiple of 4 apart): 4x4 blocks, each four
// 16-byte loads from four picture rows (`from` + x * across, one row `across` from the next),
// a transpose in registers and four 16-byte streaming stores into the glass rows. `back`: the
// picture run is backward (loaded forward from its far end, so its rows come out last first);
// a constant at each call, so the loop has no select in it.
__attribute__((always_inline))
static inline void panel_stream_turn_blocks(uint32_t *row, long glassStride, const uint32_t *from, long across,
                                            long x, long x1, int back) {
    for (; x < x1; x += 4) {
        const uint32_t *p = from + x * across;
        panel_stream_v4 r0 = (panel_stream_v4)(*(const panel_stream_v4u *)(p));
        panel_stream_v4 r1 = (panel_stream_v4)(*(const panel_stream_v4u *)(p + across));
        panel_stream_v4 r2 = (panel_stream_v4)(*(const panel_stream_v4u *)(p + 2 * across));
        panel_stream_v4 r3 = (panel_stream_v4)(*(const panel_stream_v4u *)(p + 3 * across));
        panel_stream_v4 t0 = __builtin_shufflevector(r0, r1, 0, 4, 1, 5);
        panel_stream_v4 t1 = __builtin_shufflevector(r0, r1, 2, 6, 3, 7);
        panel_stream_v4 t2 = __builtin_shufflevector(r2, r3, 0, 4, 1, 5);
        panel_stream_v4 t3 = __builtin_shufflevector(r2, r3, 2, 6, 3, 7);
        uint32_t *to = row + x;
        __builtin_nontemporal_store(__builtin_shufflevector(t0, t2, 0, 1, 4, 5), (panel_stream_v4 *)(to + (back ? 3 : 0) * glassStride));
        __builtin_nontemporal_store(__builtin_shufflevector(t0, t2, 2, 3, 6, 7), (panel_stream_v4 *)(to + (back ? 2 : 1) * glassStride));
        __builtin_nontemporal_store(__builtin_shufflevector(t1, t3, 0, 1, 4, 5), (panel_stream_v4 *)(to + (back ? 1 : 2) * glassStride));
        __builtin_nontemporal_store(__builtin_shufflevector(t1, t3, 2, 3, 6, 7), (panel_stream_v4 *)(to + (back ? 0 : 3) * glassStride));
    }
}

// One glass column x of the four rows from `row` on (y to y + 3), a pixel at a time: the
// edges of a block row.
static inline void panel_stream_turn_column(uint32_t *row, long glassStride, const uint32_t *picture, long down,
                                            long across, long x, long y) {
    for (long j = 0; j < 4; j++) panel_stream_u32(row + j * glassStride + x, picture[(y + j) * down + x * across]);
}

// A turned copy of 32-bit pixels: glass pixel (x, y), for x0 <= x < x1 and y0 <= y < y1, is
// picture[y * down + x * across] (`picture` points at the glass origin's source pixel). The
// quarter turns (`down` is 1 or -1: a glass column runs along a picture row) go by 4x4 blocks
// (`panel_stream_turn_blocks`); the edges and the other turns a pixel at a time.
static inline void panel_stream_turn(uint32_t *glass, long glassStride, const uint32_t *picture, long down,
                                     long across, long x0, long x1, long y0, long y1) {
    long y = y0;
    if ((down == 1 || down == -1) && (glassStride & 3) == 0) {
        for (; y + 4 <= y1; y += 4) {
            uint32_t *row = glass + y * glassStride;
            long x = x0;
            for (; x < x1 && ((uintptr_t)(row + x) & 15) != 0; x++) panel_stream_turn_column(row, glassStride, picture, down, across, x, y);
            long blocks = x + (x1 - x) / 4 * 4;
            if (down < 0) panel_stream_turn_blocks(row, glassStride, picture + y * down - 3, across, x, blocks, 1);
            else panel_stream_turn_blocks(row, glassStride, picture + y * down, across, x, blocks, 0);
            for (x = blocks; x < x1; x++) panel_stream_turn_column(row, glassStride, picture, down, across, x, y);
        }
    }
    for (; y < y1; y++) {
        uint32_t *row = glass + y * glassStride;
        for (long x = x0; x < x1; x++) panel_stream_u32(row + x, picture[y * down + x * across]);
    }
}
