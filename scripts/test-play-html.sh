#!/usr/bin/env bash
# Plays nimlab's classroom pages (`nimlab play … --html FILE`) in a real
# browser: headless Chromium from Debian's packages, driven by playwright-core
# from the npm registry, both installed here when missing. Each page is
# played by clicks, several games, the winners checked (the computer wins from
# an N-position; a person following the page's hints wins from the other
# side), and the console must stay clean (no error, no warning, no network
# request). Screenshots are left beside the pages.
#
# usage: scripts/test-play-html.sh [OUT_DIR]     (default target/play-html)
#
# Skips with a visible message (exit 0) where Chromium or the driver cannot be
# installed (no root, no apt-get, no node, no registry).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-target/play-html}"

skip() {
    echo "SKIPPED: the browser test of the play pages: $*"
    exit 0
}

chromium_bin="${CHROMIUM:-/usr/bin/chromium}"
if [ ! -x "$chromium_bin" ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        echo "installing chromium (Debian package)…"
        { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver; } \
            >/dev/null 2>&1 || skip "apt-get could not install chromium"
    else
        skip "$chromium_bin is missing and cannot be installed here (needs root and apt-get)"
    fi
fi
command -v node >/dev/null && command -v npm >/dev/null || skip "node and npm are not installed"

# The driver, in a cache directory of its own (not in the repository).
driver_dir="${NIMLAB_PLAYWRIGHT_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/nimlab-play-test}"
if [ ! -d "$driver_dir/node_modules/playwright-core" ]; then
    echo "installing playwright-core (npm) into $driver_dir…"
    mkdir -p "$driver_dir"
    (cd "$driver_dir" && npm install --silent --no-audit --no-fund --no-save playwright-core@1) \
        >/dev/null 2>&1 || skip "npm could not install playwright-core"
fi

cargo build --release --quiet
mkdir -p "$out"
nimlab=./target/release/nimlab
$nimlab play takeaway --heaps 3,5,7 --take any --play misere --html "$out/nim-357.html"
$nimlab play lines --triangle 4 --take max:3 --play misere --html "$out/triangle-4.html"
$nimlab play parity --k 3 --r 17 --variant odd_wins --html "$out/parity-17.html"
$nimlab play lines --regular 3 --html "$out/hexagon-3.html"
$nimlab play takeaway --heaps 9,13 --take max:3 --no-repeat true --play misere --html "$out/no-repeat.html"
# A board too large for a page is refused with its size.
if $nimlab play lines --triangle 7 --html "$out/too-big.html" 2>"$out/too-big.err"; then
    echo "FAIL: a 28-piece board was written as a page"
    exit 1
fi
grep -q "2^28 bits" "$out/too-big.err" || { echo "FAIL: no size in: $(cat "$out/too-big.err")"; exit 1; }

CHROMIUM="$chromium_bin" NODE_PATH="$driver_dir/node_modules" node scripts/play-html-test.cjs "$out"
