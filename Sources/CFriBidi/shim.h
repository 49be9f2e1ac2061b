// FriBidi: the Unicode bidirectional algorithm (UAX #9). The paragraph directions are macros
// built from bit masks, which Swift cannot import, so the two calls that take them are here.
#include <stddef.h>
#include <fribidi.h>

// Embedding levels of a paragraph of `length` code points, brackets paired (rule N0). The
// direction is the first strong character's, else RTL when `rtl_when_neutral` (the locale's).
// `types` and `levels` hold `length` entries each. Returns 1 if the paragraph is RTL, 0 if LTR,
// -1 when FriBidi fails (out of memory).
static inline int panel_bidi_levels(const FriBidiChar *text, FriBidiStrIndex length, int rtl_when_neutral,
                                    FriBidiCharType *types, FriBidiBracketType *brackets, FriBidiLevel *levels) {
    fribidi_get_bidi_types(text, length, types);
    fribidi_get_bracket_types(text, length, types, brackets);
    FriBidiParType direction = rtl_when_neutral ? FRIBIDI_PAR_WRTL : FRIBIDI_PAR_WLTR;
    if (fribidi_get_par_embedding_levels_ex(types, brackets, length, &direction, levels) == 0) return -1;
    return FRIBIDI_IS_RTL(direction) ? 1 : 0;
}

// Reorders one line (`start`, `length` code points of the paragraph) for display: rule L1 resets
// the levels of its trailing white space, L2 reverses the runs. `map` holds the paragraph's
// logical indices and comes back in visual order for the line's part. Marks are not moved
// (HarfBuzz keeps them with their base) and nothing is mirrored (HarfBuzz mirrors RTL glyphs).
static inline int panel_bidi_reorder_line(const FriBidiCharType *types, FriBidiStrIndex start, FriBidiStrIndex length,
                                          int paragraph_rtl, FriBidiLevel *levels, FriBidiStrIndex *map) {
    FriBidiParType direction = paragraph_rtl ? FRIBIDI_PAR_RTL : FRIBIDI_PAR_LTR;
    return fribidi_reorder_line(0, types, length, start, direction, levels, NULL, map) == 0 ? -1 : 0;
}

// Whether a bidi type is a strong right-to-left one (R or AL).
static inline int panel_bidi_is_rtl_type(FriBidiCharType type) { return FRIBIDI_IS_LETTER(type) && FRIBIDI_IS_RTL(type); }
