#!/usr/bin/env bash
# Installs every system package the build and the tests need, on a fresh
# Debian 12 machine. Safe to run again: apt-get skips what is present.
# Everything comes from Debian's packages; Debian's cargo and rustc build
# the Rust reference program of tests/fmt (it has no dependencies). The
# jax toolchain of the StableHLO round trip (pip, pinned) and the web
# page's packages (npm ci, locked) are installed by the build and the tests
# themselves.
# Usage: tools/install-deps.sh [core|all]   (default: all)
set -euo pipefail
what=${1:-all}

core=(meson ninja-build gcc pkg-config libglib2.0-dev clang llvm libclang-rt-14-dev)
more=(libgtk-4-dev libgtksourceview-5-dev libxtst-dev libgraphviz-dev graphviz libcairo2-dev
      libpango1.0-dev xvfb xauth dbus-daemon gvfs imagemagick desktop-file-utils appstream
      emscripten chromium poppler-utils python3-venv cargo rustc gettext librsvg2-bin)

pkgs=("${core[@]}")
[ "$what" = all ] && pkgs+=("${more[@]}")

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# node and npm for the web page (bundling, its tests).  Any node >= 18 will
# do; a node that came with its own npm (e.g. nodesource's) is left alone.
if [ "$what" = all ] && ! { command -v node && command -v npm; } >/dev/null; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends nodejs npm
fi
