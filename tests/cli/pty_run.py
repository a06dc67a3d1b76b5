#!/usr/bin/env python3
"""pty_run.py OUT CMD...: runs CMD with its stderr on a pseudo-terminal (stdout stays a pipe, as in
`gpucheck run > file` typed at a terminal); writes what the terminal received to OUT."""
import os
import pty
import subprocess
import sys

master, slave = pty.openpty()
child = subprocess.Popen(sys.argv[2:], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=slave)
os.close(slave)
received = b""
while True:
    try:
        chunk = os.read(master, 65536)
    except OSError:  # EIO: the child closed the terminal
        break
    if not chunk:
        break
    received += chunk
sys.exit_code = child.wait()
with open(sys.argv[1], "wb") as out:
    out.write(received)
sys.exit(child.returncode if child.returncode >= 0 else 128 - child.returncode)
