#!/bin/bash
# Submits a nimlab sweep to Slurm: a job array of N shards and a merge job that
# runs when all of them have succeeded (--dependency=afterok:<array job>).
#
#   scripts/slurm/submit.sh [options] SPEC OUTDIR N [-- sbatch options...]
#
#   -c, --cpus C         CPUs (nimlab threads) per shard task      [4]
#   -t, --time T         time limit per shard task (sbatch --time)  [partition default]
#       --mem M          memory per shard task (sbatch --mem)       [partition default]
#       --max-running K  run at most K shard tasks at once (--array=...%K)
#       --merge-cpus C   CPUs of the merge job                      [same as --cpus]
#       --merge-time T   time limit of the merge job                [partition default]
#       --nimlab PATH    nimlab binary  [nimlab on PATH, else target/release/nimlab of this repo]
#       --no-merge       do not queue the merge job
#       --dry-run        print the sbatch commands and exit (the snapshots in
#                        OUTDIR/slurm/ are made, nothing is submitted)
#   -- ...               further sbatch options for both jobs (-p PARTITION, -A ACCOUNT, --qos ...)
#
# OUTDIR must be on a filesystem that every node sees. Layout:
#   OUTDIR/slurm/    spec and nimlab binary snapshots, submit.env, jobs.log
#   OUTDIR/shards/   shard-I/: the output of shard I (`nimlab run --shard I/N`)
#   OUTDIR/logs/     one log per array task (%x-%A_%a.out) and per merge job
#   OUTDIR/<experiment>/  the merged result, as `nimlab run --out OUTDIR` writes it
#
# The spec and the binary are copied into OUTDIR/slurm/ at the first
# submission, so all tasks, later resubmissions and the merge use the same
# ones even if you edit the spec or rebuild nimlab meanwhile. Submitting again
# to the same OUTDIR is safe (finished chunks are reused); a different spec or
# N for an existing OUTDIR is refused.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
die() { echo "submit.sh: $*" >&2; exit 2; }
usage() { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; exit "${1:-2}"; }

cpus=4 time= mem= max_running= merge_cpus= merge_time= nimlab= merge=1 dry=0
pos=() extra=()
while (($#)); do
    case $1 in
        -c | --cpus) cpus=$2; shift 2 ;;
        -t | --time) time=$2; shift 2 ;;
        --mem) mem=$2; shift 2 ;;
        --max-running) max_running=$2; shift 2 ;;
        --merge-cpus) merge_cpus=$2; shift 2 ;;
        --merge-time) merge_time=$2; shift 2 ;;
        --nimlab) nimlab=$2; shift 2 ;;
        --no-merge) merge=0; shift ;;
        --dry-run) dry=1; shift ;;
        -h | --help) usage 0 ;;
        --) shift; extra=("$@"); break ;;
        -*) die "unknown option $1 (sbatch options go after --)" ;;
        *) pos+=("$1"); shift ;;
    esac
