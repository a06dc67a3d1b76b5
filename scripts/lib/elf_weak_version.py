#!/usr/bin/env python3
"""Marks one version requirement of an ELF64 file weak (VER_FLG_WEAK in its .gnu.version_r entry), so the
loader accepts a libstdc++ that lacks that version node instead of refusing to load. Used by scripts/bundle
only for a version whose symbols have been re-bound to the default version (patchelf
--clear-symbol-version): nothing then needs the version itself. usage: elf_weak_version.py FILE VERSION
Exit 0 when marked (or already weak), 1 when the file has no such requirement, 2 on a malformed file."""
import struct
import sys

SHT_GNU_VERNEED = 0x6FFFFFFE
VER_FLG_WEAK = 0x2


def main(path, version):
    with open(path, "r+b") as f:
        data = bytearray(f.read())
        if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
            print(f"{path}: not a little-endian ELF64 file", file=sys.stderr)
            return 2
        shoff, = struct.unpack_from("<Q", data, 0x28)
        shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)
        sections = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
        found = False
        for sec in sections:
            if sec[1] != SHT_GNU_VERNEED:
                continue
            off, link, count = sec[4], sec[6], sec[7]
            strtab = sections[link][4]
            vn = off
            for _ in range(count):
                _, cnt, _, aux, nxt = struct.unpack_from("<HHIII", data, vn)
                a = vn + aux
                for _ in range(cnt):
                    _, flags, _, name, anext = struct.unpack_from("<IHHII", data, a)
                    end = data.index(b"\0", strtab + name)
                    if data[strtab + name:end].decode() == version:
                        struct.pack_into("<H", data, a + 4, flags | VER_FLG_WEAK)
                        found = True
                    a += anext
                    if not anext:
                        break
                vn += nxt
                if not nxt:
                    break
        if not found:
            print(f"{path}: no requirement of version {version}", file=sys.stderr)
            return 1
        f.seek(0)
        f.write(data)
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: elf_weak_version.py FILE VERSION")
    sys.exit(main(sys.argv[1], sys.argv[2]))
