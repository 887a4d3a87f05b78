#!/bin/bash
# End-to-end test of scripts/slurm/ on a real, throwaway single-node Slurm.
#
#   sudo scripts/slurm/test-local-slurm.sh        (as root; Debian/Ubuntu)
#
# Installs Debian's slurm-wlm and munge if missing (apt-get), starts munged,
# slurmctld and slurmd on 127.0.0.1 with all state under $NIMLAB_SLURM_TEST_DIR
# (default /tmp/nimlab-slurm-test, wiped at start; the system's /etc/slurm and
# /etc/munge are not touched), then:
#   1. submit.sh: a 4-task array sweep of tests/fixtures/valid/resume.yaml and
#      its merge job; waits; compares the merged Parquet parts and rendered
#      tables byte for byte (cmp) with a single-machine `nimlab run`;
#   2. requeue: `scontrol requeue` of a finished array task and a second
#      `sbatch --array=2` of the same shard, then the merge again: nothing
#      computed, no data file changed;
#   3. failure: a sweep whose shard 1 cannot write fails that task (non-zero
#      exit), its merge waits forever (afterok); resubmit-failed.sh resubmits
#      shard 1 only and a new merge; the result equals the single run again.
# Prints PASS/FAIL lines and timings, stops the daemons it started, and exits
# non-zero if anything failed. Safe to re-run. Network: 127.0.0.1 only.
# Environment: NIMLAB (binary, default target/release/nimlab, built if
# missing), NIMLAB_SLURM_TIMEOUT (seconds per wait, default 300),
# NIMLAB_SLURM_PORT (slurmctld port, default 16817; slurmd uses +1).
set -uo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
slurm_scripts=$repo/scripts/slurm
WORK=${NIMLAB_SLURM_TEST_DIR:-/tmp/nimlab-slurm-test}
TIMEOUT=${NIMLAB_SLURM_TIMEOUT:-300}
PORT=${NIMLAB_SLURM_PORT:-16817}
SPEC=$repo/tests/fixtures/valid/resume.yaml
EXP=resume
N=4
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
# Stops a daemon of ours from its pid file, only if that pid is still that program.
stop_pidfile() { # pidfile comm
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
    # Jobs still queued (after a failure or timeout) would die with the daemons anyway.
    [[ -f $C/slurm.conf ]] && SLURM_CONF=$C/slurm.conf scancel --quiet --user=root 2>/dev/null
    stop_cluster
    echo "---- stopped slurmd, slurmctld, munged; logs and outputs kept in $WORK"
    exit "$rc"
}

# Leftovers of an earlier run that was killed before it could clean up.
stop_cluster
rm -rf "$WORK"
mkdir -p "$C"/{state,spool,log,munge} "$WORK/out"

# ---------------------------------------------------------------- install
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

# ---------------------------------------------------------------- nimlab
src_bin=${NIMLAB:-$repo/target/release/nimlab}
if [[ ! -x $src_bin ]]; then
    info "building nimlab (cargo build --release)"
    (cd "$repo" && cargo build --release -q) || die "cargo build --release"
fi
# A private copy: a rebuild of target/ during the test must not change the binary under test.
bin=$WORK/nimlab
cp "$src_bin" "$bin"
info "nimlab: $("$bin" --version) ($src_bin)"

# ---------------------------------------------------------------- cluster
trap cleanup EXIT
trap 'exit 130' INT TERM

host=$(hostname -s)
read -r cpus mem < <(slurmd -C | awk '/^NodeName/ {for (i = 1; i <= NF; i++) {split($i, kv, "="); v[kv[1]] = kv[2]} print v["CPUs"], v["RealMemory"]}')
[[ -n ${cpus:-} && -n ${mem:-} ]] || die "slurmd -C did not report CPUs and memory"
mem=$((mem * 9 / 10)) # leave room, or the node is drained as having less memory than configured

dd if=/dev/urandom of="$C/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$C/munge/munge.key"
chmod 700 "$C/munge"
munged --force --key-file="$C/munge/munge.key" --socket="$C/munge/munge.socket" \
    --pid-file="$C/munge/munged.pid" --log-file="$C/munge/munged.log" \
    --seed-file="$C/munge/munged.seed" 2>"$C/log/munged.err" ||
    die "munged did not start: $(cat "$C/log/munged.err")"
munge -S "$C/munge/munge.socket" -n </dev/null | unmunge -S "$C/munge/munge.socket" >/dev/null ||
    die "munge credential round trip failed"

