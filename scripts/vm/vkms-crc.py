"""The CRC vkms gives a frame (its debugfs crtc-0/crc/data, source "auto") for a PPM picture:
vkms composes each row into 16-bit ARGB (a, r, g, b as little-endian u16, an 8-bit channel c
as c * 257, opaque XRGB8888 planes a = 0xffff) and runs the kernel's crc32_le over every row,
from 0 and without the final inversion (drivers/gpu/drm/vkms/vkms_composer.c, 6.1).

usage: python3 vkms-crc.py FILE.ppm   (prints 0x%08x)
"""
import struct
import sys
import zlib


def read_ppm(path):
    data = open(path, "rb").read()
    fields, i = [], 0
    while len(fields) < 4:
        while data[i:i + 1].isspace():
            i += 1
        if data[i:i + 1] == b"#":
            while data[i:i + 1] != b"\n":
                i += 1
            continue
        j = i
        while not data[j:j + 1].isspace():
            j += 1
        fields.append(data[i:j])
        i = j
    if fields[0] != b"P6" or fields[3] != b"255":
        raise SystemExit("vkms-crc: not an 8-bit P6 PPM")
    return int(fields[1]), int(fields[2]), data[i + 1:]


def main():
    width, height, rgb = read_ppm(sys.argv[1])
    out = bytearray(width * height * 8)
    struct.pack_into("<%dH" % (width * height * 4), out, 0,
                     *(v for p in range(width * height)
                       for v in (0xFFFF, rgb[3 * p] * 257, rgb[3 * p + 1] * 257, rgb[3 * p + 2] * 257)))
    # zlib's crc32 starts from ~value and inverts at the end: from ~0, inverted back, it is
    # crc32_le from 0.
    print("0x%08x" % (zlib.crc32(bytes(out), 0xFFFFFFFF) ^ 0xFFFFFFFF))


main()
