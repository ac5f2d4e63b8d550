#!/bin/sh
# Display and Debug of all 2^32 f32 bit patterns: engine/tp-fmt.c against
# Rust.  Both sides print an FNV-1a hash per block of 65536 patterns; the
# first differing block is then printed pattern by pattern.
#   usage: exhaustive.sh TEST_FMT_COMPARE CARGO_MANIFEST CARGO_TARGET_DIR [JOBS]
set -eu
ours=$1
manifest=$2
target=$3
jobs=${4:-$(nproc 2>/dev/null || echo 2)}

cargo build --release --quiet --locked --offline --manifest-path "$manifest" --target-dir "$target"
ref=$target/release/tp-fmt-ref
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM

# 256 chunks of 2^24 patterns, $jobs at a time, each side in turn.
seq 0 255 | xargs -P "$jobs" -I{} sh -c '
  start=$(printf "%08x" $(( {} * 16777216 )))
  "$1" hash "$start" 16777216 > "$3/ref.$(printf %03d {})"
  "$2" hash "$start" 16777216 > "$3/our.$(printf %03d {})"
  printf "." >&2
' sh "$ref" "$ours" "$work"
echo >&2

cat "$work"/ref.* > "$work/ref"
cat "$work"/our.* > "$work/our"
blocks=$(wc -l < "$work/ref")
if cmp -s "$work/ref" "$work/our" && [ "$blocks" -eq 65536 ]; then
  echo "all 4294967296 patterns: Display and Debug identical to Rust ($blocks blocks)"
  exit 0
fi

bad=$(diff "$work/ref" "$work/our" | grep -c '^<' || true)
echo "$bad of 65536 blocks differ (ref has $blocks blocks); first differing block:"
first=$(diff "$work/ref" "$work/our" | grep -m1 '^<' | cut -c3-10)
awk -v s=$((0x$first)) 'BEGIN { for (i = 0; i < 65536; i++) printf "%08x\n", s + i }' > "$work/block"
"$ref" fmt < "$work/block" > "$work/ref.block"
"$ours" fmt < "$work/block" > "$work/our.block"
paste "$work/block" "$work/ref.block" "$work/our.block" | awk -F'\t' '$2 != $4 || $3 != $5' | head -n 20
exit 1
