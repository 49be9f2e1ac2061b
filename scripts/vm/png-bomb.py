#!/usr/bin/env python3
# Writes to stdout a 65-byte PNG that declares 100000x100000 pixels (docs/reliability.md,
# "Unattended"): the kiosk must refuse it from its header, before allocating anything.
#
# usage: scripts/vm/png-bomb.py > bomb.png
import struct, sys, zlib
def chunk(t, d): return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff)
sys.stdout.buffer.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 100000, 100000, 8, 6, 0, 0, 0))
    + chunk(b"IDAT", bytes([0x78, 0x9c, 3, 0, 0, 0, 0, 1])) + chunk(b"IEND", b""))
