#!/usr/bin/env bash
# Opens a run's REPORT.html in a real browser (headless Chromium from Debian's
# packages, driven by playwright-core from npm, both installed when missing,
# shared with the play-page test): every image and link must resolve and the
# console stay clean; a screenshot of the first screen is saved as
# OUT/report-first-screen.png.
#
# usage: scripts/test-report-html.sh OUT_DIR      (a run's output, with REPORT.html)
#
# Skips with a visible message (exit 0) where Chromium or the driver cannot be
# installed (no root, no apt-get, no node, no registry).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:?usage: scripts/test-report-html.sh OUT_DIR}"
[ -f "$out/REPORT.html" ] || { echo "FAIL: $out/REPORT.html is missing"; exit 1; }

skip() {
    echo "SKIPPED: the browser test of REPORT.html: $*"
    exit 0
}

chromium_bin="${CHROMIUM:-/usr/bin/chromium}"
if [ ! -x "$chromium_bin" ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        echo "installing chromium (Debian package)…"
        { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; } \
            >/dev/null 2>&1 || skip "apt-get could not install chromium"
    else
        skip "$chromium_bin is missing and cannot be installed here (needs root and apt-get)"
    fi
fi
command -v node >/dev/null && command -v npm >/dev/null || skip "node and npm are not installed"

# The driver, in the same cache directory as the play-page test's.
driver_dir="${NIMLAB_PLAYWRIGHT_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/nimlab-play-test}"
if [ ! -d "$driver_dir/node_modules/playwright-core" ]; then
    echo "installing playwright-core (npm) into $driver_dir…"
    mkdir -p "$driver_dir"
    (cd "$driver_dir" && npm install --silent --no-audit --no-fund --no-save playwright-core@1) \
        >/dev/null 2>&1 || skip "npm could not install playwright-core"
fi

CHROMIUM="$chromium_bin" NODE_PATH="$driver_dir/node_modules" node scripts/report-html-test.cjs "$out"
