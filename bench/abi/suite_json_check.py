#!/usr/bin/env python3
"""`gpucheck bench --suite abi` gives a verdict: bench_abi keeps stdout one JSON document (its library set
went to stdout first, and the suite ended in NO VERDICT, "its output is not valid JSON (byte 1)",
reliability-3 item 12). usage: suite_json_check.py GPUCHECK (GPUCHECK_BENCH_DIR: where bench_abi is)."""
import json
import os
import subprocess
import sys
import tempfile

gpucheck = sys.argv[1]
with tempfile.TemporaryDirectory() as d:
    out = os.path.join(d, "bench.json")
    r = subprocess.run([gpucheck, "bench", "--suite", "abi", "--filter", "BM_GpucheckAbiInProcess", "--repetitions", "1",
                        "--no-python", "--out", out], capture_output=True, text=True, timeout=900)
    print(r.stdout[-2000:], r.stderr[-2000:])
    if r.returncode != 0:
        sys.exit(f"FAIL: gpucheck bench --suite abi exited {r.returncode}, want 0")
    doc = json.load(open(out))
    names = [b["name"] for b in doc.get("benchmarks", [])]
    if not any(n.startswith("BM_GpucheckAbiInProcess") for n in names):
        sys.exit(f"FAIL: no BM_GpucheckAbiInProcess in the document: {names}")
print("ok")
