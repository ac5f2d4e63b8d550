/* tp-math.h: the engine's elementary functions on f32
 *
 * Every op that needs exp, ln, tanh, sin, cos or sqrt calls these, never the
 * platform libm, so the native and WebAssembly builds give the same bits.
 *
 * tp_expf, tp_logf, tp_tanhf, tp_sinf and tp_cosf return exactly the bits of
 * the Rust `libm` crate 0.2.x that the original playground uses
 * (docs/decisions.md D6; 0.2.16, the version tests/math pins): expf and
 * logf follow FreeBSD msun, tanhf goes through expm1f, sinf and cosf use
 * double-precision kernels and argument reduction.
 * tp_sqrtf is the correctly rounded IEEE square root.
 *
 * The functions keep no state and read no floating-point environment (round
 * to nearest is assumed) and never set errno: the engine is built with
 * -fno-math-errno, so tp_sqrtf is the IEEE instruction (sqrtss, wasm's
 * f32.sqrt) and a negative argument gives NaN.  All six are proven equal
 * to the crate on all 2^32 inputs by tools/libm-exhaustive and tested on
 * about 1.6 million arguments each by the 'math' test suite.
 */

#pragma once

#if !defined (TP_ENGINE_COMPILATION) && !defined (TP_ENGINE_INTERNAL)
#error "tp-math.h is internal to the engine: outside it, include tp-engine.h"
#endif

float tp_expf (float x);
float tp_logf (float x);
float tp_tanhf (float x);
float tp_sinf (float x);
float tp_cosf (float x);
float tp_sqrtf (float x);
