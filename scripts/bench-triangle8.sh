#!/usr/bin/env bash
# Issue 3's big exhaustive case: the triangle of 8 rows (36 pieces, 2^36
# positions, 8 GiB of bits), misère, runs of at most 3 pieces, whole table.
# Prints the solve time, the P-positions per piece count, the outcome of the
# full board and its winning first moves, then /usr/bin/time's wall time and
# peak memory (maximum resident set size).
#
#   scripts/bench-triangle8.sh [ROWS] [THREADS]   (defaults: 8 rows, 2 threads)
#
# Needs about 8.1 GiB free for 8 rows (ROWS=7: 32 MiB).
set -euo pipefail
cd "$(dirname "$0")/.."
rows="${1:-8}"
threads="${2:-2}"
exe=$(cargo bench --bench lines_retro --no-run --message-format=json 2>/dev/null \
  | sed -n 's/.*"target":{[^}]*"name":"lines_retro"[^}]*}.*"executable":"\([^"]*\)".*/\1/p' | tail -n1)
if [[ -z "$exe" || ! -x "$exe" ]]; then
  echo "could not build the lines_retro bench executable" >&2
  exit 1
fi
export RAYON_NUM_THREADS="$threads"
if [[ -x /usr/bin/time ]]; then
  /usr/bin/time -v "$exe" --triangle "$rows" 2> >(grep -E "Elapsed|Maximum resident|Percent of CPU" >&2)
else
  "$exe" --triangle "$rows"
fi
