#!/usr/bin/env bash
# A real single-node Slurm cluster on this machine (Debian's munge, slurmctld, slurmd), started and always
# stopped by this test: `sbatch --wait scripts/slurm/accept.sbatch` runs gpucheck on the node and the
# collectives probe over 2 MPI ranks (srun --mpi=pmix), the reports land, `fleet merge` reads them and
# accepts the node; then scripts/slurm/prolog as the cluster's Prolog: passing, a job runs; failing (the
# strict device check on a node without a GPU), slurmd drains the node with reason "Prolog error".
#
#   slurm_cluster_test.sh SOURCE_DIR GPUCHECK      (ctest -L slurm; exit 77 = skipped, with the reason)
set -euo pipefail

src="$1" gpucheck="$2"
skip() { printf 'SKIP: %s\n' "$1"; exit 77; }
fail() { printf 'FAIL: %s\n' "$1" >&2; exit 1; }
for tool in munged munge slurmctld slurmd sbatch srun scontrol sinfo squeue python3; do
  command -v "$tool" >/dev/null ||
    skip "$tool not installed (scripts/bootstrap installs munge, slurmctld, slurmd and slurm-client)"
done
[[ -x "$gpucheck" ]] || fail "no gpucheck at $gpucheck"

T="$(mktemp -d /tmp/gpucheck-slurm.XXXXXX)"
chmod 755 "$T"  # munged wants every directory above its socket searchable by all
pids=()
stop_all() {
  local rc=$?
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do kill "${pids[$i]}" 2>/dev/null || true; done
  for p in "${pids[@]}"; do
    for _ in $(seq 1 100); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$p" 2>/dev/null || true
  done
  if [[ $rc -ne 0 && $rc -ne 77 ]]; then
    for f in "$T"/log/*; do printf '=== %s (last 30 lines)\n' "$f"; tail -n 30 "$f"; done
  fi
  rm -rf -- "$T"
  exit "$rc"
}
trap stop_all EXIT
trap 'exit 1' INT TERM

# Polls `cond` (a function) every 0.2 s for up to $1 seconds: generous, never a fixed sleep.
wait_for() {
  local limit="$1"; shift
  local end=$((SECONDS + limit))
  while ((SECONDS < end)); do "$@" && return 0; sleep 0.2; done
  return 1
}
alive() { kill -0 "$1" 2>/dev/null; }

mkdir -p "$T/key" "$T/sock" "$T/state" "$T/spool" "$T/log" "$T/work" "$T/prolog"
chmod 700 "$T/key"
chmod 755 "$T/sock"
head -c 1024 /dev/urandom > "$T/key/munge.key"
chmod 400 "$T/key/munge.key"
munged --key-file="$T/key/munge.key" --socket="$T/sock/munge.sock" --pid-file="$T/sock/munged.pid" \
  --seed-file="$T/key/seed" --log-file="$T/log/munged.log" -F > "$T/log/munged.out" 2>&1 &
pids+=($!)
munge_ok() { munge --socket="$T/sock/munge.sock" -n 2>/dev/null | unmunge --socket="$T/sock/munge.sock" >/dev/null 2>&1; }
wait_for 60 munge_ok || skip "munged did not start: $(tail -n 3 "$T/log/munged.out" | tr '\n' ' ')"

host="$(hostname -s)"
read -r ctld_port slurmd_port < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')

# The cluster's Prolog: scripts/slurm/prolog with this test's gpucheck, report directory and the probe
# selection in $T/prolog-only (changed between the phases). Every path is quoted with printf %q.
printf 'host.info\n' > "$T/prolog-only"
{
  printf '#!/usr/bin/env bash\n'
  printf 'export GPUCHECK=%q GPUCHECK_PROLOG_REPORT_DIR=%q\n' "$gpucheck" "$T/prolog"
  # shellcheck disable=SC2016  # the wrapper reads the file when slurmd runs it, not now
  printf 'GPUCHECK_PROLOG_ONLY="$(cat %q)"; export GPUCHECK_PROLOG_ONLY\n' "$T/prolog-only"
  printf 'exec %q\n' "$src/scripts/slurm/prolog"
} > "$T/prolog.sh"
chmod 755 "$T/prolog.sh"

cat > "$T/slurm.conf" <<EOF
ClusterName=gpucheck-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$T/sock/munge.sock
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/log/slurmctld.log
SlurmdLogFile=$T/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
MpiDefault=none
ReturnToService=2
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
Prolog=$T/prolog.sh
PrologEpilogTimeout=120
SlurmctldTimeout=300
SlurmdTimeout=300
MessageTimeout=60
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=accept Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$T/slurm.conf"

slurmctld -D -f "$SLURM_CONF" > "$T/log/slurmctld.out" 2>&1 &
ctld=$!
pids+=("$ctld")
slurmd -D -f "$SLURM_CONF" -N "$host" > "$T/log/slurmd.out" 2>&1 &
slurmd_pid=$!
pids+=("$slurmd_pid")
node_state() { sinfo -h -N -n "$host" -o '%T' 2>/dev/null | head -n 1; }
node_idle() { [[ "$(node_state)" == idle ]]; }
started() { alive "$ctld" && alive "$slurmd_pid" && node_idle; }
if ! wait_for 180 started; then
  alive "$ctld" || skip "slurmctld could not start: $(tail -n 3 "$T/log/slurmctld.out" | tr '\n' ' ')"
  alive "$slurmd_pid" || skip "slurmd could not start: $(tail -n 3 "$T/log/slurmd.out" | tr '\n' ' ')"
  fail "the node never became idle (state: $(node_state))"
fi
echo "cluster up: $host, slurmctld :$ctld_port, slurmd :$slurmd_port ($SECONDS s)"

# Phase 1: the acceptance job.
cd "$T/work"
set +e
GPUCHECK="$gpucheck" timeout 900 sbatch --wait --nodes=1 --output="$T/work/accept-%j.log" \
  "$src/scripts/slurm/accept.sbatch" --out "$T/work/out" --level quick --run-arg --only --run-arg host.info \
  --ranks-per-node 2 --coll-arg --transport --coll-arg mpi --coll-arg --level --coll-arg quick \
  --coll-arg --max-bytes --coll-arg 1M
job_rc=$?
set -e
cat "$T"/work/accept-*.log
[[ $job_rc -eq 0 ]] || fail "the acceptance job exited $job_rc (expected 0: the node's run passes)"
shopt -s nullglob
reports=("$T/work/out/$host"*-[0-9]*T[0-9]*Z.json)  # gpucheck's host name may be longer than hostname -s
coll=("$T/work/out"/collectives-*.json)
merged=("$T/work/out/merged"/fleet-*.json)
[[ ${#reports[@]} -eq 1 ]] || fail "expected one report of $host in out/, found ${#reports[@]}"
[[ ${#coll[@]} -eq 1 ]] || fail "expected the collectives result in out/, found ${#coll[@]}"
[[ ${#merged[@]} -eq 1 ]] || fail "expected the merged verdicts in out/merged/, found ${#merged[@]}"
"$gpucheck" fleet merge "$T/work/out" --expect "$host" --json > "$T/work/fleet.json" || fail "fleet merge exited $?"
python3 - "$T/work/fleet.json" "$host" "${reports[0]}" <<'PY' || fail "fleet merge's verdicts are not as expected"
import json, sys
doc, host, report = json.load(open(sys.argv[1])), sys.argv[2], json.load(open(sys.argv[3]))
sections = {s["name"]: s["findings"] for s in doc["sections"]}
nodes = {f["title"]: f for f in sections["nodes"]}
assert len(nodes) == 1 and next(iter(nodes)).split(".")[0] == host, nodes
node = next(iter(nodes.values()))
assert node["status"] == "pass", node
assert report["environment"].get("SLURMD_NODENAME") == host, report["environment"]
across = sections["across"]
assert across[0]["id"] == "collectives.nccl" and across[0]["status"] == "pass", across[0]["summary"]
assert len(across[0]["devices"]) == 2, "two ranks"
print("fleet merge:", host, node["summary"], "|", across[0]["summary"][:60])
PY
[[ -s "$T/prolog/prolog.log" ]] || fail "the passing prolog left no log line"
grep -q ' prolog job=[0-9]* node=.* pass$' "$T/prolog/prolog.log" || fail "no passing prolog line: $(cat "$T/prolog/prolog.log")"

# Phase 2: a failing prolog drains the node. Only where device.runtime cannot pass (no GPU here).
if command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; then
  echo "phase 2 not run: this node has a GPU, so the strict device check passes"
  exit 0
fi
printf 'device.runtime\n' > "$T/prolog-only"
job="$(sbatch --parsable --output=/dev/null --wrap true)"
drained() { sinfo -h -N -n "$host" -o '%T' 2>/dev/null | grep -q drain; }
wait_for 300 drained || fail "the node was not drained after the failing prolog (state $(node_state))"
reason="$(sinfo -h -N -n "$host" -o '%E' | head -n 1)"
echo "node drained: state $(node_state), reason '$reason'; job $job: $(squeue -h -j "$job" -o '%T %r' 2>/dev/null)"
[[ "$reason" == *Prolog* ]] || fail "drain reason '$reason' does not name the prolog"
grep -q 'FAIL: a probe failed' "$T/prolog/prolog.log" || fail "the failing prolog left no FAIL line"
echo "done in $SECONDS s"
