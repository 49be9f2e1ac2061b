// The copy to the glass (Sources/CStream/shim.h, panel_stream_copy) against memcpy: every
// length from 0 to 2,000 bytes in 4-byte steps (the head before a 64-byte aligned line, the
// pairs of 128-byte rounds, the odd round, the tail) at every 4-byte destination offset within
// a line. Its aarch64 body is written in assembly, which only an aarch64 run checks:
// scripts/arm64-check builds this for aarch64 and runs it under qemu-user. Exit 0 when all match.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../Sources/CStream/shim.h"

int main(void) {
    int failures = 0, runs = 0;
    unsigned char *source = aligned_alloc(64, 4096), *copied = aligned_alloc(64, 4096), *expected = aligned_alloc(64, 4096);
    if (!source || !copied || !expected) return 2;
    for (unsigned long bytes = 0; bytes < 2000; bytes += 4) {
        for (int offset = 0; offset < 64; offset += 4) {
            for (int i = 0; i < 4096; i++) { source[i] = (unsigned char)(i * 7 + 3); copied[i] = expected[i] = 0xAA; }
            // The source 8 bytes into a line: unaligned loads, as a row of a shadow surface can be.
            panel_stream_copy(copied + offset, source + 8, bytes, panel_stream_pick());
            panel_stream_fence();
            memcpy(expected + offset, source + 8, bytes);
            runs++;
            if (memcmp(copied, expected, 4096) != 0 && ++failures <= 5) printf("differs: %lu bytes at offset %d\n", bytes, offset);
        }
    }
    printf("stream copy: %d of %d copies differ from memcpy\n", failures, runs);
    return failures != 0;
}
