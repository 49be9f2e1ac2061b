// Where lines may break: libunibreak (UAX #14) for every script, libthai's dictionary for Thai
// words, which UAX #14 leaves to a dictionary (class SA) and bookworm's libunibreak 1.1 does not
// break at all. Both are opened by dlopen at the first layout (panel_linebreak.c says why).
#ifndef PANEL_LINEBREAK_H
#define PANEL_LINEBREAK_H
#include <stddef.h>
#include <stdint.h>

// libunibreak's values after each code point (LINEBREAK_MUSTBREAK, _ALLOWBREAK, _NOBREAK),
// fixed by its API and repeated here so that its header is not needed to build.
#define PANEL_LINEBREAK_MUSTBREAK 0
#define PANEL_LINEBREAK_ALLOWBREAK 1
#define PANEL_LINEBREAK_NOBREAK 2

// The opportunity after each of `length` code points into `breaks`, the rules tailored for
// `language` (ISO 639, or NULL); -1 when libunibreak is missing (nothing is written then).
int panel_linebreaks_utf32(const uint32_t *text, size_t length, const char *language, char *breaks);

// Why libunibreak could not be loaded, or NULL when it is there.
const char *panel_linebreaks_error(void);

// Word boundaries inside `length` code points of Thai text by libthai's dictionary
// (th_brk_wc_find_breaks): each position p written to `positions` (at most `capacity` of them)
// means a line may break before code point p. Returns how many were written, or -1 when
// libthai (libthai0 and its dictionary, libthai-data) is missing.
int panel_thai_breaks(const uint32_t *text, size_t length, int *positions, size_t capacity);

// Why libthai could not be loaded, or NULL when it is there.
const char *panel_thai_error(void);
#endif
