#!/usr/bin/env python3
# Sends one QMP command to QEMU and prints its answer, events skipped.
#
# usage: scripts/vm/qmp.py SOCKET JSON
#   SOCKET  QEMU's -qmp unix socket
#   JSON    the command, e.g. {"execute": "screendump", "arguments": {"filename": "a.ppm"}}
import json, socket, sys
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); f = s.makefile("rw")
f.readline()
for command in ({"execute": "qmp_capabilities"}, json.loads(sys.argv[2])):
    f.write(json.dumps(command) + "\n"); f.flush()
    while True:
        answer = json.loads(f.readline())
        if "event" not in answer: break
print(json.dumps(answer))
