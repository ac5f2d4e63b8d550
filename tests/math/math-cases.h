/* math-cases.h: the functions tests/math checks, and the argument set on
 * which it compares them with the Rust libm crate.
 *
 * Plain C11 without GLib, so that a WebAssembly build of the same set can
 * be compared with the native one. The set is deterministic: the same bit
 * patterns, in the same order, on every machine.
 */

#pragma once

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct
{
  const char *name;
  float (*fn) (float x);
} MathFunction;

/* tp_expf, tp_logf, tp_tanhf, tp_sinf, tp_cosf and tp_sqrtf, named as in
 * the crate, in the order in which tests/math/ref's libm-ref writes them. */
enum { MATH_EXP, MATH_LOG, MATH_TANH, MATH_SIN, MATH_COS, MATH_SQRT,
       MATH_N_FUNCTIONS };
extern const MathFunction math_functions[MATH_N_FUNCTIONS];

static inline uint32_t
math_bits (float x)
{
  uint32_t u;

  memcpy (&u, &x, sizeof u);
  return u;
}

static inline float
math_float (uint32_t u)
{
  float x;

  memcpy (&x, &u, sizeof x);
  return x;
}

/* The number of f32 bit patterns in the set (well over a million). */
size_t math_cases_count (void);

/* Writes the set into out, which must hold math_cases_count () entries. */
void math_cases_fill (uint32_t *out);

/* The results a function gives on the set are recorded, for a machine
 * without Rust, as block digests: the set is cut into blocks of
 * MATH_BLOCK arguments, and each block's results are hashed (FNV-1a 64
 * over the little-endian bit patterns). A NaN the function made up (any
 * NaN result other than the argument itself, quieted or not) is hashed as
 * 0x7fc00000, because hardware differs in the sign and payload of the NaNs
 * it generates; a propagated NaN is hashed as it is.
 *
 * math_digest_line writes "NAME BLOCK FIRST COUNT DIGEST\n" (BLOCK and the
 * index FIRST of its first argument in decimal, DIGEST in 16 hex digits)
 * for block b of function f, given the function's results on the whole
 * set, into buf (at least MATH_DIGEST_LINE bytes). */
#define MATH_BLOCK 8192
#define MATH_DIGEST_LINE 96

size_t math_block_count (size_t n);
void math_digest_line (char *buf, int f, size_t b,
                       const uint32_t *xs, const uint32_t *results, size_t n);
