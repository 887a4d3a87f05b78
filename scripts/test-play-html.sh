#!/usr/bin/env bash
# Plays nimlab's classroom pages (`nimlab play … --html FILE`) in a real
# browser: headless Chromium driven by playwright-core. Each page is played by
# clicks, several games, the winners checked (the computer wins from an
# N-position; a person following the page's hints wins from the other side),
# and the console must stay clean (no error, no warning, no network request).
# Screenshots are left beside the pages.
#
# usage: scripts/test-play-html.sh [OUT_DIR]     (default target/play-html)
#        NIMLAB_BIN=path/to/nimlab scripts/test-play-html.sh   (no cargo build)
#
# What it needs and where it comes from: scripts/browser-env.sh. Where one
# of them cannot be installed (no root, no network), the test is SKIPPED with
# a message saying what is missing and how to get it, and the script exits 0,
# so the rest of scripts/test still counts; set NIMLAB_REQUIRE_BROWSER=1 to
# make a skip a failure.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-target/play-html}"

skip() {
    echo "SKIPPED: the browser test of the play pages (scripts/test-play-html.sh): $*"
    if [ "${NIMLAB_REQUIRE_BROWSER:-0}" = 1 ]; then
        exit 1
    fi
    exit 0
}

. scripts/browser-env.sh
browser_setup

# NIMLAB_BIN: a nimlab already built (scripts/test passes the one its tests
# used); otherwise build it.
if [ -z "${NIMLAB_BIN:-}" ]; then
    cargo build --release --quiet
fi
nimlab="${NIMLAB_BIN:-./target/release/nimlab}"
mkdir -p "$out"
$nimlab play takeaway --heaps 3,5,7 --take any --play misere --html "$out/nim-357.html"
$nimlab play lines --triangle 4 --take max:3 --play misere --html "$out/triangle-4.html"
$nimlab play parity --k 3 --r 17 --variant odd_wins --html "$out/parity-17.html"
$nimlab play lines --regular 3 --html "$out/hexagon-3.html"
$nimlab play takeaway --heaps 9,13 --take max:3 --no-repeat true --play misere --html "$out/no-repeat.html"
$nimlab play octal --code 0.77 --heaps 5,7 --play misere --html "$out/kayles-misere.html"
$nimlab play octal --code 0.07 --heaps 6,9 --html "$out/dawson.html"
$nimlab play rules --move "t <= k and t != last" --k 3 --heaps 9 --html "$out/rules-cond13.html"
# A board too large for a page is refused with its size, and no file is written.
rm -f "$out/too-big.html"
if $nimlab play lines --triangle 7 --html "$out/too-big.html" 2>"$out/too-big.err"; then
    echo "FAIL: a 28-piece board was written as a page"
    exit 1
fi
grep -q "2^28 bits" "$out/too-big.err" || {
    echo "FAIL: no size in: $(cat "$out/too-big.err")"
    exit 1
}
if [ -e "$out/too-big.html" ]; then
    echo "FAIL: a refused page left a file"
    exit 1
fi

CHROMIUM="$chromium_bin" NODE_PATH="$driver_dir/node_modules" node scripts/play-html-test.cjs "$out"
