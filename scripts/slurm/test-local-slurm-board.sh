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
#   1. the reference: `nimlab board lines solve --in-memory` (the whole 2^36-bit table,
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

WORK=${NIMLAB_SLURM_TEST_DIR:-/tmp/nimlab-slurm-board-test}
TIMEOUT=${NIMLAB_SLURM_TIMEOUT:-1800}
PORT=${NIMLAB_SLURM_PORT:-16827}
# shellcheck source=scripts/slurm/local-cluster.sh
. "$(dirname "${BASH_SOURCE[0]}")/local-cluster.sh"
ROWS=${NIMLAB_BOARD_ROWS:-8}
MEM=1G
MEM_BYTES=$((1 << 30))

cluster_prepare
cluster_install
cluster_binary
# Memory is a consumable resource and a task above its --mem is killed.
cluster_start nimlabboard CR_Core_Memory "JobAcctGatherType=jobacct_gather/linux
JobAcctGatherFrequency=task=1
JobAcctGatherParams=OverMemoryKill
JobCompType=jobcomp/none"

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
    info "$play: the reference, nimlab board lines solve --in-memory ${board[*]} --play $play"
    t0=$(now)
    "$bin" board lines solve --in-memory "${board[@]}" --play "$play" >"$WORK/ref-$play.txt" 2>"$WORK/ref-$play.err" ||
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
