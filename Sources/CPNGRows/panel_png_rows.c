// libpng's full reading API, row by row: it reports errors by longjmp, which Swift cannot
// catch, so the whole read lives here. The rows are converted to 8-bit BGRA by libpng's own
// transformations (palette, grey, 16 bits, tRNS), premultiplied, and summed into box blocks.
#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include "panel_png_rows.h"

struct reader {
    const uint8_t *data;
    size_t size, at;
    char *error;
    size_t error_size;
};

static void read_data(png_structp png, png_bytep out, size_t length) {
    struct reader *r = png_get_io_ptr(png);
    if (length > r->size - r->at) png_error(png, "the file ends early");
    memcpy(out, r->data + r->at, length);
    r->at += length;
}

static void on_error(png_structp png, png_const_charp message) {
    struct reader *r = png_get_error_ptr(png);
    if (r && r->error && r->error_size) {
        strncpy(r->error, message ? message : "libpng error", r->error_size - 1);
        r->error[r->error_size - 1] = 0;
    }
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp message) { (void)png; (void)message; }

static void fail(char *error, size_t error_size, const char *message) {
    if (error && error_size) {
        strncpy(error, message, error_size - 1);
        error[error_size - 1] = 0;
    }
}

// A reader over `data` with its header read; NULL (and `error`) when it cannot be had.
static png_structp open_reader(struct reader *r, png_infop *info) {
    if (r->size < 8 || png_sig_cmp(r->data, 0, 8) != 0) { fail(r->error, r->error_size, "not a PNG file"); return NULL; }
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, r, on_error, on_warning);
    if (!png) { fail(r->error, r->error_size, "libpng could not start"); return NULL; }
    *info = png_create_info_struct(png);
    if (!*info) { png_destroy_read_struct(&png, NULL, NULL); fail(r->error, r->error_size, "libpng could not start"); return NULL; }
    png_set_read_fn(png, r, read_data);
    // Ancillary chunks are bounded too: no text or profile may ask for more than 1 MiB.
    png_set_chunk_malloc_max(png, 1 << 20);
    return png;
}

int panel_png_rows_size(const uint8_t *data, size_t size, uint32_t *width, uint32_t *height, int *interlaced,
                        uint8_t *exif, size_t exif_capacity, size_t *exif_length, char *error, size_t error_size) {
    struct reader r = {data, size, 0, error, error_size};
    png_infop info = NULL;
    png_structp png = open_reader(&r, &info);
    if (!png) return -1;
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, NULL);
        return -1;
    }
    png_read_info(png, info);
    *width = png_get_image_width(png, info);
    *height = png_get_image_height(png, info);
    *interlaced = png_get_interlace_type(png, info) != PNG_INTERLACE_NONE;
    if (exif_length) {
        png_uint_32 length = 0;
        png_bytep found = NULL;
        *exif_length = 0;
        if ((png_get_eXIf_1(png, info, &length, &found) & PNG_INFO_eXIf) && found) {
            *exif_length = length < exif_capacity ? length : exif_capacity;
            memcpy(exif, found, *exif_length);
        }
    }
    png_destroy_read_struct(&png, &info, NULL);
    return 0;
}

// Adam7: where each pass's pixels start and how far apart they are.
static const uint32_t adam7_x0[7] = {0, 4, 0, 2, 0, 1, 0}, adam7_dx[7] = {8, 8, 4, 4, 2, 2, 1};
static const uint32_t adam7_y0[7] = {0, 0, 4, 0, 2, 0, 1}, adam7_dy[7] = {8, 8, 8, 4, 4, 2, 2};

// Adds source pixel `p` (straight BGRA bytes) to the sums at `sum` (B, G, R, A, count),
// premultiplied.
static inline void add(uint32_t *sum, const uint8_t *p) {
    uint32_t a = p[3];
    sum[0] += (p[0] * a + 127) / 255;
    sum[1] += (p[1] * a + 127) / 255;
    sum[2] += (p[2] * a + 127) / 255;
    sum[3] += a;
    sum[4] += 1;
}