cat >"$C/slurm.conf" <<EOF
# Throwaway single-node cluster of scripts/slurm/test-local-slurm.sh
ClusterName=nimlabtest
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
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$C/log/jobcomp.txt
MinJobAge=3600
KillWait=5
MailProg=/bin/true
InactiveLimit=0
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$C/slurm.conf

slurmctld -c -f "$SLURM_CONF" || die "slurmctld did not start (see $C/log/slurmctld.log)"
slurmd -f "$SLURM_CONF" || die "slurmd did not start (see $C/log/slurmd.log)"
t=0
until [[ $(sinfo -h -n "$host" -o %T 2>/dev/null) == idle ]]; do
    ((t++ < 120)) || die "node $host not idle after 60 s: $(sinfo -h -N -o '%N %T %E' 2>&1) (see $C/log/)"
    sleep 0.5
done
pass "single-node Slurm up: node $host (127.0.0.1), $cpus CPUs, ${mem} MB, ports $PORT/$((PORT + 1))"

# ---------------------------------------------------------------- helpers
# Waits until none of the given jobs is pending or running. Returns 1 on timeout.
wait_jobs() { # ids-comma-separated
    local t0=$SECONDS
    while [[ -n $(squeue -h -j "$1" -o %i 2>/dev/null) ]]; do
        ((SECONDS - t0 < TIMEOUT)) || { echo "timeout after ${TIMEOUT}s waiting for $1: $(squeue -h -j "$1" -o '%i %T %r')"; return 1; }
        sleep 0.25
    done
}
# Waits until the job's state/reason match a regex, e.g. 'PENDING DependencyNeverSatisfied'.
wait_state() { # id regex
    local t0=$SECONDS
    until [[ "$(job_field "$1" JobState) $(job_field "$1" Reason)" =~ $2 ]]; do
        ((SECONDS - t0 < 60)) || return 1
        sleep 0.5
    done
}
# One field of `scontrol show job` for a job or array task (1234 or 1234_2).
job_field() { scontrol -o show job "$1" 2>/dev/null | head -1 | tr ' ' '\n' | sed -n "s/^$2=//p"; }
# "task state exit start end" lines for every task of an array job.
array_tasks() {
    scontrol -o show job "$1" | tr ' ' '\n' | awk -F= '
        $1 == "ArrayTaskId" {t = $2} $1 == "JobState" {s = $2} $1 == "ExitCode" {x = $2}
        $1 == "StartTime" {b = $2} $1 == "EndTime" {e = $2; print t, s, x, b, e}' | sort -n
}
# Chunks computed and reused by the last run recorded in a task log ("computed reused").
last_run_chunks() {
    awk '/^nimlab-array: start/ {c = 0; r = 0}
         /chunks computed, [0-9]+ reused\)/ {s = $0; sub(/.*\(/, "", s); split(s, a, " "); c += a[1]; r += a[4]}
         END {print c + 0, r + 0}' "$1"
}
# Sub-second elapsed time that nimlab-array/merge.sbatch print in their logs.
log_elapsed() { grep -h 'elapsed' "$@" 2>/dev/null | tail -1 | sed 's/.*elapsed \([0-9.]*\) s.*/\1/'; }
# Every data and table file of an experiment, relative: parts, chunk records, tables, figures.
data_files() { (cd "$1" && find . -type f \( -name '*.parquet' -o -path '*/_chunks/*' -o -path '*/tables/*' -o -path '*/figures/*' \) | LC_ALL=C sort); }
fingerprint() { (cd "$1" && data_files . | xargs -r sha256sum); }

