#!/usr/bin/env bash
# The node bundle end to end on this machine (no GPU): scripts/bundle builds it (its own build tree), it is
# under 64 MiB, every file needs at most GLIBC_2.34 / GLIBCXX_3.4.29 (re-read here with readelf, not taken
# from the bundle's word), every probe manifest has its executable, nothing but the node's libcudart/libnccl
# is left for the loader to find outside the bundle, and gpu-check runs every step, exits 0 and reports
# each GPU step as a skip or "did not run" with its exact reason; it leaves at most 8 files (the tarball, the
# summary, the steps), keeps to --deadline, and a TERM stops it at once with what finished packed.
# usage: bundle_test.sh SOURCE_DIR
set -euo pipefail
src="$1"
work="$(mktemp -d /tmp/gpucheck-bundle-test-XXXXXX)"
trap 'rm -rf "$work"' EXIT
fail() { echo "bundle_test: FAIL: $*" >&2; exit 1; }

"$src/scripts/bundle" "$work/b.tar.gz" >"$work/bundle.out" 2>"$work/bundle.err" || { cat "$work/bundle.err"; fail "scripts/bundle"; }
bytes=$(stat -c %s "$work/b.tar.gz")
[ "$bytes" -lt $((64 * 1024 * 1024)) ] || fail "bundle is $bytes bytes"
tar -C "$work" -xzf "$work/b.tar.gz"
b="$work/gpucheck-bundle"
for f in bin/gpucheck gpu-check ABI.txt share/gpucheck/gpu_check_summary.py share/gpucheck/torch_baseline.py; do
  [ -e "$b/$f" ] || fail "missing $f"
