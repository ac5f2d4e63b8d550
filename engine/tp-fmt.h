/* tp-fmt.h: locale-free f32 <-> text, exactly as Rust writes and reads it.
 *
 * The engine prints every user-visible number through these functions and
 * never through printf or strtod, so the text does not depend on the C
 * locale (GTK calls setlocale) and matches the original Rust playground
 * byte for byte.  All functions are pure: no allocation, no global state,
 * safe from any thread.  The caller owns every buffer.
 */
#pragma once

#if !defined (TP_ENGINE_COMPILATION) && !defined (TP_ENGINE_INTERNAL)
#error "tp-fmt.h is internal to the engine: outside it, include tp-engine.h"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Buffer size that always suffices for one formatted f32, NUL included. */
#define TP_FMT_F32_MAX 64

/* value's decimal digits at p (room for 20; no NUL); returns how many. */
size_t tp_fmt_u64 (uint64_t value, char *p);

/* Rust `format!("{}", x)` (Display): the shortest decimal that reads back
 * as x, never in exponent form: 1.0 -> "1", -0.0 -> "-0", 1e-7 ->
 * "0.0000001", 1e20 -> "100000000000000000000", NaN -> "NaN", inf -> "inf",
 * -inf -> "-inf".  Writes a NUL-terminated string into buf (at least
 * TP_FMT_F32_MAX bytes) and returns its length. */
size_t tp_fmt_f32_display (float x, char *buf);

/* Rust `format!("{:?}", x)` (Debug): the same digits, but always with a
 * '.' or an exponent.  Exponent form when x != 0 and (|x| < 1e-4 or
 * |x| >= 1e16): "1e-5", "1.5e16", "9.9e-5"; otherwise "1.0", "-4.0", "0.5",
 * "0.0", "-0.0".  NaN, inf and -inf as Display.  Same buffer contract. */
size_t tp_fmt_f32_debug (float x, char *buf);

/* Rust `text.parse::<f32>()` on exactly len bytes (text need not be
 * NUL-terminated).  Ok: returns true and sets *out to the correctly
 * rounded (round-half-even) value; Err: returns false, *out untouched.
 *   Float  ::= Sign? ( 'inf' | 'infinity' | 'nan' | Number )  (any case)
 *   Number ::= ( Digit+ | Digit+ '.' Digit* | Digit* '.' Digit+ ) Exp?
 *   Exp    ::= ('e'|'E') Sign? Digit+
 * Overflow gives +-inf and underflow +-0 or a subnormal (both Ok); "-nan"
 * is a NaN with the sign bit set.  Like Rust, the explicit exponent stops
 * accumulating digits once it reaches 65536, so "1" followed by 70000
 * zeros and "e-700001" reads as 1.  Linear time, constant memory. */
bool tp_parse_f32 (const char *text, size_t len, float *out);
