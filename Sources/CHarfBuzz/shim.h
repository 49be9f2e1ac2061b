// HarfBuzz: shaping on the FreeType faces the renderer already loaded (hb-ft).
#include <hb.h>
#include <hb-ft.h>

// HB_TAG is a macro Swift cannot import: the tag of a four-letter OpenType name.
static inline hb_tag_t panel_hb_tag(char a, char b, char c, char d) { return HB_TAG(a, b, c, d); }
