#!/usr/bin/env bash
# A fuzz session on the session seam: libFuzzer (clang) with
# ASan + UBSan, seeded with every program in the repository, 500
# generated ones (tests/fuzz/gen-programs.py) and the regression inputs,
# fed the language's tokens.  Any crash, leak, timeout,
# sanitizer report or violated property fails it and leaves the input in
# BUILD/fuzz/artifacts: add it to tests/fuzz/regressions with the fix.
# Usage: tools/fuzz.sh [SECONDS] [LIBFUZZER_ARG...]      (default 180 s)
#   BUILD is $TOPOS_ASAN_BUILD, else build-asan (made by tools/sanitize.sh);
#   the corpus grows in BUILD/fuzz/corpus from run to run.
#   A long run on both cores: tools/fuzz.sh 1800 -fork=2 -ignore_crashes=1
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-180}
[ $# -gt 0 ] && shift
build=${TOPOS_ASAN_BUILD:-build-asan}
tools/sanitize.sh --build-only "$build"

work=$build/fuzz
rm -rf "$work/seeds" "$work/generated" "$work/artifacts"
mkdir -p "$work/corpus" "$work/seeds" "$work/artifacts"
python3 tests/fuzz/gen-programs.py "$work/generated" 500
"$build/tests/fuzz/tp-fuzz-replay" --corpus "$work/seeds" \
  tests/fuzz/seeds tests/golden resources/samples "$work/generated"

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:quarantine_size_mb=16
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:abort_on_error=1

# The harness checks the engine's own peak (256 MiB) exactly, with the
# allocator hook; the process as a whole (ASan's shadow and a small
# quarantine included) must stay under 256 MB too, and no single
# allocation may ask for more.
status=0
"$build/tests/fuzz/tp-fuzz-session" \
  -max_total_time="$seconds" -timeout=10 -rss_limit_mb=256 \
  -malloc_limit_mb=256 -max_len=8192 -dict=tests/fuzz/tape.dict \
  -artifact_prefix="$work/artifacts/" -print_final_stats=1 "$@" \
  "$work/corpus" "$work/seeds" tests/fuzz/regressions \
  >"$work/fuzz.log" 2>&1 || status=$?

grep -E '^#[0-9]+[[:space:]]+(INITED|DONE)' "$work/fuzz.log" | tail -n 3 || true
grep -E '^stat::' "$work/fuzz.log" || true
if [ "$status" -ne 0 ] || [ -n "$(ls -A "$work/artifacts")" ]; then
  grep -E -A40 'ERROR|violated|runtime error|WARNING: .*Sanitizer' \
    "$work/fuzz.log" | head -n 80 || true
  echo "fuzz: FAILED (exit $status); inputs in $work/artifacts:" >&2
  ls -l "$work/artifacts" >&2
  exit 1
fi
echo "fuzz: no finding in ${seconds} s (log: $work/fuzz.log)"
