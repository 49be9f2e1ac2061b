// panel-refresh-fuzz TARGET [libFuzzer options] [CORPUS DIR or FILE]...
//
// Built by scripts/fuzz with -sanitize=fuzzer,address, this is libFuzzer on one target: its
// own main runs, and calls LLVMFuzzerInitialize (which takes TARGET off the command line) and
// LLVMFuzzerTestOneInput, both in PanelFuzz. Built plainly (swift build), the main below runs
// each FILE once through the target: how a crash's reproducer is replayed with a fix or under
// a debugger. docs/reliability.md has both.
//
// Why C: the main must be weak, so that libFuzzer's (linked whole-archive with
// -sanitize=fuzzer) takes its place; Swift cannot declare a weak symbol.
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/// The whole of a file, or NULL; *size is set.
static uint8_t *read_file(const char *path, size_t *size) {
    FILE *file = fopen(path, "rb");
    if (!file) return NULL;
    uint8_t *data = NULL;
    size_t capacity = 0, n;
    uint8_t chunk[65536];
    *size = 0;
    while ((n = fread(chunk, 1, sizeof chunk, file)) > 0) {
        if (*size + n > capacity) {
            capacity = (*size + n) * 2;
            uint8_t *grown = realloc(data, capacity);
            if (!grown) { free(data); fclose(file); return NULL; }
            data = grown;
        }
        for (size_t k = 0; k < n; k++) data[*size + k] = chunk[k];
        *size += n;
    }
    fclose(file);
    return data ? data : malloc(1);
}

__attribute__((weak)) int main(int argc, char **argv) {
    if (LLVMFuzzerInitialize(&argc, &argv) != 0) return 2;
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-') continue;  // a libFuzzer option: nothing to do without libFuzzer
        size_t size;
        uint8_t *data = read_file(argv[i], &size);
        if (!data) {
            fprintf(stderr, "panel-refresh-fuzz: cannot read %s (a corpus folder needs the fuzzing build: scripts/fuzz)\n", argv[i]);
            return 1;
        }
        fprintf(stderr, "running %s (%zu bytes)\n", argv[i], size);
        LLVMFuzzerTestOneInput(data, size);
        free(data);
    }
    return 0;
}
