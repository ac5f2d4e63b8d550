#!/usr/bin/env bash
# Builds everything and runs every test, on a fresh Debian/Ubuntu machine
# too: it installs what is missing first.  Usage: tools/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."

tools/install-deps.sh all

export NODE_PATH=/usr/share/nodejs   # Debian's emcc finds its acorn only here
export GTK_A11Y=none                 # no accessibility bus in headless runs

build=${TOPOS_BUILD:-build}
if [ -d "$build" ]; then
  meson setup --reconfigure "$build" >/dev/null
else
  meson setup "$build"
fi
meson compile -C "$build"
xvfb-run -a -s "-screen 0 1280x800x24" \
  meson test -C "$build" --print-errorlogs --num-processes 2

# The web playground.  The emscripten cross build makes the engine's
# wasm module and the page (BUILD/web/site); its `meson test` runs native ==
# wasm on the samples and a generated corpus (against the native topos) and
# the page in headless Chromium.  Screenshots: $wasm/web/screenshots.
wasm=${TOPOS_WASM_BUILD:-$build-wasm}
if [ -d "$wasm" ]; then
  meson setup --reconfigure "$wasm" >/dev/null
else
  meson setup --cross-file web/emscripten.ini "$wasm"
fi
meson compile -C "$wasm"
TP_NATIVE_TOPOS="$(realpath "$build")/app/topos" \
  meson test -C "$wasm" --suite web --print-errorlogs --num-processes 1

# The plain-C suites again under ASan + UBSan (a clang build
# beside the main one), then a bounded fuzz session on the session seam.
# TOPOS_FUZZ_SECONDS=0 skips the fuzz session.
asan=${TOPOS_ASAN_BUILD:-$build-asan}
tools/sanitize.sh "$asan"
fuzz_seconds=${TOPOS_FUZZ_SECONDS:-180}
if [ "$fuzz_seconds" -gt 0 ]; then
  TOPOS_ASAN_BUILD=$asan tools/fuzz.sh "$fuzz_seconds"
fi
