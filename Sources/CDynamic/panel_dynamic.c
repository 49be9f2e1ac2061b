// A library opened at its first use (include/panel_dynamic.h).
#include "panel_dynamic.h"

void *panel_dynamic_open(const char *soname, const char **error) {
    void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        *error = dlerror();
        if (!*error) *error = "a library the program loads cannot be loaded";
    }
    return library;
}
