#!/usr/bin/env bash
# Runs the collectives.nccl probe with one rank per GPU across nodes under Open MPI's mpirun and writes
# the merged result (rank 0 gathers every rank's #wrong and busbw) to one JSON file.
#
#   scripts/mpi/collectives.sh [-H host1,host2 | --hostfile FILE] [-g GPUS_PER_NODE] [-o OUT.json] [-- PROBE ARGS]
#
# Examples:
#   scripts/mpi/collectives.sh -H node1,node2 -g 8                   # 16 ranks, standard level
#   scripts/mpi/collectives.sh -H node1,node2 -g 8 -- --pairs all     # bisect node pairs
#   scripts/mpi/collectives.sh -g 4 -- --transport mpi --level quick # host path on this machine
# Environment: GPUCHECK_PROBE_DIR (where collectives.nccl is), MPIRUN (mpirun to use), MPIRUN_ARGS (extra
# mpirun arguments, e.g. "--mca btl_tcp_if_include eth0"). NCCL_* variables are forwarded to every rank.
set -euo pipefail

hosts="" hostfile="" per_node="" out=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    -H|--hosts) hosts="$2"; shift 2 ;;
    --hostfile) hostfile="$2"; shift 2 ;;
    -g|--gpus-per-node) per_node="$2"; shift 2 ;;
    -o|--out) out="$2"; shift 2 ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    --) shift; break ;;
    *) echo "collectives.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
probe=""
for dir in "${GPUCHECK_PROBE_DIR:-}" "$here/../../build/stage/libexec/gpucheck" "$here/../../libexec/gpucheck" \
           /opt/gpucheck/libexec/gpucheck; do
  if [[ -n "$dir" && -x "$dir/collectives.nccl" ]]; then probe="$dir/collectives.nccl"; break; fi
done
[[ -n "$probe" ]] || { echo "collectives.sh: collectives.nccl not found (build gpucheck or set GPUCHECK_PROBE_DIR)" >&2; exit 2; }
mpirun="${MPIRUN:-mpirun}"
command -v "$mpirun" >/dev/null || { echo "collectives.sh: $mpirun not found (install openmpi-bin)" >&2; exit 2; }

if [[ -z "$per_node" ]]; then
  per_node="$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)"
  [[ "$per_node" -gt 0 ]] || { echo "collectives.sh: no GPU visible here; pass -g GPUS_PER_NODE" >&2; exit 2; }
fi
nodes=1
if [[ -n "$hosts" ]]; then
  IFS=, read -r -a host_list <<< "$hosts"
  nodes=${#host_list[@]}
  host_arg=(-H "$(printf "%s:$per_node," "${host_list[@]}" | sed 's/,$//')")
elif [[ -n "$hostfile" ]]; then
  nodes=$(grep -cv '^\s*\(#\|$\)' "$hostfile")
  host_arg=(--hostfile "$hostfile")
else
  host_arg=()
fi
np=$((nodes * per_node))
[[ -n "$out" ]] || out="collectives-$(hostname)-$(date -u +%Y%m%dT%H%M%SZ).json"

env_args=()
while IFS='=' read -r name _; do
  [[ "$name" == NCCL_* ]] && env_args+=(-x "$name")
done < <(env)

[[ -n "${LD_LIBRARY_PATH:-}" ]] && env_args+=(-x LD_LIBRARY_PATH)

set +e
# shellcheck disable=SC2086  # MPIRUN_ARGS is a list of words on purpose
"$mpirun" -np "$np" --map-by "ppr:${per_node}:node" --bind-to none ${MPIRUN_ARGS:-} "${host_arg[@]}" \
  "${env_args[@]}" "$probe" --json "$@" > "$out"
status=$?
set -e

python3 - "$out" <<'PY' || true
import json, sys
r = json.load(open(sys.argv[1]))
print(f"{r['status']}  {r['id']}: {r['summary']}")
for d in r.get("devices", []):
    bw = ", ".join(f"{m['name'].removeprefix('busbw_plateau.')} {m['value']:.1f}" for m in d.get("metrics", []))
    gpu = next((e["value"] for e in d.get("evidence", []) if e["what"] == "gpu"), "")
    print(f"  {d['device']:<28} {d['status']:<5} {gpu}  {bw}")
PY
echo "result: $out"
exit $status
