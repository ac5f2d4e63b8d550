#!/usr/bin/env bash
# Builds everything and runs every test, on a fresh Debian/Ubuntu machine
# too: it installs what is missing first.  Usage: tools/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."

tools/install-deps.sh all

export NODE_PATH=/usr/share/nodejs   # emcc's acorn (toolchain.md E1)
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
