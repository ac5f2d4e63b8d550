#!/bin/sh
# Records the Rust libm crate's results on the argument set of
# tests/math/math-cases.c as block digests, in tests/math/ref/libm.digests,
# which the test /math/crate compares with the engine's (see math-cases.h
# for the digest). Run it when the argument set or the pinned crate
# version (Cargo.toml.in) changes, and review the diff: a changed digest for
# an unchanged set means the crate's results changed.
#
# Usage: tests/math/ref/regenerate.sh BUILD
#   BUILD is a configured and built meson build directory (for its
#   tests/math/math-digest). Needs a cargo and rustc that can fetch the
#   crate from the crate registry; a recent toolchain, not necessarily
#   Debian's. Cargo's target directory is $CARGO_TARGET_DIR, else
#   ${TMPDIR:-/tmp}/topos-libm-ref.
set -eu
ref=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:?usage: regenerate.sh BUILD}" && pwd)
digest=$build/tests/math/math-digest
[ -x "$digest" ] || { echo "regenerate.sh: no $digest (build first)" >&2; exit 1; }
target=${CARGO_TARGET_DIR:-${TMPDIR:-/tmp}/topos-libm-ref}
mkdir -p "$target/manifest"
sed "s|@REF_DIR@|$ref|g" "$ref/Cargo.toml.in" > "$target/manifest/Cargo.toml"
cargo build --release --quiet --bin libm-ref \
  --manifest-path "$target/manifest/Cargo.toml" --target-dir "$target"
libm_ref=$target/release/libm-ref

"$digest" --arguments "$target/arguments"
"$libm_ref" "$target/arguments" "$target/results"
{
  echo "# $("$libm_ref" --version) on the argument set of tests/math/math-cases.c: NAME BLOCK FIRST COUNT DIGEST"
  "$digest" --blocks "$target/results"
} > "$ref/libm.digests.new"
mv "$ref/libm.digests.new" "$ref/libm.digests"
rm -f "$target/arguments" "$target/results"
echo "wrote $ref/libm.digests"
