// fontconfig: finding font files by family, weight and the characters they cover.
#include <stddef.h>
#include <fontconfig/fontconfig.h>

// FC_FAMILY and friends are string macros Swift imports; the weight constants are plain ints.
static const int panel_fc_weight_regular = FC_WEIGHT_REGULAR;
static const int panel_fc_weight_bold = FC_WEIGHT_BOLD;

// FcChar8 strings and the FC_* property names are awkward from Swift: small typed helpers.
static inline FcPattern *panel_fc_pattern(const char *family, int weight) {
    FcPattern *pattern = FcPatternCreate();
    if (!pattern) return NULL;
    FcPatternAddString(pattern, FC_FAMILY, (const FcChar8 *)family);
    FcPatternAddInteger(pattern, FC_WEIGHT, weight);
    return pattern;
}

static inline const char *panel_fc_file(FcPattern *pattern) {
    FcChar8 *file = NULL;
    if (FcPatternGetString(pattern, FC_FILE, 0, &file) != FcResultMatch) return NULL;
    return (const char *)file;
}

static inline int panel_fc_index(FcPattern *pattern) {
    int index = 0;
    FcPatternGetInteger(pattern, FC_INDEX, 0, &index);
    return index;
}

// The pattern of `family` at `weight` that must also cover `scalar`: fontconfig's match for it
// is the best installed face that draws the character (the fallback for a run of text).
// With `color`, a colour face (emoji) is asked for; with `language` (BCP 47 or fontconfig's
// "zh-tw" form, or NULL), a face made for that language is preferred (a Japanese face for kanji
// in Japanese text where one is installed).
static inline FcPattern *panel_fc_pattern_covering(const char *family, int weight, FcChar32 scalar, int color,
                                                   const char *language) {
    FcPattern *pattern = panel_fc_pattern(family, weight);
    if (!pattern) return NULL;
    if (color) FcPatternAddBool(pattern, FC_COLOR, FcTrue);
    if (language && *language) {
        FcChar8 *normal = FcLangNormalize((const FcChar8 *)language);
        if (normal) {
            FcPatternAddString(pattern, FC_LANG, normal);
            FcStrFree(normal);
        }
    }
    FcCharSet *set = FcCharSetCreate();
    if (!set) { FcPatternDestroy(pattern); return NULL; }
    FcCharSetAddChar(set, scalar);
    FcPatternAddCharSet(pattern, FC_CHARSET, set);
    FcCharSetDestroy(set);
    return pattern;
}
