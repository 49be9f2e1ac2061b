#!/usr/bin/env python3
# Prints the share of a PPM screendump's pixels brighter than 48 in any channel (a blank
# panel's dump is near 0).
#
# usage: scripts/vm/lit-share.py DUMP.ppm
import sys
d = open(sys.argv[1], "rb").read().split(b"\n", 3); w, h = map(int, d[1].split()); p = d[3]
print(f"{sum(1 for i in range(0, w * h * 3, 3) if max(p[i], p[i + 1], p[i + 2]) > 48) / (w * h):.4f}")
