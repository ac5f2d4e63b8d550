#!/usr/bin/env bash
# Builds the playground and opens it on the README sample, on a fresh
# Debian/Ubuntu machine too: it installs what is missing first.
# Usage: tools/run.sh [FILE]
set -euo pipefail
cd "$(dirname "$0")/.."

tools/install-deps.sh all
export NODE_PATH=/usr/share/nodejs

build=${TOPOS_BUILD:-build}
[ -d "$build" ] || meson setup "$build"
meson compile -C "$build"

sample=${1:-resources/samples/readme.tape}
if [ -x "$build/app/topos-playground" ] && { [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; }; then
  exec "$build/app/topos-playground" "$sample"
fi
# No desktop to open a window on: print every reading of the sample.
exec "$build/app/topos" --all --target loss --observe error "$sample"
