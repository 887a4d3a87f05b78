#!/usr/bin/env bash
# Out-of-core against in-memory on one board (default: the 8-row triangle,
# runs ≤ 3, misère): `nimlab board lines solve --in-memory` (the whole 2^n-bit
# table) and `nimlab board lines solve --memory BUDGET --dir DIR` (slice files), run
# back to back ROUNDS times, alternating, each under /usr/bin/time -v; prints
# every wall time, peak memory and the sliced run's I/O, then the medians and
# their ratio, and checks that the two answers are identical (cmp).
#
#   scripts/bench-board8.sh [ROWS] [BUDGET] [ROUNDS] [DIR] [-- extra board lines solve options]
#   defaults: 8 2GiB 3 ./target/bench-board   (needs ~9 GiB free memory for 8 rows,
#   ~3 GiB of disk for the slices with symmetry, 8 GiB with --symmetry off)
set -euo pipefail
cd "$(dirname "$0")/.."
rows=${1:-8}; budget=${2:-2GiB}; rounds=${3:-3}; dir=${4:-target/bench-board}
shift $(($# < 4 ? $# : 4)); [[ ${1:-} == -- ]] && shift
extra=("$@")
cargo build --release -q
bin=target/release/nimlab
board=(--triangle "$rows" --take max:3 --play misere)
[[ -x /usr/bin/time ]] || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 1; }
run() { # label outfile cmd...
    local label=$1 out=$2; shift 2
    /usr/bin/time -v "$@" >"$out" 2>"$out.err"
    local wall rss
    wall=$(awk -F': ' '/Elapsed/ {n = split($2, a, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + a[i]; print s}' "$out.err")
    rss=$(awk -F': ' '/Maximum resident/ {printf "%.0f", $2 / 1024}' "$out.err")
    echo "$label: ${wall} s, peak ${rss} MiB $(grep -ho 'slice files.*written[^;]*;[^;]*' "$out.err" || true)" >&2
    echo "$wall"
}
mem=() oc=()
for ((i = 1; i <= rounds; i++)); do
    mem+=("$(run "in-memory   #$i" "$dir.mem.txt" "$bin" board lines solve --in-memory "${board[@]}")")
    rm -rf "$dir"
    oc+=("$(run "out-of-core #$i" "$dir.oc.txt" "$bin" board lines solve "${board[@]}" --memory "$budget" --dir "$dir" "${extra[@]}")")
    cmp -s "$dir.mem.txt" "$dir.oc.txt" || { echo "FAIL: the answers differ" >&2; exit 1; }
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
m=$(median "${mem[@]}"); o=$(median "${oc[@]}")
echo "T($rows) misère runs ≤ 3: in-memory median $m s, out-of-core ($budget) median $o s, ratio $(awk -v a="$o" -v b="$m" 'BEGIN{printf "%.2f", a / b}'); answers identical"
rm -rf "$dir"
