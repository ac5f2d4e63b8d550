/* tp-dmath.h: exp, log, tanh, sin and cos in double, for the gradient
 * check's double interpreter (tp-dinterp.c).
 *
 * Written from +, -, *, / and exponent bits alone, never the platform
 * libm, so the check gives the same bits in the native and WebAssembly
 * builds; accurate to a few units in the last place, far below what a
 * central difference resolves.  sqrt is IEEE's and needs nothing here.
 *
 * The _n forms evaluate a whole array with the same operations in the
 * same order for each element, so they give exactly the bits of the
 * one-element forms; they only interleave elements so that a core can
 * overlap their dependency chains. */
#ifndef TP_DMATH_H
#define TP_DMATH_H

#if !defined (TP_ENGINE_COMPILATION) && !defined (TP_ENGINE_INTERNAL)
#error "tp-dmath.h is internal to the engine: outside it, include tp-engine.h"
#endif

#include <stddef.h>

double tp_dmath_exp  (double x);
double tp_dmath_log  (double x);
double tp_dmath_tanh (double x);
double tp_dmath_sin  (double x);
double tp_dmath_cos  (double x);

/* y[e] = tp_dmath_exp (x[e]), tp_dmath_tanh (x[e]) for e < n; y may be x. */
void   tp_dmath_exp_n  (const double *x, double *y, size_t n);
void   tp_dmath_tanh_n (const double *x, double *y, size_t n);

#endif /* TP_DMATH_H */
