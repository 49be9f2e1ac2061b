#!/usr/bin/env python3
# Compares two PPM screendumps of the same size: prints the share of pixels that differ by
# more than 24 in a channel, e.g. 0.0012.
#
# usage: scripts/vm/compare.py A.ppm B.ppm
import sys
def load(p):
    d = open(p, "rb").read().split(b"\n", 3); w, h = map(int, d[1].split()); return w, h, d[3]
(w, h, a), (_, _, b) = load(sys.argv[1]), load(sys.argv[2])
different = sum(1 for i in range(0, w * h * 3, 3)
                if max(abs(a[i] - b[i]), abs(a[i + 1] - b[i + 1]), abs(a[i + 2] - b[i + 2])) > 24)
print(f"{different / (w * h):.4f}")
