#!/bin/bash
# Resubmits only the shards of a submit.sh sweep that have not finished, then
# queues a fresh merge job after them.
#
#   scripts/slurm/resubmit-failed.sh [--dry-run] OUTDIR [-- sbatch options...]
#
# A shard is finished when nimlab wrote its manifest for every experiment of
# the spec (OUTDIR/shards/shard-I/<experiment>/manifest-shard-I-of-N.json;
# nimlab writes it last, only on success). A shard still pending or running in
# one of this sweep's array jobs (OUTDIR/slurm/jobs.log) is left alone. The
# others (failed, cancelled, timed out, node failure, never started) are
# resubmitted as one array `--array=I,J,...` with the options recorded by
# submit.sh (plus any given after --); their finished chunks are reused. A
# merge job of this sweep that is still pending (its afterok dependency can no
# longer be met once a shard failed) is cancelled and a new one queued after
# the resubmitted and still-running shards. With every shard finished and no
# merged result yet, only the merge is queued. Safe to run any number of times.
set -euo pipefail

die() { echo "resubmit-failed.sh: $*" >&2; exit 2; }
dry=0 pos=() extra=()
while (($#)); do
    case $1 in
        --dry-run) dry=1; shift ;;
        -h | --help) sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        --) shift; extra=("$@"); break ;;
        -*) die "unknown option $1" ;;
        *) pos+=("$1"); shift ;;
    esac
done
((${#pos[@]} == 1)) || die "usage: resubmit-failed.sh [--dry-run] OUTDIR [-- sbatch options...]"
outdir=$(cd "${pos[0]}" && pwd) || die "no directory ${pos[0]}"
env_file=$outdir/slurm/submit.env
[[ -f $env_file ]] || die "$env_file not found: was this OUTDIR submitted with submit.sh?"
NIMLAB_SBATCH_EXTRA=()
# shellcheck source=/dev/null
. "$env_file"
n=$NIMLAB_SHARDS spec=$NIMLAB_SPEC bin=$outdir/slurm/bin/nimlab here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
extra=("${NIMLAB_SBATCH_EXTRA[@]}" "${extra[@]}")
jobs_log=$outdir/slurm/jobs.log

# Jobs of this sweep that Slurm still knows as active ("jobid_task STATE" or
# "jobid STATE"); asked by user rather than by job id, since squeue rejects ids
# it has already forgotten.
array_ids=$(awk '$2 == "array" {print $3}' "$jobs_log" 2>/dev/null | sort -u | paste -sd, -)
merge_ids=$(awk '$2 == "merge" {print $3}' "$jobs_log" 2>/dev/null | sort -u | paste -sd, -)
queue=$(squeue -h -r -u "$(id -un)" -o '%i %T' 2>/dev/null) || die "squeue failed"
active=()   # array tasks still pending/running, as jobid_task
declare -A running=()
while read -r id st; do
    [[ $id =~ ^([0-9]+)_([0-9]+)$ ]] || continue
    [[ ,$array_ids, == *,${BASH_REMATCH[1]},* ]] || continue
    running[${BASH_REMATCH[2]}]=$st
    active+=("$id")
done <<<"$queue"

# Optional: what Slurm's accounting says (only where sacct works).
if [[ -n $array_ids ]] && sacct -n -X -j "$array_ids" -o JobID >/dev/null 2>&1; then
    echo "Slurm accounting for array jobs $array_ids (non-completed tasks):"
    sacct -n -X -P -j "$array_ids" -o JobID,State,ExitCode,Elapsed,NodeList |
        awk -F'|' '$2 != "COMPLETED" {printf "  %-16s %-14s exit %-6s %s %s\n", $1, $2, $3, $4, $5}'
fi

done_=() todo=()
for ((i = 0; i < n; i++)); do
    ok=1
    for e in $NIMLAB_EXPERIMENTS; do
        [[ -f $outdir/shards/shard-$i/$e/manifest-shard-$i-of-$n.json ]] || ok=0
    done
    if ((ok)); then
        done_+=("$i")
    elif [[ -n ${running[$i]:-} ]]; then
        echo "shard $i/$n: ${running[$i]} (left alone)"
    else
        todo+=("$i")
    fi
done
echo "shards finished: ${#done_[@]}/$n; to resubmit: ${todo[*]:-none}; still queued/running: ${#active[@]}"

# Merge jobs of this sweep still queued: pending ones are replaced.
pending_merges=() merge_running=0
while read -r id st; do
    [[ -n $id && ,$merge_ids, == *,$id,* ]] || continue
    if [[ $st == PENDING ]]; then pending_merges+=("$id"); else merge_running=1; fi
done <<<"$queue"
merged=1
for e in $NIMLAB_EXPERIMENTS; do [[ -f $outdir/$e/manifest.json ]] || merged=0; done

run() { if ((dry)); then echo "would run: $*" >&2; echo 0; else "$@"; fi; }

dep=()
if ((${#todo[@]})); then
    list=$(IFS=,; echo "${todo[*]}")
    opts=(--parsable --job-name "nimlab-$NIMLAB_JOB_BASE" --array "$list" --cpus-per-task "$NIMLAB_CPUS"
        --output "$outdir/logs/%x-%A_%a.out" --export "ALL,NIMLAB=$bin")
    [[ -n $NIMLAB_TIME ]] && opts+=(--time "$NIMLAB_TIME")
    [[ -n $NIMLAB_MEM ]] && opts+=(--mem "$NIMLAB_MEM")
    id=$(run sbatch "${opts[@]}" "${extra[@]}" "$here/nimlab-array.sbatch" "$spec" "$outdir" "$n")
    id=${id%%;*}
    if ((!dry)); then
        echo "$(date -Is) array $id shards $list of $n (resubmitted)" >>"$jobs_log"
    fi
    echo "resubmitted shards $list as array job $id"
    dep=("$id")
fi
dep+=("${active[@]}")

if ((${#dep[@]} == 0)) && ((merged)) && ((${#pending_merges[@]} == 0)); then
    echo "all $n shards finished and merged into $outdir; nothing to do"
    exit 0
fi
if ((${#dep[@]} == 0 && merge_running)); then
    echo "a merge job of this sweep is running; nothing to do"
    exit 0
fi
for m in "${pending_merges[@]}"; do
    run scancel "$m" >/dev/null
    echo "cancelled pending merge job $m"
done
mopts=(--parsable --job-name "nimlab-merge-$NIMLAB_JOB_BASE" --cpus-per-task "$NIMLAB_MERGE_CPUS"
    --output "$outdir/logs/%x-%j.out" --export "ALL,NIMLAB=$bin")
[[ -n $NIMLAB_MERGE_TIME ]] && mopts+=(--time "$NIMLAB_MERGE_TIME")
[[ -n $NIMLAB_MEM ]] && mopts+=(--mem "$NIMLAB_MEM")
if ((${#dep[@]})); then
    mopts+=(--dependency "afterok:$(IFS=:; echo "${dep[*]}")")
fi
mid=$(run sbatch "${mopts[@]}" "${extra[@]}" "$here/nimlab-merge.sbatch" "$spec" "$outdir" "$n")
mid=${mid%%;*}
if ((!dry)); then
    echo "$(date -Is) merge $mid ${dep[*]:+afterok:$(IFS=:; echo "${dep[*]}")}" >>"$jobs_log"
fi
echo "queued merge job $mid${dep[*]:+ after ${dep[*]}}"
