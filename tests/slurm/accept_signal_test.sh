#!/usr/bin/env bash
# scripts/slurm/accept.sbatch on a signal (scancel, the time limit): the running step is stopped in its
# own process group, nothing it started outlives it, and the report of what finished is written and
# merged (exit 3, incomplete). srun is a stand-in here that runs the task in place (the script forwards
# the signal to it; real srun forwards it to every task); gpucheck, its probe runner and fleet merge
# are real. Two cases: a probe that ends on SIGTERM (one signal), and one that ignores it (two signals:
# gpucheck SIGKILLs the probe's group on the second and still writes its report).
#
#   accept_signal_test.sh SOURCE_DIR GPUCHECK STAGE_DATA
set -euo pipefail
src="$1" gpucheck="$2" stage_data="$3"
fail() { printf 'FAIL: %s\n' "$1" >&2; exit 1; }
[[ -x "$gpucheck" ]] || fail "no gpucheck at $gpucheck"
T="$(mktemp -d /tmp/gpucheck-accept-signal.XXXXXX)"
script_pid=""
cleanup() {
  [[ -n "$script_pid" ]] && kill -KILL "$script_pid" 2>/dev/null
  rm -rf -- "$T"
}
trap cleanup EXIT

mkdir -p "$T/bin" "$T/probes" "$T/data/probes"
printf '#!/usr/bin/env bash\nwhile [[ $# -gt 0 && "$1" == -* ]]; do shift; done\nexec "$@"\n' > "$T/bin/srun"
printf '#!/bin/sh\nexit 0\n' > "$T/bin/scontrol"
# test.polite ends on SIGTERM; test.stubborn ignores it (and so does every sleep it starts).
printf '#!/bin/sh\necho $$ >> "$PROBE_PIDS"\nexec sleep 300\n' > "$T/probes/test.polite"
printf '#!/bin/sh\ntrap "" TERM\necho $$ >> "$PROBE_PIDS"\nwhile :; do sleep 1; done\n' > "$T/probes/test.stubborn"
chmod 755 "$T/bin/srun" "$T/bin/scontrol" "$T/probes/test.polite" "$T/probes/test.stubborn"
for e in "$stage_data"/*; do [[ "$(basename "$e")" == probes ]] || ln -s "$e" "$T/data/$(basename "$e")"; done
for id in polite stubborn; do
  printf '{"id":"test.%s","title":"%s","levels":["quick"],"timeout_s":600}\n' "$id" "$id" > "$T/data/probes/test.$id.json"
done

alive() { [[ -d "/proc/$1" ]] && ! grep -q '^[^)]*) Z' "/proc/$1/stat" 2>/dev/null; }

# one_case PROBE SIGNALS...: the job stopped by SIGNALS (0.5 s apart) once PROBE runs.
one_case() {
  local probe="$1"; shift
  local out="$T/out-$probe" pids="$T/pids-$probe"
  : > "$pids"
  SLURM_JOB_ID=4242 SLURM_SUBMIT_DIR="$T" SLURM_JOB_NUM_NODES=1 PATH="$T/bin:$PATH" GPUCHECK="$gpucheck" \
    GPUCHECK_PROBE_DIR="$T/probes" GPUCHECK_DATA_DIR="$T/data" PROBE_PIDS="$pids" \
    bash "$src/scripts/slurm/accept.sbatch" --out "$out" --level quick --no-collectives \
    --run-arg --only --run-arg "test.$probe" --run-arg --no-inventory > "$T/log-$probe" 2>&1 &
  script_pid=$!
  local i=0
  while [[ ! -s "$pids" && $i -lt 600 ]]; do sleep 0.1; i=$((i + 1)); done
  [[ -s "$pids" ]] || { cat "$T/log-$probe"; fail "$probe: the probe never started"; }
  sleep 0.5
  local t0=$SECONDS
  for sig in "$@"; do kill -s "$sig" "$script_pid"; sleep 0.5; done
  i=0
  while kill -0 "$script_pid" 2>/dev/null && [[ $i -lt 600 ]]; do sleep 0.1; i=$((i + 1)); done
  local rc=0
  wait "$script_pid" || rc=$?
  script_pid=""
  cat "$T/log-$probe"
  [[ $rc -eq 3 ]] || fail "$probe: the job exited $rc, not 3 (incomplete)"
  ((SECONDS - t0 < 30)) || fail "$probe: the job took $((SECONDS - t0)) s to stop"
  local p
  for p in $(cat "$pids"); do alive "$p" && fail "$probe: probe process $p outlived the job"; done
  # Nothing the job started lives on: no process whose command line names this test's directory.
  for p in /proc/[0-9]*; do
    [[ "${p#/proc/}" == "$$" ]] && continue
    if tr '\0' ' ' 2>/dev/null < "$p/cmdline" | grep -qF -- "$T/"; then
      alive "${p#/proc/}" && fail "$probe: process ${p#/proc/} ($(tr '\0' ' ' < "$p/cmdline")) outlived the job"
    fi
  done
  shopt -s nullglob
  local reports=("$out"/*-[0-9]*T[0-9]*Z.json)
  [[ ${#reports[@]} -eq 1 ]] || fail "$probe: ${#reports[@]} reports in $out, want 1"
  grep -q '"run.incomplete"' "${reports[0]}" || fail "$probe: the report does not say the run was stopped"
  [[ -s "$out/merged/fleet-4242.json" ]] || fail "$probe: no merged verdicts"
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["kind"] == "gpucheck.report", d["kind"]' \
    "$out/merged/fleet-4242.json" || fail "$probe: the merged verdicts are not a report"
  grep -q 'stopped by SIGTERM; merged the reports that finished' "$T/log-$probe" || fail "$probe: the log does not say so"
  echo "ok: $probe, $# signal(s), stopped in $((SECONDS - t0)) s"
}

one_case polite TERM
one_case stubborn TERM TERM
