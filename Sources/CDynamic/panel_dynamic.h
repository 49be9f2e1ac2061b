// Opening a library the program loads at its first use instead of linking it (libcurl, SDL2,
// libmosquitto): included by their shims (CCurl, CWindow, CMosquitto), not a module of its own.
#ifndef PANEL_DYNAMIC_H
#define PANEL_DYNAMIC_H
#include <dlfcn.h>

// Opens `soname` with its symbols kept local (two libraries' equal names do not meet); NULL
// with `*error` set to why not (dlerror's text: the file is missing, or a library it needs).
static inline void *panel_dynamic_open(const char *soname, const char **error) {
    void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        *error = dlerror();
        if (!*error) *error = "a library the program loads cannot be loaded";
    }
    return library;
}
#endif
