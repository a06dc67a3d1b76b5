#!/usr/bin/env python3
"""The largest documents gpucheck's caps allow, timed: wall time and peak RSS of each command on them.

usage: bench/documents/largest.py GPUCHECK WORKDIR [--mib N] [--scale S]

Writes into WORKDIR a run report of about N MiB (default 250: the 256 MiB cap of one document, less a
margin), an inventory whose Python has enough distributions (5 Requires-Dist each) to fill N MiB, and a
Google Benchmark document of as many 9-repetition benchmarks; then runs `report` in every format (into a
file), `doctor --from` and `compare` on them, and `report` of a document one byte over the cap (refused
from its size). Each line: command, document size, CPU and wall seconds, peak RSS of that process (wait4), and
the RSS as a multiple of the document's size. --scale S also runs each at 1/S of the size first, so a
line shows how time and memory grow (linear: S times the size, about S times each).
Figures: docs/reliability.md, "Largest documents".
"""
import json
import os
import resource
import subprocess
import sys
import time

MIB = 1 << 20


def finding(i):
    return {"id": f"probe.synthetic_{i}", "status": ["pass", "warn", "fail", "skip"][i % 4],
            "title": f"synthetic check {i} <b>&amp;</b> `x`",
            "summary": f"what check {i} found: 12.5 GB/s against 25.0 GB/s expected, on device {i % 8}",
            "evidence": [{"what": "device", "value": f"GPU-{i:08x}-1111-2222-3333-444455556666", "source": "nvml"},
                         {"what": "stderr_tail", "value": "line one\nline two\nNCCL WARN something", "source": ""}],
            "explanation": "a sentence of why this matters to the run",
            "fixes": [{"rank": 1, "summary": "reinstall", "commands": [f"pip install 'pkg{i}==1.0'"], "cost": ""}],
            "references": ["https://example.invalid/issue/1"],
            "metrics": [{"name": "bandwidth", "value": 12.5 + i % 7, "unit": "GB/s", "better": "higher"}],
            "devices": [], "duration_s": 0.5, "details": None}


def write_chunks(path, head, items, tail, limit):
    """Writes head, then items (strings, comma-separated) until `limit` bytes, then tail; returns the count."""
    n = 0
    with open(path, "w") as f:
        f.write(head)
        size = len(head) + len(tail)
        for item in items:
            if size + len(item) + 1 > limit:
                break
            f.write(("," if n else "") + item)
            size += len(item) + 1
            n += 1
        f.write(tail)
    return n


def report_document(path, limit, template):
    head_doc = dict(template)
    head_doc["sections"] = "@@"
    head, tail = json.dumps(head_doc).split('"@@"')
    head += '[{"name": "probes", "findings": ['
    tail = "]}]" + tail
    return write_chunks(path, head, (json.dumps(finding(i)) for i in range(10**9)), tail, limit)


def inventory_document(path, limit):
    def dist(i):
        req = [f"pkg{(i + k * 7) % 1000003}>=0.1" for k in range(1, 6)]
        return json.dumps({"name": f"pkg{i}", "version": "1.0", "requires_dist": req,
                           "location": "/venv/lib/python3.11/site-packages"})
    head = ('{"schema_version": "2", "pythons": [{"interpreter": "/venv/bin/python", "version": "3.11.2", '
            '"prefix": "/venv", "distributions": [')
    return write_chunks(path, head, (dist(i) for i in range(10**9)), "]}]}", limit)


def benchmark_document(path, limit):
    def rows(i):
        name = f"BM_Synthetic/{i}"
        return ",".join(json.dumps({"name": name, "run_name": name, "run_type": "iteration", "repetitions": 9,
                                    "repetition_index": r, "iterations": 1000, "real_time": 100.0 + r,
                                    "cpu_time": 100.0 + r, "time_unit": "ns"}) for r in range(9))
    head = ('{"context": {"date": "2026-12-01T10:00:00+00:00", "gpucheck": {"key": "nogpu-test-000000000000", '
            '"cpu": "test"}}, "benchmarks": [')
    return write_chunks(path, head, (rows(i) for i in range(10**9)), "]}", limit)


def measure(args):
    t0 = time.monotonic()
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.monotonic() - t0
    code = os.waitstatus_to_exitcode(status)
    cpu = usage.ru_utime + usage.ru_stime
    return wall, cpu, usage.ru_maxrss * 1024, code, err.decode(errors="replace").strip().splitlines()[-1:] or [""]


def line(what, doc, wall, cpu, rss, code, note=""):
    """CPU seconds are the figure to compare on a shared machine: wall time includes waiting for a core."""
    size = os.path.getsize(doc)
    print(f"{what:28} {size / MIB:7.1f} MiB {cpu:8.2f} s CPU {wall:8.2f} s wall {rss / MIB:7.0f} MiB RSS "
          f"({rss / size:4.1f}x) exit {code} {note}", flush=True)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    gpucheck, work = sys.argv[1], sys.argv[2]
    mib = int(sys.argv[sys.argv.index("--mib") + 1]) if "--mib" in sys.argv else 250
    scale = int(sys.argv[sys.argv.index("--scale") + 1]) if "--scale" in sys.argv else 0
    os.makedirs(work, exist_ok=True)
    template_dir = os.path.join(work, "template")
    subprocess.run([gpucheck, "run", "--only", "host.info", "--no-inventory", "--report-dir", template_dir,
                   ], stdout=subprocess.DEVNULL, check=False)
    template = json.load(open(os.path.join(template_dir, sorted(os.listdir(template_dir))[0])))
    for limit in ([mib * MIB // scale] if scale else []) + [mib * MIB]:
        tag = f"{limit // MIB}m"
        rep, inv, bm = (os.path.join(work, f"{k}-{tag}.json") for k in ("report", "inventory", "bench"))
        n = report_document(rep, limit, template)
        print(f"-- report of {n:,} findings, inventory of {inventory_document(inv, limit):,} distributions, "
              f"{benchmark_document(bm, limit):,} benchmarks x 9", flush=True)
        for fmt in ("json", "text", "markdown", "junit", "prom", "html"):
            out = os.path.join(work, f"out-{tag}.{fmt}")
            line(f"report --format {fmt}", rep, *measure([gpucheck, "report", rep, "--format", fmt, "--out", out]))
            os.unlink(out)
        line("doctor --json --from", inv, *measure([gpucheck, "doctor", "--json", "--from", inv]))
        line("compare --json", bm, *measure([gpucheck, "compare", "--json", bm, bm]))
    over = os.path.join(work, "over-cap.json")
    with open(over, "wb") as f:
        f.truncate(256 * MIB + 1)
    wall, cpu, rss, code, err = measure([gpucheck, "report", over])
    line("report (256 MiB + 1 byte)", over, wall, cpu, rss, code, err[0][:60])


if __name__ == "__main__":
    main()
