#!/usr/bin/env bash
# scripts/mpi/accept for real under Open MPI's mpirun with a host file naming this machine: the run
# report, the collectives result over 2 ranks (host memory) and the merged verdicts land in the
# directory, and the node is accepted (exit 0). A missing host file is a setup error (exit 2).
#
#   mpi_accept_test.sh SOURCE_DIR GPUCHECK
set -euo pipefail
src="$1" gpucheck="$2"
command -v mpirun >/dev/null || { echo "SKIP: mpirun not installed (openmpi-bin)"; exit 77; }
T="$(mktemp -d /tmp/gpucheck-mpi-accept.XXXXXX)"
trap 'rm -rf -- "$T"' EXIT
printf 'localhost slots=4\n' > "$T/hosts"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader
export MPIRUN_ARGS="--oversubscribe" GPUCHECK="$gpucheck"
set +e
timeout 600 "$src/scripts/mpi/accept" --hostfile "$T/hosts" --out "$T/out" --level quick \
  --run-arg --only --run-arg host.info --ranks-per-node 2 --mpirun-arg --oversubscribe \
  --coll-arg --transport --coll-arg mpi --coll-arg --level --coll-arg quick --coll-arg --max-bytes --coll-arg 1M
rc=$?
set -e
[[ $rc -eq 0 ]] || { echo "FAIL: accept exited $rc"; exit 1; }
shopt -s nullglob
r=() c=("$T/out"/collectives-*.json) m=("$T/out/merged"/fleet-*.json)
for f in "$T/out"/*.json; do [[ "$(basename "$f")" == collectives-* ]] || r+=("$f"); done
[[ ${#r[@]} -eq 1 && ${#c[@]} -eq 1 && ${#m[@]} -eq 1 ]] ||
  { echo "FAIL: reports ${#r[@]}, collectives ${#c[@]}, merged ${#m[@]} (want 1 each)"; ls -la "$T/out"; exit 1; }
grep -q '"status": *"pass"' "${c[0]}" || { echo "FAIL: the collectives result did not pass"; exit 1; }
set +e
"$src/scripts/mpi/accept" --hostfile "$T/no-such-file" 2>/dev/null
bad=$?
set -e
[[ $bad -eq 2 ]] || { echo "FAIL: a missing host file gave exit $bad, not 2"; exit 1; }
echo "ok"
