/* tp-dmath.c: exp, log, tanh, sin and cos in double (tp-dmath.h).
 *
 * Each is a range reduction and a truncated series, evaluated in IEEE
 * double one rounding per operation in source order (the engine is built
 * in ISO C mode, so nothing is contracted to a fused multiply-add).  The
 * array forms repeat exactly the scalar forms' operations element by
 * element, a step at a time across a block of elements. */
#include "tp-dmath.h"

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* ln 2 in two parts (the high part has trailing zero bits, so k * LN2_HI
 * is exact for |k| < 2^11), and pi / 2 in three. */
#define LN2_HI 6.93147180369123816490e-01
#define LN2_LO 1.90821492927058770002e-10
#define INV_LN2 1.44269504088896338700e+00
#define PIO2_1 1.57079632673412561417e+00
#define PIO2_2 6.07710050650619224932e-11
#define PIO2_3 2.02226624879595063154e-21
#define INV_PIO2 6.36619772367581382433e-01

/* exp's range: above, the result overflows; below, it is 0. */
#define EXP_MAX 709.782712893384
#define EXP_MIN -745.2

/* The elements an array form evaluates exp's series for at once: eight
 * pairs (exp_lanes). */
#define LANES 16

/* The reciprocals 1/n of exp's Taylor series, rounded once. */
static const double inverse[18] = {
  0.0, 1.0, 1.0 / 2, 1.0 / 3, 1.0 / 4, 1.0 / 5, 1.0 / 6, 1.0 / 7, 1.0 / 8,
  1.0 / 9, 1.0 / 10, 1.0 / 11, 1.0 / 12, 1.0 / 13, 1.0 / 14, 1.0 / 15,
  1.0 / 16, 1.0 / 17,
};

/* x rounded to the nearest integer (ties away from zero), for |x| < 2^52. */
static double
round_int (double x)
{
  return (double) (int64_t) (x < 0 ? x - 0.5 : x + 0.5);
}

/* x * 2^k, by multiplying with powers of two built from their bits (no
 * libm: the command line then links the C library alone). */
static double
times_pow2 (double x, int k)
{
  uint64_t bits;
  double p;

  while (k > 1023)
    {
      x *= 0x1p1023;
      k -= 1023;
    }
  while (k < -1022)
    {
      x *= 0x1p-1022;
      k += 1022;
    }
  bits = (uint64_t) (k + 1023) << 52;
  memcpy (&p, &bits, sizeof p);
  return x * p;
}

/* x = m 2^e with m in [0.5, 1), for a finite x > 0. */
static double
split_pow2 (double x, int *e)
{
  uint64_t bits;
  int scaled = 0;

  if (x < 0x1p-1022)
    {
      x *= 0x1p64;                          /* a subnormal: make it normal */
      scaled = 64;
    }
  memcpy (&bits, &x, sizeof bits);
  *e = (int) ((bits >> 52) & 0x7ff) - 1022 - scaled;
  bits = (bits & ~(UINT64_C (0x7ff) << 52)) | (UINT64_C (1022) << 52);
  memcpy (&x, &bits, sizeof x);
  return x;
}

double
tp_dmath_exp (double x)
{
  double k, r, sum;

  if (x != x)
    return x;
  if (x > EXP_MAX)
    return HUGE_VAL;
  if (x < EXP_MIN)
    return 0.0;
  k = round_int (x * INV_LN2);
  r = (x - k * LN2_HI) - k * LN2_LO;       /* |r| <= ln 2 / 2 */
  /* Taylor to r^17 / 17! (|r|^18 / 18! < 1e-19), in Horner's form with
   * the reciprocals 1/n rounded once: no division on this path. */
  sum = 1.0;
  for (int n = 17; n >= 1; n--)
    sum = 1.0 + sum * r * inverse[n];
  return times_pow2 (sum, (int) k);
}

/* Two doubles side by side: each operation on a pair is the same IEEE
 * double operation on each of its two (one SSE2 instruction for both on
 * x86-64, two scalar ones where the target has no such vectors), so the
 * results are bit for bit the scalar form's. */
typedef double Pair __attribute__ ((vector_size (2 * sizeof (double))));

