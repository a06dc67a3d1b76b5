#!/usr/bin/env python3
"""gpu-check's summary table: every step (status, seconds, limit, why), every probe at quick and standard,
the kernel benchmarks against the same-run copy, and torch's fused ops. usage: gpu_check_summary.py OUTDIR
ELAPSED_S. Reads only what gpu-check wrote; a missing or unreadable file is reported, never guessed."""
import glob
import json
import os
import sys

out, elapsed = sys.argv[1], sys.argv[2]
W = 80


def clip(s, n):
    s = " ".join(str(s).split())
    return s if len(s) <= n else s[: n - 1] + "…"


def load(path):
    try:
        with open(path) as f:
            return json.load(f), None
    except Exception as e:  # absent, truncated by a timeout, not JSON
        return None, f"{os.path.basename(path)}: {type(e).__name__}: {e}"


lines = [f"gpu-check summary ({elapsed} s)", "=" * W, "steps"]
lines.append(f"  {'step':34} {'status':8} {'s':>6} {'limit':>5}  note")
for row in open(os.path.join(out, "steps.tsv")):
    name, status, rc, secs, limit, note = (row.rstrip("\n").split("\t") + [""] * 6)[:6]
    lines.append(f"  {clip(name, 34):34} {status:8} {secs:>6} {limit:>5}  {clip(note, W - 60) if status != 'ok' else ''}")

# Probes per level: the run's JSON on stdout.
for level in ("quick", "standard"):
    doc, err = load(os.path.join(out, f"run-{level}.out"))
    lines.append("")
    if err:
        lines.append(f"probes at {level}: no report ({err})")
        continue
    probes = next((s["findings"] for s in doc.get("sections", []) if s.get("name") == "probes"), [])
    summ = doc.get("summary", {})
    if isinstance(summ, dict):
        counts = ", ".join(f"{n} {k}" for k, n in summ.get("counts", {}).items() if n)
        summ = f"{summ.get('verdict', '?')} (exit {summ.get('exit_code', '?')}): {counts}"
    lines.append(f"probes at {level}: " + clip(summ, W - 14 - len(level)))
    for r in probes:
        lines.append(f"  {r.get('status', '?'):5} {clip(r.get('id', '?'), 22):22} {r.get('duration_s', 0):6.1f}s  "
                     f"{clip(r.get('summary', ''), W - 40)}")

# Sanitizer steps: the probe's own verdict plus the tool's exit status (steps table above).
# Collectives.
doc, err = load(os.path.join(out, "collectives.out"))
lines.append("")
lines.append("collectives.nccl (all local GPUs): " + (err or f"{doc.get('status')}: {clip(doc.get('summary', ''), W - 40)}"))
if doc:
    ev = {e["what"]: e["value"] for e in doc.get("evidence", [])}
    for k in ("nccl_library", "nccl_version", "nccl_header_version"):
        if k in ev:
            lines.append(f"  {k}: {clip(ev[k], W - 20)}")

# Benchmarks: ours vs the copy (and torch when the bench had a CUDA LibTorch), torch from the node's Python.
doc, err = load(os.path.join(out, "bench-kernels.out"))
lines.append("")
lines.append("kernel benchmarks (ratio_to_copy: same-run device copy time / ours; goals Adam 0.9, CE 0.8)")
if err:
    lines.append(f"  no results ({err})")
else:
    for b in doc.get("benchmarks", []):
        if b.get("error_occurred"):
            lines.append(f"  {clip(b['name'], 40):40} did not run: {clip(b.get('error_message', ''), W - 56)}")
        else:
            r = b.get("ratio_to_copy")
            lines.append(f"  {clip(b['name'], 40):40} {b.get('real_time', 0):9.1f} us  ratio_to_copy "
                         f"{r:.3f}" if r is not None else f"  {b['name']}")
doc, err = load(os.path.join(out, "torch-baseline.out"))
lines.append("")
if err:
    lines.append(f"torch's fused ops: no results ({err})")
elif "skipped" in doc:
    lines.append(f"torch's fused ops: skipped: {clip(doc['skipped'], W - 28)}")
