# The headless browser shared by the browser tests (test-play-html.sh,
# test-report-html.sh), sourced. `browser_setup WHAT` sets chromium_bin and
# driver_dir, installing what is missing, or calls `skip` (defined by the
# test) with what is missing and how to get it.
#   * Chromium: Debian's package `chromium` (apt-get, as root). A browser
#     build downloaded by a test tool (`playwright install`) is not used: it
#     needs a download site beyond the package registries. CHROMIUM=/path
#     uses another Chromium or Chrome.
#   * node and npm: on the machine, else Debian's `nodejs` and `npm`.
#   * playwright-core (npm registry, the pinned version below) in
#     target/play-driver/ (NIMLAB_PLAYWRIGHT_DIR overrides).

playwright_version="1.65.1"

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

browser_setup() {
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
    local installed
    installed="$(sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' \
        "$driver_dir/node_modules/playwright-core/package.json" 2>/dev/null || true)"
    if [ "$installed" != "$playwright_version" ]; then
        echo "installing playwright-core $playwright_version (npm) into $driver_dir…"
        (cd "$driver_dir" &&
            npm install --silent --no-audit --no-fund --no-save "playwright-core@$playwright_version") \
            >/dev/null 2>&1 ||
            skip "npm could not install playwright-core $playwright_version into $driver_dir (needs the npm registry)"
    fi
}
