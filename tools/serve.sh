#!/usr/bin/env bash
# Builds the web playground (emscripten cross build) and serves it on
# localhost.  Usage: tools/serve.sh [PORT]   (default 8000)
# The page is a static folder, BUILD/web/site; any static server will do.
set -euo pipefail
cd "$(dirname "$0")/.."
port=${1:-8000}
build=${TOPOS_WASM_BUILD:-build-wasm}

export NODE_PATH=/usr/share/nodejs   # emcc's acorn (HACKING.md T1)
command -v emcc >/dev/null && command -v npm >/dev/null || tools/install-deps.sh all
if [ ! -f "$build/build.ninja" ]; then
  meson setup --cross-file web/emscripten.ini "$build"
fi
meson compile -C "$build"
exec node web/tools/serve.mjs "$build/web/site" "$port"
