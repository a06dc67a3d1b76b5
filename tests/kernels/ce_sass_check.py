#!/usr/bin/env python3
"""The cross-entropy kernels' memory instructions for sm_90, read from nvcc's own output (no GPU needed).

Compiles kernels/cross_entropy/ce_cuda.cu for sm_90 as PTX and as a cubin (ptxas -v), disassembles the cubin
(cuobjdump -sass or nvdisasm), and checks per kernel (chunk statistics, softmax, backward; fp16/bf16/fp32),
with K = 16-byte packs per thread (2 for 16-bit elements, 4 for fp32):
  - PTX: exactly K 16-byte global loads (ld.global[.nc].v4), and K 16-byte global stores (st.global[.wb].v4)
    in the softmax and the backward (0 in the statistics pass, which writes only its chunk's stats);
  - SASS: the same counts as LDG.E.128 / STG.E.128, and the K loads issued back to back: no instruction
    between the first and the K-th load touches a register an earlier one of them loads (a load in flight
    is waited for only where its register is used, so this is what keeps K loads in flight per thread);
  - no local memory: no ld.local/st.local in the PTX, no LDL/STL in the SASS, ptxas -v reports 0 bytes of
    stack frame and of spill stores/loads for every kernel.
--ptx-only leaves out the SASS. The toolkit may come without a disassembler (the PyPI-built one here has
none): --nvdisasm-venv DIR then uses NVIDIA's nvdisasm wheel, installed into DIR by pip when absent.
Exit 0 when all hold, 1 with the failures.
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

NVDISASM_WHEEL = "nvidia-cuda-nvdisasm==13.2.51"  # the oldest on PyPI; reads CUDA 13.0's sm_90 cubins
KERNELS = ("ce_chunk_stats", "ce_chunk_softmax", "ce_backward")
DTYPES = {"Fp16Storage": 2, "Bf16Storage": 2, "Fp32Storage": 4}  # 16-byte packs per thread
STORES = {"ce_chunk_stats": 0, "ce_chunk_softmax": 1, "ce_backward": 1}  # K stores, or none


def kernel_key(mangled):
    """('ce_chunk_softmax', 'Fp16Storage') for a mangled kernel name, None for anything else."""
    for k in KERNELS:
        if re.search(r"\d%s(I|E)" % k, mangled):
            for d in DTYPES:
                if d in mangled:
                    return k, d
    return None


def split_functions(text, start_re):
    """{mangled name: [lines]} for each function whose first line matches start_re (group 1: the name)."""
    out, cur = {}, None
    for line in text.splitlines():
        m = re.match(start_re, line)
        if m:
            cur = out.setdefault(m.group(1), [])
            continue
        if cur is not None:
            cur.append(line)
    return out


def sass_registers(operand_text):
    """General registers an instruction names: R12 is one, R12.64 two (a 64-bit pair); RZ none."""
    regs = set()
    for m in re.finditer(r"\bR(\d+)(\.64)?\b", operand_text):
        n = int(m.group(1))
        regs.update((n, n + 1) if m.group(2) else (n,))
    return regs


def check_sass_loads_in_flight(lines, k):
    """'' when the first k LDG.E.128 of the function are issued before any of their registers is touched."""
    loaded, seen = set(), 0
    for line in lines:
        m = re.search(r"/\*[0-9a-f]+\*/\s+(@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)\s*(.*?);", line)
        if not m:
            continue
        op, operands = m.group(2), m.group(3)
        if op.startswith("LDG.E.128"):
            dest = re.match(r"\s*R(\d+)", operands)
            base = int(dest.group(1))
            addr = operands[operands.index(","):]
            if sass_registers(addr) & loaded:
                return "load %d's address uses a register an earlier 16-byte load writes" % (seen + 1)
            loaded.update(range(base, base + 4))
            seen += 1
            if seen == k:
                return ""
        elif seen and sass_registers(operands) & loaded:
            return "'%s %s' touches a loaded register after %d of %d loads" % (op, operands.strip(), seen, k)
    return "only %d of %d 16-byte loads found" % (seen, k)


def run(cmd):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        sys.exit("ce_sass_check: %s failed (%d):\n%s" % (" ".join(cmd), r.returncode, r.stdout))
    return r.stdout


def disassemble(cubin, disassembler):
    name = os.path.basename(disassembler)
    if name.startswith("cuobjdump"):
        return run([disassembler, "-sass", cubin])
    return run([disassembler, "-c", cubin])


def nvdisasm_from_wheel(venv):
    """nvdisasm from NVIDIA's wheel in venv; installed there first when it is not (into a temporary venv
    renamed into place, so a concurrent run never sees half an install; only the binary is used)."""
    venv = os.path.expanduser(venv)
    pattern = os.path.join("lib", "python*", "site-packages", "nvidia", "cu13", "bin", "nvdisasm")
    found = glob.glob(os.path.join(venv, pattern))
    if not found:
        tmp = "%s.tmp-%d" % (venv, os.getpid())
        run([sys.executable, "-m", "venv", tmp])
        run([os.path.join(tmp, "bin", "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
             NVDISASM_WHEEL])
        try:
            os.rename(tmp, venv)
        except OSError:  # another run installed it first
            shutil.rmtree(tmp, ignore_errors=True)
        found = glob.glob(os.path.join(venv, pattern))
    if not found:
        sys.exit("ce_sass_check: %s installed no nvidia/cu13/bin/nvdisasm in %s" % (NVDISASM_WHEEL, venv))
    return found[0]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--nvcc", required=True)
    ap.add_argument("--source-root", required=True, help="the repository root")
    ap.add_argument("--disassembler", help="cuobjdump or nvdisasm (SASS checks)")
    ap.add_argument("--nvdisasm-venv", help="a venv for NVIDIA's nvdisasm wheel (SASS checks)")
    ap.add_argument("--ptx-only", action="store_true")
    a = ap.parse_args()
    if a.nvdisasm_venv and not a.disassembler:
        a.disassembler = nvdisasm_from_wheel(a.nvdisasm_venv)
    if not a.ptx_only and not a.disassembler:
        ap.error("--disassembler, --nvdisasm-venv or --ptx-only")
    src = os.path.join(a.source_root, "kernels/cross_entropy/ce_cuda.cu")
    flags = ["-std=c++17", "-O3", "-arch=sm_90", "-I", os.path.join(a.source_root, "kernels")]
    failures, counted = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        ptx_file, cubin = os.path.join(tmp, "ce.ptx"), os.path.join(tmp, "ce.cubin")
        run([a.nvcc, *flags, "-ptx", src, "-o", ptx_file])
        ptxas_log = run([a.nvcc, *flags, "-cubin", "-Xptxas", "-v", src, "-o", cubin])
        ptx = split_functions(open(ptx_file).read(), r"^\.(?:visible |weak )?\.?entry (\S+)\(")
        sass = {}
        if not a.ptx_only:
            sass = split_functions(disassemble(cubin, a.disassembler), r"^\s*\.text\.(\S+):\s*$")

    # ptxas -v: "Function properties for <name>", then its stack/spill line.
    reported = 0
    for m in re.finditer(r"Function properties for (\S+)\s*\n\s*(\d+) bytes stack frame, (\d+) bytes spill stores, "
                         r"(\d+) bytes spill loads", ptxas_log):
        reported += bool(kernel_key(m.group(1)))
        if kernel_key(m.group(1)) and any(int(m.group(i)) for i in (2, 3, 4)):
            failures.append("%s: ptxas: %s bytes stack, %s spill stores, %s spill loads" % (
                kernel_key(m.group(1)), m.group(2), m.group(3), m.group(4)))

    if reported != len(KERNELS) * len(DTYPES):
        failures.append("ptxas -v reported stack and spills for %d of the %d kernels" % (reported, len(KERNELS) * len(DTYPES)))

    for mangled, lines in sorted(ptx.items()):
        key = kernel_key(mangled)
        if not key:
            continue
        counted += 1
        kname, dtype = key
        k = DTYPES[dtype]
        body = "\n".join(lines)
        loads = len(re.findall(r"\bld\.global(?:\.nc)?\.v4\.", body))
        stores = len(re.findall(r"\bst\.global(?:\.wb)?\.v4\.", body))
        local = len(re.findall(r"\b(?:ld|st)\.local\b|\.local\s", body))
        want_st = k * STORES[kname]
        line = "%-17s %-12s PTX  ld.v4 %d  st.v4 %d  local %d" % (kname, dtype, loads, stores, local)
        if loads != k or stores != want_st or local:
            failures.append("%s (want ld.v4 %d, st.v4 %d, local 0)" % (line, k, want_st))
        print(line)
        if a.ptx_only:
            continue
        s_lines = sass.get(mangled)
        if s_lines is None:
            failures.append("%s %s: not in the disassembly" % key)
            continue
        s_body = "\n".join(s_lines)
        ldg = len(re.findall(r"\bLDG\.E\.128\b", s_body))
        stg = len(re.findall(r"\bSTG\.E\.128\b", s_body))
        lcl = len(re.findall(r"\b(?:LDL|STL)\b", s_body))
        order = check_sass_loads_in_flight(s_lines, k)
        line = "%-17s %-12s SASS LDG.E.128 %d  STG.E.128 %d  LDL/STL %d  %s" % (
            kname, dtype, ldg, stg, lcl, "loads in flight together" if not order else order)
        if ldg != k or stg != want_st or lcl or order:
            failures.append(line)
        print(line)
    if counted != len(KERNELS) * len(DTYPES):
        failures.append("found %d of the %d kernels in the PTX" % (counted, len(KERNELS) * len(DTYPES)))
    for f in failures:
        print("FAIL: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
