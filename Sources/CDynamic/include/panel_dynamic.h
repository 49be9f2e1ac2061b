// Opening a library the program loads at its first use instead of linking it (libcurl, SDL2,
// libmosquitto): the one call their C targets (CCurl, CWindow, CMosquitto) share.
#ifndef PANEL_DYNAMIC_H
#define PANEL_DYNAMIC_H
#include <dlfcn.h>

// Opens `soname` with its symbols kept local (two libraries' equal names do not meet); NULL
// with `*error` set to why not (dlerror's text: the file is missing, or a library it needs).
void *panel_dynamic_open(const char *soname, const char **error);
#endif