/* tp_dmath_exp of LANES arguments in [EXP_MIN, EXP_MAX]: its main path,
 * each step for every argument before the next step.  The arguments go
 * in pairs, eight of them, held in separate variables so that they stay
 * in registers: the core overlaps their eight dependency chains (one
 * chain per element is what bounds the scalar form), and each step does
 * two elements at a time. */
static void
exp_lanes (const double *x, double *y)
{
  double k[LANES];
  Pair r0, r1, r2, r3, r4, r5, r6, r7;
  Pair s0, s1, s2, s3, s4, s5, s6, s7;
  const Pair one = { 1.0, 1.0 }, hi = { LN2_HI, LN2_HI };
  const Pair lo = { LN2_LO, LN2_LO };

  for (unsigned j = 0; j < LANES; j++)
    k[j] = round_int (x[j] * INV_LN2);
#define REDUCED(j) \
  (((Pair) { x[2 * (j)], x[2 * (j) + 1] } \
    - (Pair) { k[2 * (j)], k[2 * (j) + 1] } * hi) \
   - (Pair) { k[2 * (j)], k[2 * (j) + 1] } * lo)
  r0 = REDUCED (0);
  r1 = REDUCED (1);
  r2 = REDUCED (2);
  r3 = REDUCED (3);
  r4 = REDUCED (4);
  r5 = REDUCED (5);
  r6 = REDUCED (6);
  r7 = REDUCED (7);
#undef REDUCED
  s0 = s1 = s2 = s3 = s4 = s5 = s6 = s7 = one;
  for (int n = 17; n >= 1; n--)
    {
      const Pair c = { inverse[n], inverse[n] };
      s0 = one + s0 * r0 * c;
      s1 = one + s1 * r1 * c;
      s2 = one + s2 * r2 * c;
      s3 = one + s3 * r3 * c;
      s4 = one + s4 * r4 * c;
      s5 = one + s5 * r5 * c;
      s6 = one + s6 * r6 * c;
      s7 = one + s7 * r7 * c;
    }
#define SCALED(j, s) \
  y[2 * (j)] = times_pow2 ((s)[0], (int) k[2 * (j)]); \
  y[2 * (j) + 1] = times_pow2 ((s)[1], (int) k[2 * (j) + 1])
  SCALED (0, s0);
  SCALED (1, s1);
  SCALED (2, s2);
  SCALED (3, s3);
  SCALED (4, s4);
  SCALED (5, s5);
  SCALED (6, s6);
  SCALED (7, s7);
#undef SCALED
}

/* Elements waiting for exp_lanes: where each goes, its argument, and
 * (for tanh) its sign. */
typedef struct
{
  unsigned n;
  size_t where[LANES];
  double arg[LANES];
  bool negative[LANES];
} Lanes;

/* exp of the waiting arguments (the free lanes compute exp(0)), into y
 * at their places: as tanh's exp(-2a) when tanh, else as exp. */
static void
flush (Lanes *l, double *y, bool tanh)
{
  double e[LANES];

  for (unsigned j = l->n; j < LANES; j++)
    l->arg[j] = 0.0;
  exp_lanes (l->arg, e);
  for (unsigned j = 0; j < l->n; j++)
    {
      double s = tanh ? (1.0 - e[j]) / (1.0 + e[j]) : e[j];
      y[l->where[j]] = l->negative[j] ? -s : s;
    }
  l->n = 0;
}

void
tp_dmath_exp_n (const double *x, double *y, size_t n)
{
  Lanes l = { 0 };

  for (size_t i = 0; i < n; i++)
    {
      double v = x[i];
      if (v >= EXP_MIN && v <= EXP_MAX)
        {
          l.where[l.n] = i;
          l.negative[l.n] = false;
          l.arg[l.n++] = v;
          if (l.n == LANES)
            flush (&l, y, false);
        }
      else
        y[i] = v != v ? v : v > EXP_MAX ? HUGE_VAL : 0.0;
    }
  if (l.n > 0)
    flush (&l, y, false);
}

