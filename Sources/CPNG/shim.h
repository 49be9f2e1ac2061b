// libpng's simplified API (png_image_*): no setjmp/longjmp, which Swift cannot use.
#include <png.h>

// PNG_FORMAT_* are composed macros Swift cannot import. BGRA is the byte order of
// little-endian A8R8G8B8 pixels, the renderer's surfaces.
static const png_uint_32 panel_png_format_bgra = PNG_FORMAT_BGRA;
static const png_uint_32 panel_png_image_version = PNG_IMAGE_VERSION;

// zlib's crc32, for the chunks of animated PNGs (libpng has no APNG writer).
#include <zlib.h>
