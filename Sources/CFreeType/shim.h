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

#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

// Faces read with pread instead of FT_New_Face's mapping of the whole file. HarfBuzz reads a
// face's layout tables once (copying them), FreeType a glyph's outline once (the glyph is then
// cached): with the file mapped, every page it ever touched stayed in the kiosk's resident set
// (680 KB for DejaVu Sans and its bold face); read, the bytes pass through the page cache only.
static unsigned long panel_ft_read(FT_Stream stream, unsigned long offset, unsigned char *buffer, unsigned long count) {
    // A seek (count 0) succeeds inside the file; FreeType takes a non-zero result as an error.
    if (count == 0) return offset > stream->size ? 1 : 0;
    unsigned long done = 0;
    while (done < count) {
        ssize_t got = pread((int)stream->descriptor.value, buffer + done, count - done, (off_t)(offset + done));
        if (got <= 0) break;
        done += (unsigned long)got;
    }
    return done;
}

static void panel_ft_close(FT_Stream stream) {
    close((int)stream->descriptor.value);
    free(stream);
}

// FT_New_Face for a regular file at `path`, through pread.
static inline FT_Error panel_ft_open_face(FT_Library library, const char *path, FT_Long index, FT_Face *face) {
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return FT_Err_Cannot_Open_Resource;
    struct stat info;
    if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) { close(fd); return FT_Err_Cannot_Open_Resource; }
    FT_Stream stream = (FT_Stream)calloc(1, sizeof *stream);
    if (!stream) { close(fd); return FT_Err_Out_Of_Memory; }
    stream->size = (unsigned long)info.st_size;
    stream->descriptor.value = fd;
    stream->read = panel_ft_read;
    stream->close = panel_ft_close;
    FT_Open_Args args = {0};
    args.flags = FT_OPEN_STREAM;
    args.stream = stream;
    // On failure FreeType closes the stream (panel_ft_close frees it).
    return FT_Open_Face(library, &args, index, face);
}