// The averages of `width` sums into premultiplied BGRA words.
static void emit(const uint32_t *sums, uint32_t width, uint32_t *out) {
    for (uint32_t x = 0; x < width; x++) {
        const uint32_t *s = sums + 5 * (size_t)x;
        uint32_t n = s[4] ? s[4] : 1;
        uint32_t b = (s[0] + n / 2) / n, g = (s[1] + n / 2) / n, r = (s[2] + n / 2) / n, a = (s[3] + n / 2) / n;
        out[x] = (a << 24) | (r << 16) | (g << 8) | b;
    }
}

int panel_png_rows_reduce(const uint8_t *data, size_t size, uint32_t factor, uint32_t *out, uint32_t out_width,
                          uint32_t out_height, size_t out_stride, char *error, size_t error_size) {
    struct reader r = {data, size, 0, error, error_size};
    png_infop info = NULL;
    png_structp png = open_reader(&r, &info);
    if (!png) return -1;
    // volatile: changed between setjmp and a longjmp back to it.
    uint8_t *volatile row = NULL;
    uint32_t *volatile sums = NULL;
    if (setjmp(png_jmpbuf(png))) {
        free(row);
        free(sums);
        png_destroy_read_struct(&png, &info, NULL);
        return -1;
    }
    png_read_info(png, info);
    uint32_t width = png_get_image_width(png, info), height = png_get_image_height(png, info);
    if (factor == 0 || width == 0 || height == 0 || out_width != (width + factor - 1) / factor
        || out_height != (height + factor - 1) / factor) {
        png_error(png, "the reduced size does not match the picture");
    }
    // Every format to 8-bit BGRA, straight alpha.
    png_set_expand(png);
    png_set_strip_16(png);
    png_set_gray_to_rgb(png);
    png_set_filler(png, 0xff, PNG_FILLER_AFTER);
    png_set_bgr(png);
    int passes = png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)width * 4) png_error(png, "unexpected row layout");
    row = malloc((size_t)width * 4);
    // A plain picture needs one output row of sums at a time; an interlaced one, whose passes
    // each run down the whole picture, all of them.
    size_t sum_rows = passes > 1 ? out_height : 1;
    sums = calloc((size_t)out_width * sum_rows, 5 * sizeof(uint32_t));
    if (!row || !sums) png_error(png, "out of memory");
    if (passes == 1) {
        for (uint32_t y = 0; y < height; y++) {
            png_read_row(png, row, NULL);
            for (uint32_t x = 0; x < width; x++) add(sums + 5 * (size_t)(x / factor), row + 4 * (size_t)x);
            if ((y + 1) % factor == 0 || y + 1 == height) {
                emit(sums, out_width, (uint32_t *)((uint8_t *)out + (size_t)(y / factor) * out_stride));
                memset(sums, 0, (size_t)out_width * 5 * sizeof(uint32_t));
            }
        }
    } else {
        for (int pass = 0; pass < passes && pass < 7; pass++) {
            for (uint32_t y = 0; y < height; y++) {
                // libpng asks for every row of every pass (a row outside the pass is left as it is).
                png_read_row(png, row, NULL);
                if (y < adam7_y0[pass] || (y - adam7_y0[pass]) % adam7_dy[pass] != 0) continue;
                uint32_t *line = sums + 5 * (size_t)(y / factor) * out_width;
                for (uint32_t x = adam7_x0[pass]; x < width; x += adam7_dx[pass]) add(line + 5 * (size_t)(x / factor), row + 4 * (size_t)x);
            }
        }
        for (uint32_t y = 0; y < out_height; y++) {
            emit(sums + 5 * (size_t)y * out_width, out_width, (uint32_t *)((uint8_t *)out + (size_t)y * out_stride));
        }
    }
    png_read_end(png, NULL);
    free(row);
    free(sums);
    png_destroy_read_struct(&png, &info, NULL);
    return 0;
}