double
tp_dmath_log (double x)
{
  int e;
  double m, f, t, t2, sum, power;

  if (x != x || x < 0.0)
    return (double) NAN;
  if (x == 0.0)
    return -HUGE_VAL;
  if (x > DBL_MAX)
    return x;
  m = split_pow2 (x, &e);                   /* x = m 2^e, m in [0.5, 1) */
  if (m < 0.70710678118654752440)
    {
      m *= 2.0;
      e--;
    }
  f = m - 1.0;                              /* in [-0.29, 0.41] */
  t = f / (2.0 + f);                        /* log(1 + f) = 2 atanh(t) */
  t2 = t * t;                               /* t2 <= 0.0295 */
  sum = 0.0;
  power = t;
  for (int n = 1; n <= 27; n += 2)
    {
      sum += power / n;
      power *= t2;
    }
  return e * LN2_HI + (2.0 * sum + e * LN2_LO);
}

/* tanh of a small a >= 0 (a < 0.125), by its series:
 * a - a^3/3 + 2a^5/15 - 17a^7/315 + 62a^9/2835 - 1382a^11/155925
 * + 21844a^13/6081075 - 929569a^15/638512875 */
static double
tanh_small (double a)
{
  double z = a * a;

  return a * (1.0 + z * (-1.0 / 3 + z * (2.0 / 15 + z * (-17.0 / 315
              + z * (62.0 / 2835 + z * (-1382.0 / 155925
              + z * (21844.0 / 6081075 + z * (-929569.0 / 638512875))))))));
}

double
tp_dmath_tanh (double x)
{
  double a = fabs (x), e, y;

  if (x != x)
    return x;
  if (a > 22.0)
    y = 1.0;
  else if (a < 0.125)
    y = tanh_small (a);
  else
    {
      e = tp_dmath_exp (-2.0 * a);
      y = (1.0 - e) / (1.0 + e);
    }
  return x < 0 ? -y : y;
}

/* Between 0.125 and 22, tanh is (1 - exp(-2a)) / (1 + exp(-2a)), and
 * -2a is always in exp's main path: those elements go through exp_lanes
 * together. */
void
tp_dmath_tanh_n (const double *x, double *y, size_t n)
{
  Lanes l = { 0 };

  for (size_t i = 0; i < n; i++)
    {
      double v = x[i], a = fabs (v);
      if (a >= 0.125 && a <= 22.0)
        {
          l.where[l.n] = i;
          l.negative[l.n] = v < 0;
          l.arg[l.n++] = -2.0 * a;
          if (l.n == LANES)
            flush (&l, y, true);
        }
      else if (v != v)
        y[i] = v;
      else if (a > 22.0)
        y[i] = v < 0 ? -1.0 : 1.0;
      else
        {
          double s = tanh_small (a);
          y[i] = v < 0 ? -s : s;
        }
    }
  if (l.n > 0)
    flush (&l, y, true);
}

/* sin (cos_too false) or cos of x, after reducing by multiples of pi/2. */
static double
sin_or_cos (double x, bool cos_too)
{
  double k, r, r2, s, c, term;
  int64_t q;

  if (x != x || x > DBL_MAX || x < -DBL_MAX)
    return (double) NAN;
  if (fabs (x) > 1e15)
    return (double) NAN;   /* no meaningful digits left; the same in every build */
  k = round_int (x * INV_PIO2);
  r = ((x - k * PIO2_1) - k * PIO2_2) - k * PIO2_3;
  q = ((int64_t) k + (cos_too ? 1 : 0)) & 3;
  r2 = r * r;
  s = r;
  term = r;
  for (int n = 1; n <= 11; n++)
    {
      term = -term * r2 / ((2 * n) * (2 * n + 1));
      s += term;
    }
  c = 1.0;
  term = 1.0;
  for (int n = 1; n <= 11; n++)
    {
      term = -term * r2 / ((2 * n - 1) * (2 * n));
      c += term;
    }
  switch (q)
    {
    case 0:
      return s;
    case 1:
      return c;
    case 2:
      return -s;
    default:
      return -c;
    }
}

double
tp_dmath_sin (double x)
{
  return sin_or_cos (x, false);
}

double
tp_dmath_cos (double x)
{
  return sin_or_cos (x, true);
}
