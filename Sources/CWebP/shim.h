// libwebp's decoder: WebPGetFeatures reads the size first; the advanced API decodes into a
// buffer of ours, premultiplied BGRA (MODE_bgrA), the renderer's pixel order.
#include <stddef.h>
#include <webp/decode.h>
// The container's chunks (EXIF) through libwebpdemux, not a RIFF walk of our own.
#include <webp/demux.h>
// The encoder (the same library) writes the pictures the tests decode.
#include <webp/encode.h>