done
for m in "$b"/share/gpucheck/probes/*.json; do
  id="$(basename "$m" .json)"
  [ -x "$b/libexec/gpucheck/$id" ] || fail "probe $id has a manifest but no executable"
done
for x in bench_kernels_gpu bench_collectives; do [ -x "$b/bin/$x" ] || fail "missing GPU benchmark $x"; done
for p in device.memory device.copy cublas.gemm stress.gemm; do [ -x "$b/libexec/gpucheck/$p" ] || fail "missing hardware probe $p"; done
[ -f "$b/share/gpucheck/links/pcie.json" ] || fail "missing share/gpucheck/links/pcie.json (device.copy's link rates)"
n=0
while read -r f; do
  [ "$(head -c 4 "$f" | od -An -c | tr -d ' ')" = '177ELF' ] || continue
  n=$((n + 1))
  v="$(readelf -V --wide "$f" | grep -v 'Flags: WEAK' | grep -oE 'Name: GLIBC_[0-9.]+' | sed 's/Name: GLIBC_//' | sort -uV | tail -1 || true)"
  [ -z "$v" ] || [ "$(printf '%s\n2.34\n' "$v" | sort -V | tail -1)" = 2.34 ] || fail "$f needs GLIBC_$v"
  v="$(readelf -V --wide "$f" | grep -v 'Flags: WEAK' | grep -oE 'Name: GLIBCXX_[0-9.]+' | sed 's/Name: GLIBCXX_//' | sort -uV | tail -1 || true)"
  [ -z "$v" ] || [ "$(printf '%s\n3.4.29\n' "$v" | sort -V | tail -1)" = 3.4.29 ] || fail "$f needs GLIBCXX_$v"
  if readelf -S "$f" | grep -q debug_info; then fail "$f is not stripped"; fi
  # With the loader's default path emptied of the toolkit, only libcudart/libnccl may be missing.
  missing="$(env -u LD_LIBRARY_PATH ldd "$f" 2>/dev/null | grep 'not found' | grep -vE 'libcudart|libnccl' || true)"
  [ -z "$missing" ] || fail "$f: $missing"
done < <(find "$b" -type f)
[ "$n" -ge 15 ] || fail "only $n ELF files"

rc=0
"$b/gpu-check" "$work/out" >"$work/gc.out" 2>"$work/gc.err" || rc=$?
cat "$work/gc.out"
[ "$rc" = 0 ] || { cat "$work/gc.err"; fail "gpu-check exit $rc"; }
# What comes back from a node: at most 8 files, the tarball among them, nothing half-written.
files="$(find "$work/out" -mindepth 1 | sort)"
[ "$(wc -l <<<"$files")" -le 8 ] || fail "gpu-check left more than 8 files: $files"
for f in gpu-check.tar.gz summary.txt steps.tsv gpu-check.log; do [ -f "$work/out/$f" ] || fail "no $f in OUTDIR"; done
! grep -q '\.part$' <<<"$files" || fail "a temporary file was left: $files"
mkdir "$work/x" && tar -C "$work/x" -xzf "$work/out/gpu-check.tar.gz" || fail "gpu-check.tar.gz does not unpack"
cmp -s "$work/x/gpu-check/steps.tsv" "$work/out/steps.tsv" || fail "the tarball's steps.tsv is not the one beside it"
res="$work/x/gpu-check"
for s in env persistence-mode env-inventory selftest run-quick run-standard collectives stress-gemm bench-kernels torch-baseline; do
  grep -q "^$s	" "$res/steps.tsv" || fail "step $s not recorded"
done
[ "$(grep -c '^sanitizer-' "$res/steps.tsv")" -ge 4 ] || fail "sanitizer steps not recorded"
if ! nvidia-smi -L >/dev/null 2>&1; then
  # No GPU: every GPU step is a skip or did-not-run with the exact reason, never a number.
  awk -F'\t' '$2 == "skip" && $6 == "" {exit 1}' "$work/out/steps.tsv" || fail "a skip without a reason"
  python3 - "$res" <<'PY' || fail "a GPU step without the exact CUDA error"
import json, sys
out = sys.argv[1]
bench = json.load(open(f"{out}/bench-kernels.out"))["benchmarks"]
assert bench and all(b.get("error_occurred") for b in bench), "a benchmark ran without a GPU"
assert all(b["error_message"].startswith("cudaGetDeviceCount failed: cudaError") for b in bench), bench[0]
assert not any("ratio_to_copy" in b for b in bench), "a ratio without a GPU"
coll = json.load(open(f"{out}/collectives.out"))
assert coll["status"] == "skip" and "NCCL collectives cannot run here: cudaGetDeviceCount" in coll["summary"], coll["summary"]
ev = {e["what"]: e["value"] for e in coll["evidence"]}
assert ev["nccl_library"].endswith("libnccl.so.2") and ev["nccl_version"], ev
stress = json.load(open(f"{out}/stress-gemm.out"))
found = [r for s in stress["sections"] if s["name"] == "probes" for r in s["findings"]]
assert [r["id"] for r in found] == ["stress.gemm"], found
assert found[0]["status"] == "skip" and "cudaGetDeviceCount failed: cudaError" in found[0]["summary"], found[0]
assert not found[0]["devices"], "a stress figure without a GPU"
PY
  grep -q '^  no GPU was measured$' "$res/summary.txt" || fail "the hardware table claims a GPU row without a GPU"
  grep -q 'did not run: cudaGetDeviceCount' "$res/summary.txt" || fail "the summary does not say why benchmarks did not run"
fi
for l in quick standard; do grep -q "^probes at $l: " "$res/summary.txt" || fail "no $l probe table"; done
grep -q '^hardware per GPU ' "$res/summary.txt" || fail "no hardware table"

# The overall deadline: with 60 s, the steps that no longer fit are skipped with a line, and it ends in time.
t0=$(date +%s)
"$b/gpu-check" "$work/short" --deadline 60 >/dev/null 2>"$work/short.err" || true
t=$(( $(date +%s) - t0 ))
[ "$t" -le 75 ] || fail "gpu-check --deadline 60 took $t s"
grep -qE '^run-standard	skip	-	0	-	deadline: -?[0-9]+ s of 60 s left' "$work/short/steps.tsv" || fail "run-standard was not skipped at the deadline: $(cat "$work/short/steps.tsv")"
# A TERM stops the running step at once, skips the rest, and still leaves the tarball and the steps so far.
"$b/gpu-check" "$work/term" >/dev/null 2>"$work/term.err" &
pid=$!
# Up to 60 s for the first step on a loaded machine (CI builds a wheel beside this test), so the TERM lands after it.
for _ in $(seq 300); do grep -q '^env	' "$work/term/steps.tsv" 2>/dev/null && break; sleep 0.2; done
t0=$(date +%s)
kill -TERM "$pid"
rc=0; wait "$pid" || rc=$?
t=$(( $(date +%s) - t0 ))
[ "$rc" = 130 ] || fail "gpu-check after TERM exited $rc, not 130"
[ "$t" -le 15 ] || fail "gpu-check took $t s to stop after TERM"
listing="$(tar -tzf "$work/term/gpu-check.tar.gz" 2>&1 || true)"
grep -q 'gpu-check/env.out' <<<"$listing" ||
  fail "no tarball with the finished steps after TERM (exit $rc after $t s): $listing; steps: $(cat "$work/term/steps.tsv" 2>&1); log: $(tail -5 "$work/term.err")"
grep -q 'not started: gpu-check received SIGTERM' "$work/term/steps.tsv" || fail "the steps after TERM are not recorded as skipped"
echo "bundle_test: $((bytes / 1024)) KiB, $n ELF files, gpu-check passed"
