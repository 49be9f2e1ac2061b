// A TCG plugin for qemu-user that counts the guest instructions one thread executes inside
// windows, for scripts/bench-instructions --arch arm64 (aarch64 has no callgrind here).
//
// A window opens when a thread enters the function at `open` and closes when that thread
// enters the function at `close` (the bench calls `close` right after the measured function
// returns); at each close it writes "window instructions=N" to `out`. Counting is per
// translation block: a block's instruction count is added each time it runs, which is the
// number of guest instructions retired, as callgrind's Ir on x86. Only the thread that
// opened the window counts, as a worker thread's work is not the frame's.
//
// Arguments (addresses as nm prints them, in hex): open=ADDR,close=ADDR,base=ADDR,out=FILE,
// where base is the p_vaddr of the program's executable PT_LOAD: at run time that segment
// starts at qemu_plugin_start_code(), which gives the load bias of a position-independent
// program.
//
// Debian bookworm's qemu-user (7.2) ships no qemu-plugin.h: the few declarations used are
// below, from the plugin API's version 1 (include/qemu/qemu-plugin.h, QEMU 4.2 to 8.0).
// Build: gcc -shared -fPIC -O2 -o count-plugin.so count-plugin.c
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t qemu_plugin_id_t;
typedef struct {
    const char *target_name;
    struct { int min; int cur; } version;
    bool system_emulation;
    union { struct { int smp_vcpus; int max_vcpus; } system; };
} qemu_info_t;
struct qemu_plugin_tb;
enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_CB_R_REGS, QEMU_PLUGIN_CB_RW_REGS };
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index, void *userdata);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb, qemu_plugin_vcpu_udata_cb_t cb,
                                          enum qemu_plugin_cb_flags flags, void *userdata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn;
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb, void *userdata);
void qemu_plugin_outs(const char *string);
uint64_t qemu_plugin_start_code(void);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

// As nm prints them, until the first translation adds the load bias (qemu_plugin_start_code()
// reads the guest's task, which exists only once a vcpu runs).
static uint64_t open_address, close_address, base_address;
static bool biased;
static FILE *out;
// What the plugin keeps of a translated block (one per translation, never freed: a run
// translates a few thousand).
struct block {
    uint64_t instructions;
    // The addresses of its first and its last instruction, and whether the first runs onto the
    // next page.
    uint64_t first, last;
    bool first_crosses;
};
// The vcpu (guest thread) whose window is open, -1 when none; read by every thread.
static int window_vcpu = -1;
// Instructions in the open window, those of the last block it ran, and that block's last
// instruction's address: only the window's thread writes them.
static uint64_t counted, last_block, last_address;
static unsigned windows;
static bool in_window(unsigned int vcpu) {
    return __atomic_load_n(&window_vcpu, __ATOMIC_RELAXED) == (int)vcpu;
}
// qemu 7.2's x86 translator (Debian bookworm's) ends a block before an instruction that would
// run onto the next page, unless it is the block's first, but the plugin API still lists the
// instruction it backed out, so that block claims one instruction more than it runs. The
// instruction then starts the next block, as its first: a block whose first instruction
// crosses a page, run right after a block of two or more whose last instruction has that
// address, takes the one back. Measured: a 7-byte load at 0x467fff in the bench's turned copy
// made the plugin count 3,601 more instructions than callgrind a 720p frame (one each time a
// tile's four glass rows begin). aarch64's instructions are 4 bytes, aligned, and never cross.
static void count(const struct block *b) {
    if (b->first_crosses && last_block > 1 && last_address == b->first) counted--;
    counted += b->instructions;
    last_block = b->instructions;
    last_address = b->last;
}
static void block_ran(unsigned int vcpu, void *block) {
    if (in_window(vcpu)) count(block);
}
// The open function's first block: a window opens (a nested entry only counts on).
static void window_opened(unsigned int vcpu, void *block) {
    int none = -1;
    if (__atomic_compare_exchange_n(&window_vcpu, &none, (int)vcpu, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
        counted = 0;
        last_block = 0;
        count(block);
    } else {
        block_ran(vcpu, block);
    }
}
// The close function's first block is not the window's, nor is the block that called it:
// callgrind's window ends at the measured function's return, and the block after it, in the
// caller, runs from the return address to the call of `close` (the bench has nothing between
// the two calls that branches). Counting it made every window longer than callgrind's by that
// block: one instruction (the call) in the bench, 1,586,096 against 1,586,095 for five 720p
// copies.
static void window_closed(unsigned int vcpu, void *unused) {
    (void)unused;
    if (!in_window(vcpu)) return;
    fprintf(out, "window instructions=%" PRIu64 "\n", counted - last_block);
    fflush(out);
    windows++;
    __atomic_store_n(&window_vcpu, -1, __ATOMIC_RELAXED);
}
static void translated(qemu_plugin_id_t id, struct qemu_plugin_tb *tb) {
    (void)id;
    if (!biased) {
        uint64_t bias = qemu_plugin_start_code() - base_address;
        open_address += bias;
        close_address += bias;
        biased = true;
    }
    size_t n = qemu_plugin_tb_n_insns(tb);
    struct block *b = calloc(1, sizeof *b);
    if (b == NULL || n == 0) {
        qemu_plugin_outs("count-plugin: out of memory, or a block without instructions\n");
        abort();
    }
    const struct qemu_plugin_insn *first = qemu_plugin_tb_get_insn(tb, 0);
    b->instructions = n;
    b->first = qemu_plugin_insn_vaddr(first);
    b->last = qemu_plugin_insn_vaddr(qemu_plugin_tb_get_insn(tb, n - 1));
    size_t size = qemu_plugin_insn_size(first);
    b->first_crosses = size > 0 && (b->first >> 12) != ((b->first + size - 1) >> 12);
    uint64_t address = qemu_plugin_tb_vaddr(tb);
    qemu_plugin_vcpu_udata_cb_t callback = block_ran;
    if (address == open_address) callback = window_opened;
    if (address == close_address) callback = window_closed;
    qemu_plugin_register_vcpu_tb_exec_cb(tb, callback, QEMU_PLUGIN_CB_NO_REGS, b);
}
static void exited(qemu_plugin_id_t id, void *unused) {
    (void)id; (void)unused;
    if (windows == 0) qemu_plugin_outs("count-plugin: no window closed (are open= and close= right?)\n");
    fclose(out);
}

__attribute__((visibility("default")))
int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv) {
    (void)info;
    uint64_t open = 0, close = 0, base = 0;
    const char *path = NULL;
    for (int i = 0; i < argc; i++) {
        const char *value = strchr(argv[i], '=');
        if (value == NULL) continue;
        value++;
        if (strncmp(argv[i], "open=", 5) == 0) open = strtoull(value, NULL, 16);
        else if (strncmp(argv[i], "close=", 6) == 0) close = strtoull(value, NULL, 16);
        else if (strncmp(argv[i], "base=", 5) == 0) base = strtoull(value, NULL, 16);
        else if (strncmp(argv[i], "out=", 4) == 0) path = value;
    }
    if (open == 0 || close == 0 || path == NULL) {
        qemu_plugin_outs("count-plugin: needs open=ADDR,close=ADDR,base=ADDR,out=FILE\n");
        return -1;
    }
    out = fopen(path, "w");
    if (out == NULL) {
        qemu_plugin_outs("count-plugin: cannot open the out= file\n");
        return -1;
    }
    open_address = open;
    close_address = close;
    base_address = base;
    qemu_plugin_register_vcpu_tb_trans_cb(id, translated);
    qemu_plugin_register_atexit_cb(id, exited, NULL);
    return 0;
}
