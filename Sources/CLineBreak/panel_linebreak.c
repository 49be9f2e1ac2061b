// libunibreak and libthai for PanelRender's line breaking, each opened once by dlopen.
//
// Opened, not linked: libunibreak has shipped under several sonames (bookworm's 1.1 is
// libunibreak.so.1, trixie's 6.1 libunibreak.so.6, both with the calls used here), and linking
// would tie a build to one of them; libthai (libthai.so.0) is only needed where Thai is shown,
// so the package recommends it rather than depending on it.
//
// A C file, not a header: what dlopen found lives in this file's statics, one copy for the
// whole program. A header's static gives every object file that calls it a copy of its own, and
// the release build's optimiser inlines Swift callers into other object files, whose copy was
// never loaded (the broker's socket read as none for that reason: Sources/CMosquitto).
#include "panel_dynamic.h"
#include <pthread.h>
#include <stdlib.h>
#include <wchar.h>
#include "panel_linebreak.h"

struct panel_unibreak_api {
    const char *error;  // why loading failed, or NULL
    void (*set_linebreaks_utf32)(const uint32_t *, size_t, const char *, char *);
};

static struct panel_unibreak_api unibreak;
static pthread_once_t unibreak_once = PTHREAD_ONCE_INIT;

static void panel_unibreak_load_once(void) {
    static const char *const names[] = {"libunibreak.so.6", "libunibreak.so.5", "libunibreak.so.4",
                                        "libunibreak.so.3", "libunibreak.so.1", "libunibreak.so"};
    void *library = NULL;
    const char *why = NULL;
    for (size_t i = 0; i < sizeof names / sizeof names[0] && !library; i++) library = panel_dynamic_open(names[i], &why);
    if (!library) {
        unibreak.error = "libunibreak is not installed (libunibreak1 on bookworm, libunibreak6 on trixie)";
        return;
    }
    // The second-level index of the break classes; newer versions build it themselves.
    void (*init)(void) = (void (*)(void))dlsym(library, "init_linebreak");
    if (init) init();
    unibreak.set_linebreaks_utf32 = (void (*)(const uint32_t *, size_t, const char *, char *))dlsym(library, "set_linebreaks_utf32");
    if (!unibreak.set_linebreaks_utf32) unibreak.error = "libunibreak has no set_linebreaks_utf32";
}

const char *panel_linebreaks_error(void) {
    pthread_once(&unibreak_once, panel_unibreak_load_once);
    return unibreak.error;
}

int panel_linebreaks_utf32(const uint32_t *text, size_t length, const char *language, char *breaks) {
    if (panel_linebreaks_error()) return -1;
    unibreak.set_linebreaks_utf32(text, length, language, breaks);
    return 0;
}

// libthai's word breaker: thai/thbrk.h and thai/thwbrk.h (libthai-dev), whose types are
// repeated here so that the headers are not needed to build. thwchar_t is wchar_t, 32 bits on
// Linux: code points as they are.
typedef struct _ThBrk ThBrk;
struct panel_thai_api {
    const char *error;  // why loading failed, or NULL
    ThBrk *breaker;     // the default dictionary (libthai-data), loaded once
    int (*find_breaks)(ThBrk *, const wchar_t *, int *, size_t);
};

static struct panel_thai_api thai;
static pthread_once_t thai_once = PTHREAD_ONCE_INIT;
// th_brk_wc_find_breaks keeps a cache of its own in the breaker: one call at a time.
static pthread_mutex_t thai_lock = PTHREAD_MUTEX_INITIALIZER;

static void panel_thai_load_once(void) {
    const char *why = NULL;
    void *library = panel_dynamic_open("libthai.so.0", &why);
    if (!library) {
        thai.error = "libthai is not installed (libthai0): Thai lines break only between clusters";
        return;
    }
    ThBrk *(*make)(const char *) = (ThBrk * (*)(const char *)) dlsym(library, "th_brk_new");
    thai.find_breaks = (int (*)(ThBrk *, const wchar_t *, int *, size_t))dlsym(library, "th_brk_wc_find_breaks");
    if (!make || !thai.find_breaks) {
        thai.error = "libthai has no th_brk_new or th_brk_wc_find_breaks";
        return;
    }
    thai.breaker = make(NULL);
    if (!thai.breaker) thai.error = "libthai's dictionary is missing (libthai-data): Thai lines break only between clusters";
}

const char *panel_thai_error(void) {
    pthread_once(&thai_once, panel_thai_load_once);
    return thai.error;
}

int panel_thai_breaks(const uint32_t *text, size_t length, int *positions, size_t capacity) {
    if (panel_thai_error()) return -1;
    // libthai reads a NUL-terminated string of `length` characters at most; the caller's text
    // has no terminator of its own.
    if (length == 0 || length > (size_t)1 << 20) return 0;
    wchar_t *copy = calloc(length + 1, sizeof(wchar_t));
    if (!copy) return 0;
    for (size_t i = 0; i < length; i++) copy[i] = (wchar_t)text[i];
    pthread_mutex_lock(&thai_lock);
    int found = thai.find_breaks(thai.breaker, copy, positions, capacity);
    pthread_mutex_unlock(&thai_lock);
    free(copy);
    return found < 0 ? 0 : found;
}
