#!/bin/bash
# Submits one board's sliced exhaustive analysis to Slurm: one job array per
# wave (wave k = the slices with k slice pieces; each array task solves one
# representative slice, or a group of them), each wave after the previous one
# (--dependency=afterok), then a finish job that sums the counts and finds the
# winning first moves.
#
#   scripts/slurm/board-submit.sh [options] DIR BOARD-ARGS...
#
#   BOARD-ARGS   the position and how to cut it, as for `nimlab board FAMILY plan`,
#                e.g. --triangle 8 --take max:3 --play misere  [--slice-pieces T --symmetry off]
#   -f, --family F       the family solving the position (`nimlab board F`)   [lines]
#   -c, --cpus C         CPUs (threads) per task                         [1]
#       --mem M          memory per task (sbatch --mem, e.g. 1G); the plan
#                        is made so that one slice solve fits in it       [4G]
#   -t, --time T         time limit per task                            [partition default]
#   -g, --group G        representative slices per array task            [1]
#       --max-running K  at most K tasks of a wave at once (--array=...%K)
#       --sbatch OPT     one more sbatch option for every job (repeatable),
#                        e.g. --sbatch --partition=compute --sbatch --account=me
#       --nimlab PATH    nimlab binary   [nimlab on PATH, else target/release/nimlab]
#       --drop-cache     tasks drop slice files from the page cache after use
#       --dry-run        plan, print the sbatch commands, submit nothing
#
# DIR must be on a filesystem every node sees. Layout: DIR/plan.json,
# DIR/slices/wKK/*.bits|json (see docs/families/lines-slices.md),
# DIR/slurm/bin/nimlab (snapshot) and jobs.log, DIR/logs/ (one log per task),
# DIR/result.txt, result.json and data/ (Parquet datasets; the finish job).
#
# Requeue-safe and resumable: a task whose slices are complete exits at once;
# slices are written atomically (a slice written twice is the same file).
# Submitting again to the same DIR skips the waves already complete and
# resubmits the rest (with the same board; another board is refused).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
die() { echo "board-submit.sh: $*" >&2; exit 2; }
usage() { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; exit "${1:-2}"; }

cpus=1 mem=4G time= group=1 max_running= nimlab= dry=0 drop=() family=lines
extra=()
while (($#)); do
    case $1 in
        -c | --cpus) cpus=$2; shift 2 ;;
        -f | --family) family=$2; shift 2 ;;
        --mem) mem=$2; shift 2 ;;
        -t | --time) time=$2; shift 2 ;;
        -g | --group) group=$2; shift 2 ;;
        --max-running) max_running=$2; shift 2 ;;
        --sbatch) extra+=("$2"); shift 2 ;;
        --nimlab) nimlab=$2; shift 2 ;;
        --drop-cache) drop=(--drop-cache); shift ;;
        --dry-run) dry=1; shift ;;
        -h | --help) usage 0 ;;
        -*) die "unknown option $1 (the board arguments come after DIR)" ;;
        *) break ;;
    esac
done
(($# >= 2)) || usage
dir=$1
shift
board=("$@")
[[ $cpus =~ ^[1-9][0-9]*$ ]] || die "--cpus must be a positive number, not '$cpus'"
[[ $group =~ ^[1-9][0-9]*$ ]] || die "--group must be a positive number, not '$group'"
[[ -z $max_running || $max_running =~ ^[1-9][0-9]*$ ]] || die "--max-running must be a positive number"
((dry)) || command -v sbatch >/dev/null || die "sbatch not found: run this on a Slurm login node"
if [[ -z $nimlab ]]; then
    nimlab=$(command -v nimlab || echo "$repo/target/release/nimlab")
fi
[[ -x $nimlab ]] || die "nimlab binary $nimlab not found (cargo build --release, or --nimlab PATH)"

mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
mkdir -p "$dir/slurm/bin" "$dir/logs"
bin=$dir/slurm/bin/nimlab
if [[ ! -x $bin ]]; then
    cp "$nimlab" "$bin.tmp.$$" && mv "$bin.tmp.$$" "$bin"
elif ! cmp -s "$nimlab" "$bin"; then
    echo "board-submit.sh: note: keeping the nimlab already used for $dir ($bin); $nimlab differs" >&2
fi

# The plan (made once; a new submission must name the same board and rule).
"$bin" board "$family" plan "${board[@]}" --memory "$mem" --threads "$cpus" --dir "$dir" ||
    die "nimlab board $family plan failed"

mapfile -t waves < <("$bin" board "$family" status --dir "$dir" --waves)
((${#waves[@]})) || die "no waves in $dir/plan.json"
common=(--parsable --cpus-per-task "$cpus" --mem "$mem" --export "ALL,NIMLAB=$bin,NIMLAB_BOARD_FAMILY=$family")
[[ -n $time ]] && common+=(--time "$time")
prev=
submitted=0
for line in "${waves[@]}"; do
    read -r k stored complete <<<"$line"
    if ((complete == stored)); then
        echo "wave $k: $stored slices complete already"
        continue
    fi
    tasks=$(((stored + group - 1) / group))
    opts=("${common[@]}" --job-name "nimlab-board-w$k" --array "0-$((tasks - 1))${max_running:+%$max_running}"
        --output "$dir/logs/%x-%A_%a.out")
    [[ -n $prev ]] && opts+=(--dependency "afterok:$prev")
    cmd=(sbatch "${opts[@]}" "${extra[@]}" "$here/board-slice.sbatch" "$dir" "$k" "$group" "${drop[@]}")
    if ((dry)); then
        printf '%q ' "${cmd[@]}"; echo
        prev="<wave $k>"
        continue
    fi
    id=$("${cmd[@]}")
    id=${id%%;*}
    echo "$(date -Is) wave $k array $id tasks $tasks group $group slices $stored" >>"$dir/slurm/jobs.log"
    echo "wave $k: array job $id, $tasks tasks for $stored slices${prev:+ (after $prev)}"
    prev=$id
    submitted=$((submitted + 1))
done
fopts=(--parsable --cpus-per-task 1 --mem "$mem" --job-name nimlab-board-finish
    --output "$dir/logs/%x-%j.out" --export "ALL,NIMLAB=$bin,NIMLAB_BOARD_FAMILY=$family")
[[ -n $time ]] && fopts+=(--time "$time")
[[ -n $prev ]] && fopts+=(--dependency "afterok:$prev")
cmd=(sbatch "${fopts[@]}" "${extra[@]}" "$here/board-finish.sbatch" "$dir")
if ((dry)); then
    printf '%q ' "${cmd[@]}"; echo
    exit 0
fi
fid=$("${cmd[@]}")
fid=${fid%%;*}
echo "$(date -Is) finish $fid${prev:+ afterok:$prev}" >>"$dir/slurm/jobs.log"
echo "finish job $fid${prev:+ (after $prev)}"
echo "logs:    $dir/logs/"
echo "status:  $bin board $family status --dir $dir"
echo "result:  $dir/result.txt"
