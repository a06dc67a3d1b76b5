#!/usr/bin/env python3
"""Writes a mutant of a real kernel source from a .mutant file (build step of tests/hostsim).

A .mutant file is: comment lines (#), `file: <path from the repository root>`, `expect: <regex>`, then
`--- old` + the exact text to replace, `+++ new` + its replacement. The old text must occur exactly once in
the current source: when the kernel changes so that it no longer does, the build fails here and the mutant
must be updated to follow the kernel.
"""
import sys


def parse(path):
    meta, old, new, cur = {}, [], [], None
    for line in open(path, encoding="utf-8").read().split("\n"):
        if cur is None:
            if line.startswith("#") or not line.strip():
                continue
            if line == "--- old":
                cur = old
                continue
            key, _, value = line.partition(":")
            meta[key.strip()] = value.strip()
        elif line == "+++ new" and cur is old:
            cur = new
        else:
            cur.append(line)
    while new and new[-1] == "":
        new.pop()
    while old and old[-1] == "":
        old.pop()
    return meta, "\n".join(old), "\n".join(new)


def main():
    mutant, root, out = sys.argv[1:4]
    meta, old, new = parse(mutant)
    src = open(f"{root}/{meta['file']}", encoding="utf-8").read()
    n = src.count(old)
    if n != 1 or not old:
        sys.stderr.write(f"{mutant}: the patch no longer applies: its old text occurs {n} times in {meta['file']} "
                         "(exactly once needed); update the mutant to follow the kernel\n")
        return 1
    open(out, "w", encoding="utf-8").write(src.replace(old, new))
    return 0


if __name__ == "__main__":
    sys.exit(main())