done
((${#pos[@]} == 3)) || usage
spec=${pos[0]} outdir=${pos[1]} n=${pos[2]}
[[ $n =~ ^[1-9][0-9]*$ ]] || die "N must be a positive number, not '$n'"
[[ $cpus =~ ^[1-9][0-9]*$ ]] || die "--cpus must be a positive number, not '$cpus'"
[[ -z $max_running || $max_running =~ ^[1-9][0-9]*$ ]] || die "--max-running must be a positive number"
merge_cpus=${merge_cpus:-$cpus}
[[ -e $spec ]] || die "spec $spec not found"
command -v sbatch >/dev/null || die "sbatch not found: run this on a Slurm login node"

if [[ -z $nimlab ]]; then
    nimlab=$(command -v nimlab || echo "$repo/target/release/nimlab")
fi
[[ -x $nimlab ]] || die "nimlab binary $nimlab not found (build it with cargo build --release, or pass --nimlab PATH)"

mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)
state=$outdir/slurm
mkdir -p "$state/spec" "$state/bin" "$outdir/shards" "$outdir/logs"

# Snapshot of the spec (a file, or the *.yaml directly in a directory).
name=$(basename "$spec")
snap=$state/spec/$name
if [[ -d $spec ]]; then
    tmp=$(mktemp -d "$state/spec/.tmp.XXXXXX")
    cp -p "$spec"/*.yaml "$tmp"/ 2>/dev/null || die "no *.yaml in $spec"
    if [[ -e $snap ]]; then
        diff -r -q "$tmp" "$snap" >/dev/null || { rm -rf "$tmp"; die "$outdir was started with a different $snap; use a new OUTDIR (or delete it)"; }
        rm -rf "$tmp"
    else
        mv "$tmp" "$snap"
    fi
else
    if [[ -e $snap ]]; then
        cmp -s "$spec" "$snap" || die "$outdir was started with a different spec ($snap); use a new OUTDIR (or delete it)"
    else
        cp -p "$spec" "$snap.tmp.$$" && mv "$snap.tmp.$$" "$snap"
    fi
fi

# Snapshot of the binary.
bin=$state/bin/nimlab
if [[ ! -x $bin ]]; then
    cp "$nimlab" "$bin.tmp.$$" && mv "$bin.tmp.$$" "$bin"
elif ! cmp -s "$nimlab" "$bin"; then
    echo "submit.sh: note: keeping the nimlab already used for $outdir ($bin: $("$bin" --version)); $nimlab differs" >&2
fi

# Experiments in the spec (their manifests tell which shards are complete).
exps=$("$bin" run "$snap" --list | sort -u | tr '\n' ' ')
exps=${exps% }
[[ -n $exps ]] || die "no experiment found in $snap"
for e in $exps; do
    case $e in slurm | shards | logs) die "experiment name '$e' collides with $outdir/$e/ used by these scripts" ;; esac
done

env_file=$state/submit.env
if [[ -f $env_file ]]; then
    old_n=$(. "$env_file" && echo "$NIMLAB_SHARDS")
    [[ $old_n == "$n" ]] || die "$outdir was submitted with N=$old_n; use the same N (resubmit-failed.sh) or a new OUTDIR"
fi

base=$(basename "$name" .yaml)
array_opts=(--parsable --job-name "nimlab-$base" --array "0-$((n - 1))${max_running:+%$max_running}"
    --cpus-per-task "$cpus" --output "$outdir/logs/%x-%A_%a.out" --export "ALL,NIMLAB=$bin")
[[ -n $time ]] && array_opts+=(--time "$time")
[[ -n $mem ]] && array_opts+=(--mem "$mem")
merge_opts=(--parsable --job-name "nimlab-merge-$base" --cpus-per-task "$merge_cpus"
    --output "$outdir/logs/%x-%j.out" --export "ALL,NIMLAB=$bin")
[[ -n $merge_time ]] && merge_opts+=(--time "$merge_time")
[[ -n $mem ]] && merge_opts+=(--mem "$mem")

if ((dry)); then
    printf '%q ' sbatch "${array_opts[@]}" "${extra[@]}" "$here/nimlab-array.sbatch" "$snap" "$outdir" "$n"; echo
    ((merge)) && { printf '%q ' sbatch "${merge_opts[@]}" --dependency 'afterok:<array job>' "${extra[@]}" \
        "$here/nimlab-merge.sbatch" "$snap" "$outdir" "$n"; echo; }
    exit 0
fi

# Recorded for resubmit-failed.sh.
{
    printf 'NIMLAB_SPEC=%q\nNIMLAB_OUTDIR=%q\nNIMLAB_SHARDS=%q\nNIMLAB_EXPERIMENTS=%q\n' "$snap" "$outdir" "$n" "$exps"
    printf 'NIMLAB_JOB_BASE=%q\nNIMLAB_CPUS=%q\nNIMLAB_TIME=%q\nNIMLAB_MEM=%q\n' "$base" "$cpus" "$time" "$mem"
    printf 'NIMLAB_MERGE_CPUS=%q\nNIMLAB_MERGE_TIME=%q\nNIMLAB_SCRIPTS=%q\n' "$merge_cpus" "$merge_time" "$here"
    printf 'NIMLAB_SBATCH_EXTRA=(%s)\n' "$(((${#extra[@]})) && printf '%q ' "${extra[@]}")"
} >"$env_file.tmp.$$"
mv "$env_file.tmp.$$" "$env_file"

array_id=$(sbatch "${array_opts[@]}" "${extra[@]}" "$here/nimlab-array.sbatch" "$snap" "$outdir" "$n")
array_id=${array_id%%;*}
echo "$(date -Is) array $array_id shards 0-$((n - 1)) of $n" >>"$state/jobs.log"
echo "submitted array job $array_id: shards 0-$((n - 1)) of $n, $cpus CPUs each"
if ((merge)); then
    merge_id=$(sbatch "${merge_opts[@]}" --dependency "afterok:$array_id" "${extra[@]}" \
        "$here/nimlab-merge.sbatch" "$snap" "$outdir" "$n")
    merge_id=${merge_id%%;*}
    echo "$(date -Is) merge $merge_id afterok:$array_id" >>"$state/jobs.log"
    echo "submitted merge job $merge_id (runs after all shards succeed)"
fi
echo "logs:    $outdir/logs/"
echo "watch:   squeue -j $array_id${merge_id:+,$merge_id}"
echo "failed?  $here/resubmit-failed.sh $outdir"
echo "result:  $outdir/<experiment>/ (${exps// /, })"
