#!/bin/bash
# End-to-end test of scripts/slurm/board-submit.sh on a throwaway single-node
# Slurm: the 8-row triangle (36 pieces, runs ≤ 3), misère and normal play,
# cut into slices, one job array per wave, every task under a 1 GiB memory
# limit, against the in-memory solver.
#
#   sudo scripts/slurm/test-local-slurm-board.sh        (as root; Debian/Ubuntu)
#
# Installs slurm-wlm and munge if missing, starts munged, slurmctld and slurmd
# on 127.0.0.1 with all state under $NIMLAB_SLURM_TEST_DIR (default
# /tmp/nimlab-slurm-board-test, wiped at start), with jobacct_gather/linux and
# OverMemoryKill so that a task above its --mem is killed. Then, per play:
#   1. the reference: `nimlab board solve --in-memory` (the whole 2^36-bit table,
#      8 GiB: run this test on a machine with about 9 GiB free);
#   2. board-submit.sh --mem 1G: waits for every wave and the finish job,
#      checks that every task COMPLETED, that each task's peak memory (as
#      nimlab reports it) stayed under 1 GiB, and compares DIR/result.txt (the
#      P-positions per number of pieces left, outcome, winning runs) with the
#      reference byte for byte (cmp);
# and for misère play also
#   3. requeue: `scontrol requeue` of a finished task, which finds its slice
#      complete and exits; a lost slice (its files deleted) resubmitted with
#      board-submit.sh: only its wave and the finish run again, and every slice
#      file is byte-identical to before (sha256).
# Prints PASS/FAIL lines and timings and exits non-zero on any failure.
# Environment: NIMLAB (binary, default target/release/nimlab), NIMLAB_BOARD_ROWS
# (default 8; 7 for a quick run), NIMLAB_SLURM_TIMEOUT (seconds per wait,
# default 1800), NIMLAB_SLURM_PORT (default 16827).
set -uo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
slurm_scripts=$repo/scripts/slurm
WORK=${NIMLAB_SLURM_TEST_DIR:-/tmp/nimlab-slurm-board-test}
TIMEOUT=${NIMLAB_SLURM_TIMEOUT:-1800}
PORT=${NIMLAB_SLURM_PORT:-16827}
ROWS=${NIMLAB_BOARD_ROWS:-8}
MEM=1G
MEM_BYTES=$((1 << 30))
C=$WORK/cluster

failures=0
pass() { echo "PASS $*"; }
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
info() { echo "---- $*"; }
die() { echo "FAIL setup: $*"; exit 1; }
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN{printf "%.1f", b-a}'; }

[[ $EUID -eq 0 ]] || die "run as root (it installs packages and starts Slurm daemons as root)"
case $WORK in /tmp/?* | /var/tmp/?* | /scratch/?* | "$HOME"/?*) ;; *) die "NIMLAB_SLURM_TEST_DIR=$WORK: use a directory under /tmp, /var/tmp or \$HOME (it is wiped)" ;; esac

# ---------------------------------------------------------------- daemons
stop_pidfile() { # pidfile comm: stops a daemon of ours, only if that pid is still that program
    local f=$1 comm=$2 pid
    [[ -f $f ]] || return 0
    pid=$(cat "$f" 2>/dev/null) || return 0
    [[ $pid =~ ^[0-9]+$ ]] || return 0
    if [[ -r /proc/$pid/comm && $(cat "/proc/$pid/comm") == "$comm" ]]; then
        kill "$pid" 2>/dev/null
        for _ in $(seq 50); do [[ -e /proc/$pid ]] || break; sleep 0.1; done
        [[ -e /proc/$pid ]] && kill -9 "$pid" 2>/dev/null
    fi
    rm -f "$f"
}
stop_cluster() {
    stop_pidfile "$C/slurmd.pid" slurmd
    stop_pidfile "$C/slurmctld.pid" slurmctld
    stop_pidfile "$C/munge/munged.pid" munged
}
cleanup() {
    local rc=$?
    [[ -f $C/slurm.conf ]] && SLURM_CONF=$C/slurm.conf scancel --quiet --user=root 2>/dev/null
    stop_cluster
    echo "---- stopped slurmd, slurmctld, munged; logs and outputs kept in $WORK"
    exit "$rc"
}
stop_cluster
rm -rf "$WORK"
mkdir -p "$C"/{state,spool,log,munge} "$WORK"

