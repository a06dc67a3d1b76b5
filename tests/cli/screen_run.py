#!/usr/bin/env python3
"""screen_run.py OUT CMD...: runs CMD in a fresh tmux server on an 80x24 terminal, as a user at one would,
and writes every row the terminal showed (the scrollback included, a long line as the rows it took) to OUT,
then "[exit N]". tmux is from Debian (scripts/packages.txt)."""
import os
import shlex
import subprocess
import sys
import tempfile

out_path, cmd = sys.argv[1], sys.argv[2:]
sock = os.path.join(tempfile.mkdtemp(prefix="gpucheck-screen-"), "tmux")
tmux = ["tmux", "-S", sock, "-f", "/dev/null"]
shell_line = " ".join(shlex.quote(a) for a in cmd)
# The scrollback must hold the whole answer; the session is 80x24 whatever the caller's terminal.
script = f'{shell_line}; echo "[exit $?]"; tmux -S {shlex.quote(sock)} wait-for -S done; sleep 120'
subprocess.run(tmux + ["start-server", ";", "set-option", "-g", "history-limit", "50000", ";",
                       "new-session", "-d", "-x", "80", "-y", "24", "-s", "screen", script], check=True)
try:
    subprocess.run(tmux + ["wait-for", "done"], check=True, timeout=int(os.environ.get("SCREEN_TIMEOUT", "280")))
    rows = subprocess.run(tmux + ["capture-pane", "-p", "-t", "screen", "-S", "-", "-E", "-"],
                          check=True, capture_output=True, text=True).stdout
finally:
    subprocess.run(tmux + ["kill-server"], capture_output=True)
rows = rows.rstrip("\n").split("\n")
while rows and rows[-1].strip() == "":
    rows.pop()
with open(out_path, "w") as f:
    f.write("\n".join(rows) + "\n")
