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
# What it needs, and where it comes from when missing (as scripts/test puts
# the Python readers in target/):
#   * Chromium: Debian's package `chromium` (apt-get, as root). A browser
#     build downloaded by a test tool (`playwright install`) is not used: it
#     needs a download site beyond the package registries. CHROMIUM=/path
#     uses another Chromium or Chrome.
#   * node and npm: on the machine, else Debian's `nodejs` and `npm`.
#   * playwright-core (npm registry, the pinned version below) in
#     target/play-driver/ (NIMLAB_PLAYWRIGHT_DIR overrides).
# Where one of them cannot be installed (no root, no network), the test is
# SKIPPED with a message saying what is missing and how to get it, and the
# script exits 0, so the rest of scripts/test still counts; set
# NIMLAB_REQUIRE_BROWSER=1 to make a skip a failure.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-target/play-html}"
playwright_version="1.65.1"

skip() {
    echo "SKIPPED: the browser test of the play pages (scripts/test-play-html.sh): $*"
    if [ "${NIMLAB_REQUIRE_BROWSER:-0}" = 1 ]; then
        exit 1
    fi
    exit 0
}

# Installs Debian packages when this user may (root and apt-get); false otherwise.
apt_updated=0
apt_install() {
    [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null || return 1
    echo "installing $* (Debian packages)…"
    if [ "$apt_updated" = 0 ]; then
        apt-get update -qq >/dev/null 2>&1 || return 1
        apt_updated=1
    fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null 2>&1
}

if [ -n "${CHROMIUM:-}" ]; then
    chromium_bin="$CHROMIUM"
    [ -x "$chromium_bin" ] || skip "CHROMIUM=$chromium_bin is not an executable file"
else
    chromium_bin=/usr/bin/chromium
    if [ ! -x "$chromium_bin" ]; then
        apt_install chromium && [ -x "$chromium_bin" ] ||
            skip "no Chromium at $chromium_bin, and Debian's package chromium could not be installed (needs root, apt-get and the package registry; or set CHROMIUM=/path/to/chromium)"
    fi
fi
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    apt_install nodejs npm && command -v node >/dev/null && command -v npm >/dev/null ||
        skip "node and npm are missing, and Debian's packages nodejs and npm could not be installed (needs root, apt-get and the package registry)"
fi

# The driver, in target/ (not in the repository).
driver_dir="${NIMLAB_PLAYWRIGHT_DIR:-target/play-driver}"
mkdir -p "$driver_dir"
driver_dir="$(cd "$driver_dir" && pwd)"
installed="$(sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' \
    "$driver_dir/node_modules/playwright-core/package.json" 2>/dev/null || true)"
if [ "$installed" != "$playwright_version" ]; then
    echo "installing playwright-core $playwright_version (npm) into $driver_dir…"
    (cd "$driver_dir" &&
        npm install --silent --no-audit --no-fund --no-save "playwright-core@$playwright_version") \
        >/dev/null 2>&1 ||
        skip "npm could not install playwright-core $playwright_version into $driver_dir (needs the npm registry)"
fi

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
