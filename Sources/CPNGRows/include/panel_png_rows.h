// A PNG decoded row by row and reduced as it is read, so that a large picture shown small never
// needs its whole image in memory (libpng's simplified API fills a buffer of the full size).
#ifndef PANEL_PNG_ROWS_H
#define PANEL_PNG_ROWS_H
#include <stddef.h>
#include <stdint.h>

// The size `data` declares: 0, or -1 with `error` filled (not a PNG, a bad header). With
// `exif_length`, also the eXIf chunk before the image data as libpng reads it
// (png_get_eXIf_1): up to `exif_capacity` of its bytes copied to `exif`, their count there (0:
// none; libpng drops a chunk whose CRC fails).
int panel_png_rows_size(const uint8_t *data, size_t size, uint32_t *width, uint32_t *height, int *interlaced,
                        uint8_t *exif, size_t exif_capacity, size_t *exif_length, char *error, size_t error_size);

// Decodes `data` into `out` (premultiplied BGRA words, `out_width` x `out_height`, `out_stride`
// bytes a row), each output pixel the average of the `factor` x `factor` block of source
// pixels it covers (the last blocks of a row or column hold what is left). out_width must be
// ceil(width / factor), out_height ceil(height / factor). Memory beyond `out`: one source row,
// and one output row of sums (a non-interlaced picture) or the whole output's sums (an
// interlaced one, whose passes each touch every row). 0, or -1 with `error` filled.
int panel_png_rows_reduce(const uint8_t *data, size_t size, uint32_t factor, uint32_t *out, uint32_t out_width,
                          uint32_t out_height, size_t out_stride, char *error, size_t error_size);

#endif
