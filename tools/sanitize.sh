#!/usr/bin/env bash
# The engine and command-line tests again under AddressSanitizer and
# UndefinedBehaviorSanitizer: a clang build of its own where
# every UB report is fatal and leaks are detected.  Runs the suites that
# are plain C (engine with the CLI's golden readings, fmt, math, hlo-text,
# fuzz regressions and seeds, stress); not the GTK, graphviz, web or
# Python round-trip ones.
# Usage: tools/sanitize.sh [--build-only] [BUILD_DIR]
#   BUILD_DIR defaults to $TOPOS_ASAN_BUILD, else build-asan.
set -euo pipefail
cd "$(dirname "$0")/.."

build_only=false
if [ "${1:-}" = --build-only ]; then
  build_only=true
  shift
fi
build=${1:-${TOPOS_ASAN_BUILD:-build-asan}}

if [ -f "$build/build.ninja" ]; then
  meson setup --reconfigure "$build" >/dev/null
else
  CC=clang meson setup "$build" \
    -Db_sanitize=address,undefined -Db_lundef=false \
    -Dc_args='-fno-sanitize-recover=all -fno-omit-frame-pointer' \
    -Dfuzzer=enabled >/dev/null
fi
meson compile -C "$build" >/dev/null
$build_only && exit 0

# Fatal, loud, and leak-checked; GLib's slices go through malloc so
# LeakSanitizer sees them.
export ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:abort_on_error=1:strict_string_checks=1:check_initialization_order=1:detect_stack_use_after_return=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:abort_on_error=1
export G_SLICE=always-malloc

suites='engine|cli|fmt|math|hlo|fuzz|stress'
skip='stablehlo-roundtrip|math-wasm'
mapfile -t tests < <(meson test -C "$build" --list 2>/dev/null \
  | sed -n -E "s/^[^:]+:($suites) \/ //p" | grep -v -x -E "$skip")
# meson test picks tests by name across every suite: a name shared with
# a GTK or web test would run that one too, outside what ASan can vouch for.
mapfile -t others < <(meson test -C "$build" --list 2>/dev/null \
  | grep -v -E "^[^:]+:($suites) / " | sed -E 's/^[^/]+\/ //')
for t in "${tests[@]}"; do
  for o in "${others[@]}"; do
    if [ "$t" = "$o" ]; then
      echo "sanitize.sh: the test name '$t' is in two suites; rename one" >&2
      exit 1
    fi
  done
done
echo "sanitizers: ${#tests[@]} tests under ASan + UBSan in $build"
meson test -C "$build" --no-rebuild --print-errorlogs --num-processes 2 "${tests[@]}"
