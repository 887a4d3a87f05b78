#!/usr/bin/env bash
# Opens a run's REPORT.html in a real browser (headless Chromium from Debian's
# packages, driven by playwright-core from npm, both installed when missing as
# scripts/browser-env.sh says, shared with the play-page test): every image and link must resolve and the
# console stay clean; a screenshot of the first screen is saved as
# OUT/report-first-screen.png.
#
# usage: scripts/test-report-html.sh OUT_DIR      (a run's output, with REPORT.html)
#
# Skips with a visible message (exit 0) where Chromium or the driver cannot be
# installed (no root, no apt-get, no node, no registry); NIMLAB_REQUIRE_BROWSER=1
# makes a skip a failure.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:?usage: scripts/test-report-html.sh OUT_DIR}"
[ -f "$out/REPORT.html" ] || { echo "FAIL: $out/REPORT.html is missing"; exit 1; }

skip() {
    echo "SKIPPED: the browser test of REPORT.html: $*"
    if [ "${NIMLAB_REQUIRE_BROWSER:-0}" = 1 ]; then
        exit 1
    fi
    exit 0
}
. scripts/browser-env.sh
browser_setup

CHROMIUM="$chromium_bin" NODE_PATH="$driver_dir/node_modules" node scripts/report-html-test.cjs "$out"