need=()
command -v slurmctld >/dev/null || need+=(slurmctld)
command -v slurmd >/dev/null || need+=(slurmd)
command -v sbatch >/dev/null || need+=(slurm-client)
command -v munged >/dev/null || need+=(munge)
if ((${#need[@]})); then
    info "installing slurm-wlm munge (missing: ${need[*]})"
    apt-get update -qq || die "apt-get update"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >"$WORK/apt.log" 2>&1 ||
        die "apt-get install slurm-wlm munge (see $WORK/apt.log)"
fi
info "$(slurmctld -V), $(munged --version 2>&1 | head -1)"

src_bin=${NIMLAB:-$repo/target/release/nimlab}
if [[ ! -x $src_bin ]]; then
    info "building nimlab (cargo build --release)"
    (cd "$repo" && cargo build --release -q) || die "cargo build --release"
fi
bin=$WORK/nimlab
cp "$src_bin" "$bin"
info "nimlab: $("$bin" --version) ($src_bin)"

trap cleanup EXIT
trap 'exit 130' INT TERM
host=$(hostname -s)
read -r cpus mem < <(slurmd -C | awk '/^NodeName/ {for (i = 1; i <= NF; i++) {split($i, kv, "="); v[kv[1]] = kv[2]} print v["CPUs"], v["RealMemory"]}')
[[ -n ${cpus:-} && -n ${mem:-} ]] || die "slurmd -C did not report CPUs and memory"
mem=$((mem * 9 / 10))
dd if=/dev/urandom of="$C/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$C/munge/munge.key"
chmod 700 "$C/munge"
munged --force --key-file="$C/munge/munge.key" --socket="$C/munge/munge.socket" \
    --pid-file="$C/munge/munged.pid" --log-file="$C/munge/munged.log" \
    --seed-file="$C/munge/munged.seed" 2>"$C/log/munged.err" ||
    die "munged did not start: $(cat "$C/log/munged.err")"
cat >"$C/slurm.conf" <<CONF
# Throwaway single-node cluster of scripts/slurm/test-local-slurm-board.sh
ClusterName=nimlabboard
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$PORT
SlurmdPort=$((PORT + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$C/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$C/state
SlurmdSpoolDir=$C/spool
SlurmctldPidFile=$C/slurmctld.pid
SlurmdPidFile=$C/slurmd.pid
SlurmctldLogFile=$C/log/slurmctld.log
SlurmdLogFile=$C/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
JobAcctGatherType=jobacct_gather/linux
JobAcctGatherFrequency=task=1
JobAcctGatherParams=OverMemoryKill
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MinJobAge=3600
KillWait=5
MailProg=/bin/true
InactiveLimit=0
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$C/slurm.conf
slurmctld -c -f "$SLURM_CONF" || die "slurmctld did not start (see $C/log/slurmctld.log)"
slurmd -f "$SLURM_CONF" || die "slurmd did not start (see $C/log/slurmd.log)"
t=0
until [[ $(sinfo -h -n "$host" -o %T 2>/dev/null) == idle ]]; do
    ((t++ < 120)) || die "node $host not idle after 60 s: $(sinfo -h -N -o '%N %T %E' 2>&1)"
    sleep 0.5
done
pass "single-node Slurm up: node $host, $cpus CPUs, ${mem} MB; jobacct_gather/linux with OverMemoryKill"

wait_jobs() { # ids-comma-separated
    local t0=$SECONDS
    while [[ -n $(squeue -h -j "$1" -o %i 2>/dev/null) ]]; do
        ((SECONDS - t0 < TIMEOUT)) || { echo "timeout after ${TIMEOUT}s waiting for $1"; return 1; }
        sleep 0.5
    done
}
job_field() { scontrol -o show job "$1" 2>/dev/null | head -1 | tr ' ' '\n' | sed -n "s/^$2=//p"; }
# "task state exit" for every task of an array job.
array_tasks() {
    scontrol -o show job "$1" | tr ' ' '\n' | awk -F= '
        $1 == "ArrayTaskId" {t = $2} $1 == "JobState" {s = $2} $1 == "ExitCode" {print t, s, $2}' | sort -n
}
# Peak memory in bytes from nimlab's "peak memory 394.48 MiB" lines of the logs.
peak_bytes() {
    grep -ho 'peak memory [0-9.]* [KMGT]*i*B' "$@" | awk '
        {v = $3; u = $4; m = 1; if (u == "KiB") m = 1024; if (u == "MiB") m = 1048576; if (u == "GiB") m = 1073741824
         b = v * m; if (b > max) max = b} END {printf "%d\n", max}'
}
slice_sums() { (cd "$1/slices" && find . -name '*.bits' | LC_ALL=C sort | xargs -r sha256sum); }

board=(--triangle "$ROWS" --take max:3)
for play in misere normal; do
    info "$play: the reference, nimlab board solve --in-memory ${board[*]} --play $play"
    t0=$(now)
    "$bin" board solve --in-memory "${board[@]}" --play "$play" >"$WORK/ref-$play.txt" 2>"$WORK/ref-$play.err" ||
        { fail "$play: in-memory solve failed: $(tail -2 "$WORK/ref-$play.err")"; continue; }
    pass "$play: in-memory reference in $(secs "$t0" "$(now)") s ($(tail -1 "$WORK/ref-$play.err"))"

    D=$WORK/t$ROWS-$play
    info "$play: scripts/slurm/board-submit.sh --cpus 1 --mem $MEM $D ${board[*]} --play $play"
    t0=$(now)
    "$slurm_scripts/board-submit.sh" --cpus 1 --mem "$MEM" --nimlab "$bin" "$D" "${board[@]}" --play "$play" >"$WORK/submit-$play.txt" 2>&1 ||
        { fail "$play: board-submit.sh failed: $(tail -3 "$WORK/submit-$play.txt")"; continue; }
    sed 's/^/  | /' "$WORK/submit-$play.txt"
    arrays=$(awk '$4 == "array" {print $5}' "$D/slurm/jobs.log" | paste -sd,)
    fid=$(awk '$2 == "finish" {id = $3} END {print id}' "$D/slurm/jobs.log")
    if wait_jobs "$arrays,$fid"; then
        t1=$(now)
        ok=1 ntasks=0
        for a in ${arrays//,/ }; do
            while read -r task state code; do
                ntasks=$((ntasks + 1))
                [[ $state == COMPLETED && $code == 0:0 ]] || { ok=0; echo "  task ${a}_$task: $state $code"; }
            done < <(array_tasks "$a")
        done
        ((ok)) && pass "$play: $(echo "${arrays//,/ }" | wc -w) wave arrays, all $ntasks tasks COMPLETED with exit 0 (afterok chain)" ||
            fail "$play: some tasks did not complete (logs in $D/logs/)"
        [[ $(job_field "$fid" JobState) == COMPLETED ]] && pass "$play: finish job $fid COMPLETED; submission to result $(secs "$t0" "$t1") s" ||
            fail "$play: finish job $fid: $(job_field "$fid" JobState)"
        peak=$(peak_bytes "$D"/logs/nimlab-board-w*.out)
        ((peak > 0 && peak <= MEM_BYTES)) && pass "$play: largest task peak memory $((peak >> 20)) MiB ≤ 1 GiB (--mem $MEM)" ||
            fail "$play: task peak memory $peak bytes (limit $MEM_BYTES)"
        if cmp -s "$WORK/ref-$play.txt" "$D/result.txt"; then
            pass "$play: result.txt identical to the in-memory run (cmp): $(grep -c '^ *[0-9]' "$D/result.txt") count lines, $(grep '^outcome' "$D/result.txt"), $(grep -o '^winning_runs ([^)]*)' "$D/result.txt")"
        else
            fail "$play: result.txt differs from the in-memory run: $(diff "$WORK/ref-$play.txt" "$D/result.txt" | head -5)"
        fi
    else
        fail "$play: jobs did not finish within ${TIMEOUT}s"
        continue
    fi

    [[ $play == misere ]] || continue
    info "$play: requeue a finished task; lose a slice and resubmit"
    slice_sums "$D" >"$WORK/sums.before"
    mid=$(awk '$4 == "array" {print $5}' "$D/slurm/jobs.log" | sed -n 3p)
    if scontrol requeue "${mid}_0" 2>/dev/null; then
        sleep 1
        scontrol update JobId="${mid}_0" StartTime=now 2>/dev/null || true
        wait_jobs "${mid}_0"
        log=$(ls "$D"/logs/nimlab-board-w*-"${mid}"_0.out)
        [[ $(job_field "${mid}_0" JobState) == COMPLETED ]] && grep -q 'complete already' "$log" &&
            pass "requeued task ${mid}_0 ran again and found its slice complete ($(grep -c '^board-slice: wave' "$log") runs in its log)" ||
            fail "requeued task ${mid}_0: $(job_field "${mid}_0" JobState), log $log"
    else
        fail "scontrol requeue ${mid}_0 refused"
    fi
    lost=$(find "$D/slices/w03" -name '*.bits' | LC_ALL=C sort | head -1)
    rm -f "$lost" "${lost%.bits}.json" "$D/result.txt"
    "$slurm_scripts/board-submit.sh" --cpus 1 --mem "$MEM" --nimlab "$bin" "$D" "${board[@]}" --play "$play" >"$WORK/resubmit.txt" 2>&1 ||
        fail "resubmission failed: $(tail -3 "$WORK/resubmit.txt")"
    sed 's/^/  | /' "$WORK/resubmit.txt"
    n_new=$(grep -c '^wave .*array job' "$WORK/resubmit.txt")
    fid2=$(awk '$2 == "finish" {id = $3} END {print id}' "$D/slurm/jobs.log")
    arr2=$(awk '$4 == "array" {id = $5} END {print id}' "$D/slurm/jobs.log")
    wait_jobs "$arr2,$fid2"
    ((n_new == 1)) && pass "resubmission after losing $(basename "$lost"): one wave array (wave 3) and the finish" ||
        fail "resubmission submitted $n_new wave arrays"
    slice_sums "$D" >"$WORK/sums.after"
    cmp -s "$WORK/sums.before" "$WORK/sums.after" &&
        pass "all $(wc -l <"$WORK/sums.after") slice files identical after requeue and recomputation (sha256)" ||
        fail "slice files changed: $(diff "$WORK/sums.before" "$WORK/sums.after" | head -4)"
    cmp -s "$WORK/ref-$play.txt" "$D/result.txt" && pass "result.txt after resubmission identical to the in-memory run" ||
        fail "result.txt after resubmission differs"
done

info "per-task times (seconds, from the logs)"
for play in misere normal; do
    D=$WORK/t$ROWS-$play
    [[ -d $D/logs ]] || continue
    echo "  $play: $(grep -h 'elapsed' "$D"/logs/nimlab-board-w*.out | awk '{s += $(NF-3); n++} END {printf "%d tasks, %.1f s in all, %.2f s mean", n, s, s / n}')"
done
if ((failures)); then
    echo "FAIL $failures check(s) failed (cluster logs: $C/log/, job logs: $WORK/*/logs/)"
    exit 1
fi
echo "PASS all checks"