else:
    lines.append(f"torch's fused ops (torch {doc.get('torch')}, {doc.get('device')})")
    for r in doc.get("results", []):
        lines.append(f"  {clip(r['name'], 44):44} {r['ms'] * 1e3:9.1f} us  ratio_to_copy {r['ratio_to_copy']:.3f}")

# Hardware acceptance, one row per GPU: device.memory, device.copy and cublas.gemm from the standard run,
# stress.gemm from its own step. A probe that did not run shows its status in the notes below the table.
def per_gpu(finding):
    out = {}
    for d in (finding or {}).get("devices", []):
        out[str(d.get("device"))] = ({m["name"]: m["value"] for m in d.get("metrics", [])}, d.get("status", "?"))
    return out


doc, err = load(os.path.join(out, "run-standard.out"))
std = {}
if doc:
    for r in next((s["findings"] for s in doc.get("sections", []) if s.get("name") == "probes"), []):
        std[r.get("id")] = r
stress_doc, stress_err = load(os.path.join(out, "stress-gemm.out"))
stress = next((r for s in (stress_doc or {}).get("sections", []) if s.get("name") == "probes"
               for r in s.get("findings", []) if r.get("id") == "stress.gemm"), None)
hw = {"device.memory": std.get("device.memory"), "device.copy": std.get("device.copy"),
      "cublas.gemm": std.get("cublas.gemm"), "stress.gemm": stress}
rows = {k: per_gpu(v) for k, v in hw.items()}
gpus = sorted({g for r in rows.values() for g in r}, key=lambda g: (len(g), g))
lines.append("")
lines.append("hardware per GPU (device.memory/copy, cublas.gemm at standard; stress.gemm)")
lines.append(f"  {'gpu':3} {'mem':>5} {'h2d':>5} {'d2h':>5} {'d2d':>5} {'p2p':>5} {'fp32':>5} {'tf32':>5} "
             f"{'fp16':>5} {'bf16':>5} {'fp8':>5} {'sus':>5} {'sdc':>3}")
lines.append("  (mem: bad words; h2d/d2h pinned, d2d, p2p: GB/s; fp32..fp8: cublas.gemm")
lines.append("   TFLOP/s; sus: stress.gemm sustained TFLOP/s; sdc: its mismatching words)")


def num(probe, gpu, metric, width, digits=0):
    v = rows[probe].get(gpu, ({}, None))[0].get(metric)
    return f"{v:{width}.{digits}f}" if isinstance(v, (int, float)) else f"{'-':>{width}}"


for g in gpus:
    statuses = [rows[p][g][1] for p in rows if g in rows[p]]
    verdict = "FAIL" if "fail" in statuses else "warn" if "warn" in statuses else "pass" if statuses else "?"
    lines.append(f"  {g:3} {num('device.memory', g, 'bad_addresses', 5)} {num('device.copy', g, 'h2d_pinned_GBps', 5, 1)} "
                 f"{num('device.copy', g, 'd2h_pinned_GBps', 5, 1)} {num('device.copy', g, 'd2d_GBps', 5)} "
                 f"{num('device.copy', g, 'p2p_GBps', 5)} {num('cublas.gemm', g, 'tflops_fp32', 5)} "
                 f"{num('cublas.gemm', g, 'tflops_tf32', 5)} {num('cublas.gemm', g, 'tflops_fp16', 5)} "
                 f"{num('cublas.gemm', g, 'tflops_bf16', 5)} {num('cublas.gemm', g, 'tflops_fp8', 5)} "
                 f"{num('stress.gemm', g, 'tflops_sustained', 5)} {num('stress.gemm', g, 'mismatches', 3)} {verdict}")
if not gpus:
    lines.append("  no GPU was measured")
for probe, f in hw.items():
    if probe == "stress.gemm" and stress_err:
        lines.append(f"  stress.gemm: no result ({clip(stress_err, W - 30)})")
    elif f is None:
        lines.append(f"  {probe}: not in the standard run ({clip(err or 'absent', W - 30)})")
    elif f.get("status") != "pass":
        lines.append(f"  {probe}: {f.get('status')}: {clip(f.get('summary', ''), W - 10 - len(probe))}")
print("\n".join(lines))
