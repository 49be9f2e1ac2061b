// FreeType: glyph rasterisation.
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_SYNTHESIS_H
#include FT_BITMAP_H

// FT_LOAD_TARGET_LIGHT is a function-like macro: light hinting (vertical only) keeps glyph
// shapes at the unhinted advances HarfBuzz positions them by.
static const int32_t panel_ft_load_light = FT_LOAD_TARGET_LIGHT;
// Colour bitmaps (emoji strikes) as BGRA.
static const int32_t panel_ft_load_color = FT_LOAD_COLOR;
