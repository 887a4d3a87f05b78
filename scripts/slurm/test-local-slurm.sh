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

WORK=${NIMLAB_SLURM_TEST_DIR:-/tmp/nimlab-slurm-test}
TIMEOUT=${NIMLAB_SLURM_TIMEOUT:-300}
PORT=${NIMLAB_SLURM_PORT:-16817}
# shellcheck source=scripts/slurm/local-cluster.sh
. "$(dirname "${BASH_SOURCE[0]}")/local-cluster.sh"
SPEC=$repo/tests/fixtures/valid/resume.yaml
EXP=resume
N=4

cluster_prepare
mkdir -p "$WORK/out"
cluster_install
cluster_binary
cluster_start nimlabtest CR_Core "JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/filetxt
JobCompLoc=$C/log/jobcomp.txt"

# ---------------------------------------------------------------- helpers
# Waits until the job's state/reason match a regex, e.g. 'PENDING DependencyNeverSatisfied'.
wait_state() { # id regex
    local t0=$SECONDS
    until [[ "$(job_field "$1" JobState) $(job_field "$1" Reason)" =~ $2 ]]; do
        ((SECONDS - t0 < 60)) || return 1
        sleep 0.5
    done
}
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
