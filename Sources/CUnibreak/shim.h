// libunibreak: line break opportunities by UAX #14 (LINEBREAK_MUSTBREAK, _ALLOWBREAK,
// _NOBREAK after each code point).
//
// Opened by dlopen at the first layout, under any of the sonames Debian has shipped it as:
// bookworm's 1.1 is libunibreak.so.1 (in /usr/lib), trixie's 6.1 is libunibreak.so.6, and both
// keep the calls used here. Linking would tie one build to one of them (a binary built against
// bookworm would not start on trixie). The header is only needed for nothing: its constants are
// fixed by the library's API and repeated here.
#include <stddef.h>
#include <stdint.h>
#include <dlfcn.h>
#include <pthread.h>

#define PANEL_LINEBREAK_MUSTBREAK 0
#define PANEL_LINEBREAK_ALLOWBREAK 1
#define PANEL_LINEBREAK_NOBREAK 2

struct panel_unibreak_api {
    const char *error;  // why loading failed, or NULL
    void (*set_linebreaks_utf32)(const uint32_t *, size_t, const char *, char *);
};

static inline struct panel_unibreak_api *panel_unibreak_storage(void) {
    static struct panel_unibreak_api api;
    return &api;
}

static inline void panel_unibreak_load_once(void) {
    struct panel_unibreak_api *api = panel_unibreak_storage();
    static const char *const names[] = {"libunibreak.so.6", "libunibreak.so.5", "libunibreak.so.4",
                                        "libunibreak.so.3", "libunibreak.so.1", "libunibreak.so"};
    void *library = NULL;
    for (size_t i = 0; i < sizeof names / sizeof names[0] && !library; i++) library = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        api->error = "libunibreak is not installed (libunibreak1 on bookworm, libunibreak6 on trixie)";
        return;
    }
    // The second-level index of the break classes; newer versions build it themselves.
    void (*init)(void) = (void (*)(void))dlsym(library, "init_linebreak");
    if (init) init();
    api->set_linebreaks_utf32 = (void (*)(const uint32_t *, size_t, const char *, char *))dlsym(library, "set_linebreaks_utf32");
    if (!api->set_linebreaks_utf32) api->error = "libunibreak has no set_linebreaks_utf32";
}

// NULL when the library is there, else why not (then no break opportunities are known).
static inline const char *panel_unibreak_load(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, panel_unibreak_load_once);
    return panel_unibreak_storage()->error;
}

// The opportunity after each of `length` code points into `breaks`; -1 when the library is missing.
static inline int panel_linebreaks_utf32(const uint32_t *text, size_t length, const char *language, char *breaks) {
    if (panel_unibreak_load()) return -1;
    panel_unibreak_storage()->set_linebreaks_utf32(text, length, language, breaks);
    return 0;
}