# cmp every Parquet part and rendered table of two outputs of the experiment.
compare_with_single() { # label dir
    local label=$1 dir=$2 ok=1 n_parts=0 n_tables=0 f
    local a=$WORK/single/$EXP b=$dir/$EXP
    if ! diff <(cd "$a" && find . -name '*.parquet' | LC_ALL=C sort) <(cd "$b" && find . -name '*.parquet' | LC_ALL=C sort) >"$WORK/diff-$label.txt"; then
        fail "$label: the part files differ in name from the single run's (see $WORK/diff-$label.txt)"
        return
    fi
    while read -r f; do
        n_parts=$((n_parts + 1))
        cmp -s "$a/$f" "$b/$f" || { ok=0; echo "  differs: $f"; }
    done < <(cd "$a" && find . -name '*.parquet' | LC_ALL=C sort)
    local datasets
    datasets=$(cd "$a" && find . -name '*.parquet' -printf '%h\n' | LC_ALL=C sort -u | sed 's|^\./||' | paste -sd' ')
    ((ok)) && pass "$label: $n_parts Parquet part files identical to the single run (cmp) in datasets: $datasets" ||
        fail "$label: Parquet part files differ from the single run"
    # CSV tables: the same set, byte for byte. Markdown tables: those both have.
    if ! diff <(cd "$a" && find . -path '*/tables/*.csv' | LC_ALL=C sort) <(cd "$b" && find . -path '*/tables/*.csv' | LC_ALL=C sort) >/dev/null; then
        fail "$label: the CSV tables differ in name from the single run's"
    fi
    ok=1
    local n_md=0 only=()
    while read -r f; do
        if [[ $f == *.csv ]]; then
            n_tables=$((n_tables + 1))
            cmp -s "$a/$f" "$b/$f" || { ok=0; echo "  differs: $f"; }
        elif [[ -f $b/$f ]]; then
            n_md=$((n_md + 1))
            cmp -s "$a/$f" "$b/$f" || { ok=0; echo "  differs: $f"; }
        else
            only+=("${f#./}")
        fi
    done < <(cd "$a" && find . -path '*/tables/*' -type f | LC_ALL=C sort)
    ((n_tables > 0 && ok)) && pass "$label: $n_tables rendered CSV tables and $n_md Markdown tables identical to the single run (cmp)" ||
        fail "$label: rendered tables differ from the single run (or no CSV table)"
    ((${#only[@]})) && echo "NOTE $label: written by a plain run but not by nimlab merge: ${only[*]}"
    ok=1
    local n_fig=0
    while read -r f; do
        n_fig=$((n_fig + 1))
        [[ -f $b/$f ]] && cmp -s "$a/$f" "$b/$f" || ok=0
    done < <(cd "$a" && find . -path '*/figures/*' -type f | LC_ALL=C sort)
    ((ok)) && pass "$label: $n_fig figures identical to the single run (cmp)" || fail "$label: figures differ from the single run"
    if [[ -n $(find "$dir" -name '*.tmp-*' -o -name '.*.tmp*') ]]; then
        fail "$label: temporary files left: $(find "$dir" -name '*.tmp-*' | head -3)"
    fi
}

# ---------------------------------------------------------------- reference
info "single-machine reference: nimlab run $SPEC --out $WORK/single"
t0=$(now)
"$bin" run "$SPEC" --out "$WORK/single" -q || die "single-machine nimlab run failed"
single_s=$(secs "$t0" "$(now)")
pass "single-machine run: ${single_s} s on $cpus threads"

# ---------------------------------------------------------------- 1. sweep
OUT=$WORK/out
info "1. scripts/slurm/submit.sh --cpus 1 $SPEC $OUT $N"
t_submit=$(now)
"$slurm_scripts/submit.sh" --cpus 1 --nimlab "$bin" "$SPEC" "$OUT" "$N" || die "submit.sh failed"
aid=$(awk '$2 == "array" {id = $3} END {print id}' "$OUT/slurm/jobs.log")
mid=$(awk '$2 == "merge" {id = $3} END {print id}' "$OUT/slurm/jobs.log")
[[ -n $aid && -n $mid ]] || die "no job ids in $OUT/slurm/jobs.log"
[[ $(job_field "$mid" Dependency) == *afterok:${aid}* ]] && pass "merge job $mid depends on afterok:$aid" ||
    fail "merge job $mid dependency is '$(job_field "$mid" Dependency)'"
if wait_jobs "$aid"; then
    t_array=$(now)
    wait_jobs "$mid" || fail "merge job $mid did not finish"
    t_merge=$(now)
    ok=1
    while read -r task state code start end; do
        [[ $state == COMPLETED && $code == 0:0 ]] || ok=0
        el=$(log_elapsed "$OUT/logs/nimlab-resume-${aid}_$task.out")
        echo "  task ${aid}_$task: $state exit $code  $start .. $end  (nimlab ${el:-?} s)"
    done < <(array_tasks "$aid")
    ((ok)) && [[ $(array_tasks "$aid" | wc -l) == "$N" ]] && pass "array job $aid: all $N tasks COMPLETED with exit 0" ||
        fail "array job $aid: not all $N tasks completed: $(array_tasks "$aid" | tr '\n' ';')"
    ms=$(job_field "$mid" JobState)
    [[ $ms == COMPLETED ]] && pass "merge job $mid COMPLETED (nimlab merge $(log_elapsed "$OUT"/logs/nimlab-merge-resume-"$mid".out) s)" ||
        fail "merge job $mid: $ms (see $OUT/logs/)"
    for ((i = 0; i < N; i++)); do
        [[ -s $OUT/logs/nimlab-resume-${aid}_$i.out ]] || fail "no log for task $i"
        [[ -f $OUT/shards/shard-$i/$EXP/manifest-shard-$i-of-$N.json ]] || fail "no manifest for shard $i"
    done
    pass "one log per task in $OUT/logs/ and a manifest per shard"
    sweep_s=$(secs "$t_submit" "$t_array")
    total_s=$(secs "$t_submit" "$t_merge")
    pass "timing: submission -> all $N array tasks done ${sweep_s} s; -> merged ${total_s} s (single machine ${single_s} s)"
    compare_with_single "slurm sweep" "$OUT"
else
    fail "array job $aid did not finish within ${TIMEOUT}s"
fi

# ---------------------------------------------------------------- 2. requeue
info "2. requeue: scontrol requeue ${aid}_2, then sbatch --array=2 again, then the merge again"
fingerprint "$OUT/shards/shard-2/$EXP" >"$WORK/shard2.before"
fingerprint "$OUT/$EXP" >"$WORK/merged.before"
log2=$OUT/logs/nimlab-resume-${aid}_2.out
if scontrol requeue "${aid}_2"; then
    t_r=$(now)
    wait_state "${aid}_2" 'PENDING|RUNNING|CONFIGURING' || true
    # Slurm makes a requeued job wait (BeginTime) before it is eligible again; skip that wait.
    scontrol update JobId="${aid}_2" StartTime=now 2>/dev/null || true
    if wait_jobs "${aid}_2"; then
        st=$(job_field "${aid}_2" JobState) rc=$(job_field "${aid}_2" Restarts)
        read -r comp reused < <(last_run_chunks "$log2")
        if [[ $st == COMPLETED && $(grep -c '^nimlab-array: start' "$log2") -ge 2 && $comp == 0 && $reused -gt 0 ]]; then
            pass "requeued task ${aid}_2 ran again (restarts=$rc, same log appended): 0 chunks computed, $reused reused, COMPLETED $(secs "$t_r" "$(now)") s after the requeue"
        else
            fail "requeued task ${aid}_2: state $st, log $log2"
        fi
    else
        fail "requeued task ${aid}_2 did not finish"
    fi
else
    fail "scontrol requeue ${aid}_2 refused"
fi
rid=$(cd "$repo" && sbatch --parsable --array=2 --cpus-per-task=1 --job-name=nimlab-resume \
    --output="$OUT/logs/%x-%A_%a.out" "$slurm_scripts/nimlab-array.sbatch" "$OUT/slurm/spec/resume.yaml" "$OUT")
rid=${rid%%;*}
if wait_jobs "$rid"; then
    st=$(job_field "${rid}_2" JobState)
    read -r comp reused < <(last_run_chunks "$OUT/logs/nimlab-resume-${rid}_2.out")
    [[ $st == COMPLETED && $comp == 0 && $reused -gt 0 ]] &&
        pass "sbatch --array=2 (job $rid, N from submit.env) COMPLETED: 0 chunks computed, $reused reused" ||
        fail "sbatch --array=2 (job $rid): $st, see $OUT/logs/nimlab-resume-${rid}_2.out"
else
    fail "sbatch --array=2 job $rid did not finish"
fi
fingerprint "$OUT/shards/shard-2/$EXP" >"$WORK/shard2.after"
cmp -s "$WORK/shard2.before" "$WORK/shard2.after" &&
    pass "shard 2 after two more runs: all $(wc -l <"$WORK/shard2.after") part files and chunk records unchanged (sha256)" ||
    fail "shard 2 changed after rerunning it: $(diff "$WORK/shard2.before" "$WORK/shard2.after" | head -5)"
mid2=$(sbatch --parsable --cpus-per-task=1 --job-name=nimlab-merge-resume --output="$OUT/logs/%x-%j.out" \
    "$slurm_scripts/nimlab-merge.sbatch" "$OUT/slurm/spec/resume.yaml" "$OUT")
mid2=${mid2%%;*}
wait_jobs "$mid2" && [[ $(job_field "$mid2" JobState) == COMPLETED ]] &&
    grep -q 'merged 0 chunks' "$OUT/logs/nimlab-merge-resume-$mid2.out" &&
    pass "merge run again (job $mid2): COMPLETED, merged 0 new chunks" || fail "second merge job $mid2 (see $OUT/logs/)"
fingerprint "$OUT/$EXP" >"$WORK/merged.after"
cmp -s "$WORK/merged.before" "$WORK/merged.after" &&
    pass "merged result unchanged after requeue, resubmission and second merge ($(wc -l <"$WORK/merged.after") files, sha256)" ||
    fail "merged result changed: $(diff "$WORK/merged.before" "$WORK/merged.after" | head -5)"
compare_with_single "after requeue" "$OUT"
msg=$("$slurm_scripts/resubmit-failed.sh" "$OUT" 2>&1)
[[ $msg == *"nothing to do"* ]] && pass "resubmit-failed.sh on the finished sweep: nothing to do" ||
    fail "resubmit-failed.sh on a finished sweep: $msg"

# ---------------------------------------------------------------- 3. failure
OUT2=$WORK/out-fail
info "3. failure: shard 1 cannot write (a file where its experiment directory goes), then resubmit-failed.sh"
mkdir -p "$OUT2/shards/shard-1"
echo "blocks shard 1 for the test" >"$OUT2/shards/shard-1/$EXP"
"$slurm_scripts/submit.sh" --cpus 1 --nimlab "$bin" "$SPEC" "$OUT2" "$N" >/dev/null || die "submit.sh (failure test) failed"
faid=$(awk '$2 == "array" {id = $3} END {print id}' "$OUT2/slurm/jobs.log")
fmid=$(awk '$2 == "merge" {id = $3} END {print id}' "$OUT2/slurm/jobs.log")
if wait_jobs "$faid"; then
    states=$(array_tasks "$faid" | awk '{printf "%s:%s(%s) ", $1, $2, $3}')
    [[ $states == "0:COMPLETED(0:0) 1:FAILED("[1-9]*") 2:COMPLETED(0:0) 3:COMPLETED(0:0) " ]] &&
        pass "array job $faid: task 1 FAILED with non-zero exit, others COMPLETED ($states)" ||
        fail "array job $faid states: $states"
    wait_state "$fmid" 'PENDING DependencyNeverSatisfied' &&
        pass "merge job $fmid held: PENDING (DependencyNeverSatisfied)" ||
        fail "merge job $fmid: $(job_field "$fmid" JobState) $(job_field "$fmid" Reason)"
else
    fail "array job $faid did not finish"
fi
rm "$OUT2/shards/shard-1/$EXP"
t_re=$(now)
msg=$("$slurm_scripts/resubmit-failed.sh" "$OUT2" 2>&1)
echo "$msg" | sed 's/^/  | /'
[[ $msg == *"to resubmit: 1;"* ]] && pass "resubmit-failed.sh found exactly shard 1 to resubmit" || fail "resubmit-failed.sh: $msg"
raid=$(awk '$2 == "array" {id = $3} END {print id}' "$OUT2/slurm/jobs.log")
rmid=$(awk '$2 == "merge" {id = $3} END {print id}' "$OUT2/slurm/jobs.log")
[[ $(job_field "$fmid" JobState) == CANCELLED ]] && pass "stale merge job $fmid cancelled" ||
    fail "stale merge job $fmid: $(job_field "$fmid" JobState)"
if [[ $raid != "$faid" ]] && wait_jobs "$raid,$rmid"; then
    tasks=$(array_tasks "$raid" | awk '{printf "%s:%s ", $1, $2}')
    [[ $tasks == "1:COMPLETED " ]] && pass "resubmitted array job $raid ran only shard 1: COMPLETED" ||
        fail "resubmitted array job $raid: $tasks"
    [[ $(job_field "$rmid" JobState) == COMPLETED ]] &&
        pass "new merge job $rmid COMPLETED; resubmission to merged: $(secs "$t_re" "$(now)") s" ||
        fail "new merge job $rmid: $(job_field "$rmid" JobState)"
    compare_with_single "after failure + resubmit-failed" "$OUT2"
else
    fail "resubmitted jobs $raid/$rmid did not finish"
fi

# ---------------------------------------------------------------- summary
info "per-task timings (sweep 1, from the task logs)"
for f in "$OUT"/logs/nimlab-resume-"${aid}"_*.out "$OUT"/logs/nimlab-merge-resume-"$mid".out; do
    grep -h 'elapsed' "$f" | sed "s|^[a-z-]*: |  $(basename "$f"): |"
done
if ((failures)); then
    echo "FAIL $failures check(s) failed (cluster logs: $C/log/, job logs: $OUT/logs/, $OUT2/logs/)"
    exit 1
fi
echo "PASS all checks"
