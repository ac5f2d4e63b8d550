/* tp-math.c: exp, ln, tanh, sin, cos and sqrt on f32, bit for bit those of
 * the Rust `libm` crate 0.2.x.
 *
 * The algorithms are the published ones of Sun's fdlibm as refined in FreeBSD
 * msun (e_expf.c, e_logf.c, s_expm1f.c, s_tanhf.c in musl's form, s_sinf.c,
 * s_cosf.c, k_sinf.c, k_cosf.c, e_rem_pio2f.c, k_rem_pio2.c). The crate
 * evaluates them in strict IEEE single and double arithmetic, one rounding
 * per operation, in source order; this file does the same. It must therefore
 * be compiled without FMA contraction (-ffp-contract=off) and without
 * -ffast-math, with FLT_EVAL_METHOD 0 (SSE2 on x86, any wasm). Every constant
 * is written as a hexadecimal literal so its bits are plain to see.
 *
 * Whether the bits match is not argued here but measured: the 'math' test
 * suite compares a million arguments per function with the crate, and
 * tools/libm-exhaustive compares all 2^32 of them.
 */

#include "tp-math.h"

#include <stdint.h>
#include <string.h>

static inline uint32_t
f32_bits (float x)
{
  uint32_t u;

  memcpy (&u, &x, sizeof u);
  return u;
}

static inline float
f32_from_bits (uint32_t u)
{
  float x;

  memcpy (&x, &u, sizeof x);
  return x;
}

/* 2^e as a double, for -1022 <= e <= 1023. */
static inline double
f64_pow2 (int e)
{
  uint64_t u = (uint64_t) (1023 + e) << 52;
  double x;

  memcpy (&x, &u, sizeof x);
  return x;
}

/* ln 2 split so that k * LN2_HI is exact for the k of expf (|k| <= 150),
 * and the FreeBSD split used by logf and expm1f. */
#define EXPF_LN2_HI  0x1.62e4p-1f       /* 0x3f317200 */
#define EXPF_LN2_LO  0x1.7f7d1cp-20f    /* 0x35bfbe8e */
#define LN2_HI       0x1.62e3p-1f       /* 0x3f317180 */
#define LN2_LO       0x1.2fefa2p-17f    /* 0x3717f7d1 */
#define INV_LN2      0x1.715476p+0f     /* 0x3fb8aa3b */

/* expf: x(exp(x)+1)/(exp(x)-1) ~ 2 + P1 x^2 + P2 x^4 on [-0.3457, 0.3457]. */
#define EXPF_P1      0x1.55551ep-3f     /*  0xaaaa8f.0p-26 */
#define EXPF_P2     -0x1.6aa42ap-9f     /* -0xb55215.0p-32 */

/* logf: (log(1+s)-log(1-s))/s ~ 2 + LG1 s^2 + ... + LG4 s^8. */
#define LOGF_LG1     0x1.555554p-1f     /* 0xaaaaaa.0p-24 */
#define LOGF_LG2     0x1.999c26p-2f     /* 0xccce13.0p-25 */
#define LOGF_LG3     0x1.23d3dcp-2f     /* 0x91e9ee.0p-25 */
#define LOGF_LG4     0x1.f13c4cp-3f     /* 0xf89e26.0p-26 */

/* expm1f: the rational correction's polynomial, scaled as in s_expm1f.c. */
#define EXPM1F_Q1   -0x1.1110dp-5f      /* -0x888868.0p-28 */
#define EXPM1F_Q2    0x1.9e602p-10f     /*  0xcf3010.0p-33 */

/* Double-precision kernels on [-pi/4, pi/4]: sin(x) ~ x + S1 x^3 + ... +
 * S4 x^9 (error < 2^-37.5) and cos(x) ~ 1 + C0 x^2 + ... + C3 x^8
 * (error < 2^-34.1). */
#define KSIN_S1     -0x1.5555554cbac77p-3
#define KSIN_S2      0x1.11110896efbb2p-7
#define KSIN_S3     -0x1.a00f9e2cae774p-13
#define KSIN_S4      0x1.6cd878c3b46a7p-19
#define KCOS_C0     -0x1.ffffffd0c5e81p-2
#define KCOS_C1      0x1.55553e1053a42p-5
#define KCOS_C2     -0x1.6c087e80f1e27p-10
#define KCOS_C3      0x1.99342e0ee5069p-16

/* k pi/2 rounded to double, for the reductions of sinf and cosf below 9pi/4. */
#define PIO2_X1      0x1.921fb54442d18p+0
#define PIO2_X2      0x1.921fb54442d18p+1
#define PIO2_X3      0x1.2d97c7f3321d2p+2
#define PIO2_X4      0x1.921fb54442d18p+2

/* Medium reduction: 2/pi to 53 bits, pi/2 as 25 bits plus a 53-bit tail,
 * and 1.5 * 2^52, whose addition rounds a double to an integer. */
#define INV_PIO2     0x1.45f306dc9c883p-1
#define PIO2_HI      0x1.921fb5p+0
#define PIO2_TAIL    0x1.110b4611a6263p-26
#define TO_INT       0x1.8p+52

/* The binary expansion of 2/pi, 24 bits per entry, most significant first.
 * Over all floats the reduction reads entries up to index 8 (measured); 32
 * cover every index reduce_large could ask for (jv <= 4, jz < 20). */
static const int32_t two_over_pi[32] = {
  0xa2f983, 0x6e4e44, 0x1529fc, 0x2757d1, 0xf534dd, 0xc0db62, 0x95993c,
  0x439041, 0xfe5163, 0xabdebb, 0xc561b7, 0x246e3a, 0x424dd2, 0xe00649,
  0x2eea09, 0xd1921c, 0xfe1deb, 0x1cb129, 0xa73ee8, 0x8235f5, 0x2ebb44,
  0x84e99c, 0x7026b4, 0x5f7e41, 0x3991d6, 0x398353, 0x39f49c, 0x845f8b,
  0xbdf928, 0x3b1ff8, 0x97ffde, 0x05980f,
};

/* pi/2 in 24-bit pieces: the first four of k_rem_pio2's table. */
static const double pio2_piece[4] = {
  0x1.921fb4p+0,
  0x1.4442dp-24,
  0x1.846988p-48,
  0x1.8cc516p-72,
};

/* x 2^n as scalbnf computes it, for x near 1 and the n of tp_expf
 * (-151 < n <= 128): when 2^n is not a normal float, pre-scale exactly by
 * 2^127 or 2^-102 first, so the only rounding is in the last product. */
static float
scale_pow2 (float x,
            int   n)
{
  if (n > 127)
    {
      x *= 0x1p127f;
      n -= 127;
    }
  else if (n < -126)
    {
      x *= 0x1p-102f;
      n += 102;
    }
  return x * f32_from_bits ((uint32_t) (0x7f + n) << 23);
}

/* e^x as FreeBSD's e_expf.c computes it: x = k ln2 + r with |r| <= ln2/2,
 * e^r from a degree-4 rational approximation in single precision, scaled by
 * 2^k. Overflows to +inf from 88.72284 (0x42b17218) and gives +0 from
 * -103.97208 (0x42cff1b5) down. */
float
tp_expf (float x)
{
  uint32_t hx = f32_bits (x);
  int sign = (int) (hx >> 31);
  float hi, lo, xx, c, y;
  int k;

  hx &= 0x7fffffffu;
  if (hx >= 0x42aeac50u)
    {
      if (hx > 0x7f800000u)
        return x;
      if (hx >= 0x42b17218u && !sign)
        return x * 0x1p127f;
      if (sign && hx >= 0x42cff1b5u)
        return 0.0f;
    }

  if (hx > 0x3eb17218u)
    {
      float kf;

      /* |x| > ln2/2: k = round(x / ln2), or +-1 while |x| < 1.5 ln2 */
      if (hx > 0x3f851592u)
        k = (int) (INV_LN2 * x + (sign ? -0.5f : 0.5f));
      else
        k = 1 - sign - sign;
      kf = (float) k;
      hi = x - kf * EXPF_LN2_HI;
      lo = kf * EXPF_LN2_LO;
      x = hi - lo;
    }
  else if (hx > 0x39000000u)
    {
      k = 0;
      hi = x;
      lo = 0.0f;
    }
  else
    {
      /* |x| <= 2^-14 */
      return 1.0f + x;
    }

  xx = x * x;
  c = x - xx * (EXPF_P1 + xx * EXPF_P2);
  y = 1.0f + (x * c / (2.0f - c) - lo + hi);
  return k == 0 ? y : scale_pow2 (y, k);
}

/* ln x as FreeBSD's e_logf.c computes it: x = 2^k (1 + f) with 1 + f in
 * [sqrt(2)/2, sqrt(2)], log(1 + f) = f - f^2/2 + s (f^2/2 + R(s)) with
 * s = f / (2 + f), plus k ln2 in two pieces. Subnormals are scaled by 2^25
 * first; ln(+-0) = -inf, ln(x < 0) = NaN. */
float
tp_logf (float x)
{
  uint32_t ix = f32_bits (x);
  float f, s, z, w, t1, t2, r, hfsq, dk;
  int k = 0;

  if (ix < 0x00800000u || (ix >> 31) != 0)
    {
      if ((ix << 1) == 0)
        return -1.0f / (x * x);
      if ((ix >> 31) != 0)
        return (x - x) / 0.0f;
      k -= 25;
      x *= 0x1p25f;
      ix = f32_bits (x);
    }
  else if (ix >= 0x7f800000u)
    {
      return x;
    }
  else if (ix == 0x3f800000u)
    {
      return 0.0f;
    }

  /* move the significand into [sqrt(2)/2, sqrt(2)], adjusting k */
  ix += 0x3f800000u - 0x3f3504f3u;
  k += (int) (ix >> 23) - 0x7f;
  ix = (ix & 0x007fffffu) + 0x3f3504f3u;
  x = f32_from_bits (ix);

  f = x - 1.0f;
  s = f / (2.0f + f);
  z = s * s;
  w = z * z;
  t1 = w * (LOGF_LG2 + w * LOGF_LG4);
  t2 = z * (LOGF_LG1 + w * LOGF_LG3);
  r = t2 + t1;
  hfsq = 0.5f * f * f;
  dk = (float) k;
  return s * (hfsq + r) + dk * LN2_LO - hfsq + f + dk * LN2_HI;
}

/* e^x - 1 as FreeBSD's s_expm1f.c computes it: x = k ln2 + r (with the
 * rounding error c of the reduction carried along), e^r - 1 from a rational
 * approximation, then recombined in the form that loses least for each k.
 * Only for the arguments tanhf passes, -0.52 < x <= 20, so -1 <= k <= 29:
 * s_expm1f.c's branches for non-finite x, overflow, x <= -27 ln2 and
 * k < -1 or k > 56 are left out. */
static float
expm1_f32 (float x)
{
  uint32_t hx = f32_bits (x);
  int sign = (hx >> 31) != 0;
  float hi, lo, c = 0.0f, hfx, hxs, r1, t, e, twopk, uf;
  int k;

  hx &= 0x7fffffffu;
  if (hx > 0x3eb17218u)
    {
      if (hx < 0x3f851592u)
        {
          /* ln2/2 < |x| < 1.5 ln2 */
          if (!sign)
            {
              hi = x - LN2_HI;
              lo = LN2_LO;
              k = 1;
            }
          else
            {
              hi = x + LN2_HI;
              lo = -LN2_LO;
              k = -1;
            }
        }
      else
        {
          float kf;

          /* x >= 1.5 ln2 in our domain */
          k = (int) (INV_LN2 * x + 0.5f);
          kf = (float) k;
          hi = x - kf * LN2_HI;
          lo = kf * LN2_LO;
        }
      x = hi - lo;
      c = (hi - x) - lo;
    }
  else if (hx < 0x33000000u)
    {
      /* |x| < 2^-25 */
      return x;
    }
  else
    {
      k = 0;
    }

  hfx = 0.5f * x;
  hxs = x * hfx;
  r1 = 1.0f + hxs * (EXPM1F_Q1 + hxs * EXPM1F_Q2);
  t = 3.0f - r1 * hfx;
  e = hxs * ((r1 - t) / (6.0f - x * t));
  if (k == 0)
    return x - (x * e - hxs);

  e = x * (e - c) - c;
  e -= hxs;
  if (k == -1)
    return 0.5f * (x - e) - 0.5f;
  if (k == 1)
    {
      if (x < -0.25f)
        return -2.0f * (e - (x + 0.5f));
      return 1.0f + 2.0f * (x - e);
    }

  twopk = f32_from_bits ((uint32_t) (0x7f + k) << 23);
  uf = f32_from_bits ((uint32_t) (0x7f - k) << 23);
  if (k < 23)
    return (x - e + (1.0f - uf)) * twopk;
  return (x - (e + uf) + 1.0f) * twopk;
}

/* tanh x as musl's tanhf.c computes it on |x|, sign restored at the end:
 * 1 above 10, 1 - 2/(e^2x + 1) above ln(3)/2, e^2x-1 / (e^2x-1 + 2) above
 * ln(5/3)/2, -t/(t + 2) with t = e^-2x - 1 down to 2^-126, and x itself on
 * subnormals. */
float
tp_tanhf (float x)
{
  uint32_t w = f32_bits (x);
  int sign = (w >> 31) != 0;
  float t, tt;

  w &= 0x7fffffffu;
  x = f32_from_bits (w);
  if (w > 0x3f0c9f54u)
    {
      if (w > 0x41200000u)
        {
          tt = 1.0f + 0.0f / x;
        }
      else
        {
          t = expm1_f32 (2.0f * x);
          tt = 1.0f - 2.0f / (t + 2.0f);
        }
    }
  else if (w > 0x3e82c578u)
    {
      t = expm1_f32 (2.0f * x);
      tt = t / (t + 2.0f);
    }
  else if (w >= 0x00800000u)
    {
      t = expm1_f32 (-2.0f * x);
      tt = -t / (t + 2.0f);
    }
  else
    {
      tt = x;
    }
  return sign ? -tt : tt;
}

/* sin on [-pi/4, pi/4] in double, rounded once to float. */
static float
sin_kernel (double x)
{
  double z = x * x;
  double w = z * z;
  double r = KSIN_S3 + z * KSIN_S4;
  double s = z * x;

  return (float) ((x + s * (KSIN_S1 + z * KSIN_S2)) + s * w * r);
}

/* cos on [-pi/4, pi/4] in double, rounded once to float. */
static float
cos_kernel (double x)
{
  double z = x * x;
  double w = z * z;
  double r = KCOS_C2 + z * KCOS_C3;

  return (float) (((1.0 + z * KCOS_C0) + w * KCOS_C1) + (w * z) * r);
}

/* Payne-Hanek reduction of |x| = m 2^e0 (m the 24-bit significand, e0 in
 * [5, 104]) following k_rem_pio2.c with one input piece and its lowest
 * precision (jk = jp = 3). The product m * 2/pi is formed exactly from 24-bit
 * pieces of 2/pi, starting with the first piece that can affect the result
 * mod 8, four pieces at first and more while the fraction's leading pieces
 * vanish. Its fraction, folded into [-1/2, 1/2] (ih says whether it was), is
 * multiplied by 96 bits of pi/2 piece by piece and summed from the smallest
 * piece up. Stores that double in *y and returns the quotient mod 8. */
static int
reduce_large (uint32_t  m,
              int       e0,
              double   *y)
{
  enum { JK = 3, MAX_PIECES = 20 };
  uint64_t q[MAX_PIECES];
  int32_t iq[MAX_PIECES];
  double qd[MAX_PIECES];
  double fq[MAX_PIECES];
  uint64_t top, frac;
  double fw;
  int jv = (e0 - 3) / 24;
  int q0 = e0 - 24 * (jv + 1);
  int jz = JK;
  int n, ih, i, j, k;

  /* q[i] weighs 2^(q0 - 24 i); pieces before jv only add multiples of 8 */
  for (i = 0; i <= jz; i++)
    q[i] = (uint64_t) m * (uint64_t) two_over_pi[jv + i];

  for (;;)
    {
      /* carry the products into base-2^24 digits, least significant first:
       * iq[0] is the last digit, iq[jz - 1] the first one below top */
      top = q[jz];
      for (i = 0, j = jz; j >= 1; i++, j--)
        {
          iq[i] = (int32_t) (top & 0xffffffu);
          top = q[j - 1] + (top >> 24);
        }

      /* top 2^q0 = integer part + frac 2^q0; keep the integer part mod 8 */
      if (q0 >= 0)
        {
          n = (int) ((top << q0) & 7u);
          frac = 0;
        }
      else
        {
          n = (int) ((top >> -q0) & 7u);
          frac = top & ((UINT64_C (1) << -q0) - 1);
        }

      /* ih > 0 when the fraction is at least 1/2 */
      ih = 0;
      if (q0 > 0)
        {
          i = iq[jz - 1] >> (24 - q0);
          n += i;
          iq[jz - 1] -= i << (24 - q0);
          ih = iq[jz - 1] >> (23 - q0);
        }
      else if (q0 == 0)
        {
          ih = iq[jz - 1] >> 23;
        }
      else if (frac >= (UINT64_C (1) << (-q0 - 1)))
        {
          ih = 2;
        }

      if (ih > 0)
        {
          int borrow = 0;

          /* replace the fraction by 1 - fraction, digit by digit */
          n += 1;
          for (i = 0; i < jz; i++)
            {
              j = iq[i];
              if (!borrow)
                {
                  if (j != 0)
                    {
                      borrow = 1;
                      iq[i] = 0x1000000 - j;
                    }
                }
              else
                {
                  iq[i] = 0xffffff - j;
                }
            }
          if (q0 == 1)
            iq[jz - 1] &= 0x7fffff;
          else if (q0 == 2)
            iq[jz - 1] &= 0x3fffff;
          if (ih == 2)
            frac = (UINT64_C (1) << -q0) - frac - (borrow ? 1u : 0u);
        }

      /* too many leading zero digits: take more pieces of 2/pi */
      if (frac == 0)
        {
          int32_t any = 0;

          for (i = JK; i <= jz - 1; i++)
            any |= iq[i];
          if (any == 0)
            {
              k = 1;
              while (k < JK && iq[JK - k] == 0)
                k++;
              if (jz + k >= MAX_PIECES)
                break;
              for (i = jz + 1; i <= jz + k; i++)
                q[i] = (uint64_t) m * (uint64_t) two_over_pi[jv + i];
              jz += k;
              continue;
            }
        }
      break;
    }

  /* drop leading zero digits, or put the top's fraction in front */
  if (frac == 0)
    {
      jz -= 1;
      q0 -= 24;
      while (jz > 0 && iq[jz] == 0)
        {
          jz -= 1;
          q0 -= 24;
        }
    }
  else
    {
      iq[jz] = (int32_t) frac;
    }

  /* the fraction is sum iq[i] 2^(q0 - 24 (jz - i)); scale each digit */
  fw = f64_pow2 (q0);
  for (i = jz; i >= 0; i--)
    {
      qd[i] = fw * (double) iq[i];
      fw *= 0x1p-24;
    }

  /* fq[jz - i] = sum of pio2_piece[k] qd[i + k]: exact, all terms share
   * one scale */
  for (i = jz; i >= 0; i--)
    {
      fw = 0.0;
      for (k = 0; k <= JK && k <= jz - i; k++)
        fw += pio2_piece[k] * qd[i + k];
      fq[jz - i] = fw;
    }

  /* sum from the smallest term up: the only roundings */
  fw = 0.0;
  for (i = jz; i >= 0; i--)
    fw += fq[i];
  *y = ih == 0 ? fw : -fw;
  return n & 7;
}

/* x - n pi/2 in double, as e_rem_pio2f.c: with 25+53 bits of pi/2 below
 * 2^28 pi/2, with reduce_large above. Returns n; only n mod 4 is used.
 * x must be finite. */
static int
reduce_pio2 (float   x,
             double *y)
{
  double x64 = (double) x;
  uint32_t ix = f32_bits (x) & 0x7fffffffu;
  int e0, n;

  if (ix < 0x4dc90fdbu)
    {
      double t = x64 * INV_PIO2 + TO_INT;
      double fn = t - TO_INT;

      *y = x64 - fn * PIO2_HI - fn * PIO2_TAIL;
      return (int) fn;
    }

  e0 = (int) (ix >> 23) - (0x7f + 23);
  n = reduce_large ((ix & 0x7fffffu) | 0x800000u, e0, y);
  if (f32_bits (x) >> 31)
    {
      *y = -*y;
      return -n;
    }
  return n;
}

/* sin x as FreeBSD's s_sinf.c: x itself below 2^-12, the kernels near
 * 0, pi/2, pi, 3pi/2 and 2pi up to 9pi/4 (reducing with k pi/2 in
 * double), the general reduction beyond. */
float
tp_sinf (float x)
{
  double x64 = (double) x;
  uint32_t ix = f32_bits (x);
  int sign = (ix >> 31) != 0;
  double y;
  int n;

  ix &= 0x7fffffffu;
  if (ix <= 0x3f490fdau)
    {
      /* |x| <= pi/4 */
      if (ix < 0x39800000u)
        return x;
      return sin_kernel (x64);
    }
  if (ix <= 0x407b53d1u)
    {
      /* |x| <= 5pi/4 */
      if (ix <= 0x4016cbe3u)
        {
          /* |x| <= 3pi/4 */
          if (sign)
            return -cos_kernel (x64 + PIO2_X1);
          return cos_kernel (x64 - PIO2_X1);
        }
      return sin_kernel (sign ? -(x64 + PIO2_X2) : -(x64 - PIO2_X2));
    }
  if (ix <= 0x40e231d5u)
    {
      /* |x| <= 9pi/4 */
      if (ix <= 0x40afeddfu)
        {
          /* |x| <= 7pi/4 */
          if (sign)
            return cos_kernel (x64 + PIO2_X3);
          return -cos_kernel (x64 - PIO2_X3);
        }
      return sin_kernel (sign ? x64 + PIO2_X4 : x64 - PIO2_X4);
    }

  if (ix >= 0x7f800000u)
    return x - x;

  n = reduce_pio2 (x, &y);
  switch ((unsigned int) n & 3u)
    {
    case 0:
      return sin_kernel (y);
    case 1:
      return cos_kernel (y);
    case 2:
      return sin_kernel (-y);
    default:
      return -cos_kernel (y);
    }
}

/* cos x as FreeBSD's s_cosf.c: 1 below 2^-12, then the same regions and
 * reductions as tp_sinf with the kernels exchanged. */
float
tp_cosf (float x)
{
  double x64 = (double) x;
  uint32_t ix = f32_bits (x);
  int sign = (ix >> 31) != 0;
  double y;
  int n;

  ix &= 0x7fffffffu;
  if (ix <= 0x3f490fdau)
    {
      /* |x| <= pi/4 */
      if (ix < 0x39800000u)
        return 1.0f;
      return cos_kernel (x64);
    }
  if (ix <= 0x407b53d1u)
    {
      /* |x| <= 5pi/4 */
      if (ix > 0x4016cbe3u)
        return -cos_kernel (sign ? x64 + PIO2_X2 : x64 - PIO2_X2);
      if (sign)
        return sin_kernel (x64 + PIO2_X1);
      return sin_kernel (PIO2_X1 - x64);
    }
  if (ix <= 0x40e231d5u)
    {
      /* |x| <= 9pi/4 */
      if (ix > 0x40afeddfu)
        return cos_kernel (sign ? x64 + PIO2_X4 : x64 - PIO2_X4);
      if (sign)
        return sin_kernel (-x64 - PIO2_X3);
      return sin_kernel (x64 - PIO2_X3);
    }

  if (ix >= 0x7f800000u)
    return x - x;

  n = reduce_pio2 (x, &y);
  switch ((unsigned int) n & 3u)
    {
    case 0:
      return cos_kernel (y);
    case 1:
      return sin_kernel (-y);
    case 2:
      return -cos_kernel (y);
    default:
      return sin_kernel (y);
    }
}

/* The correctly rounded square root; every IEEE implementation agrees on
 * it, the crate's sqrtss and wasm's f32.sqrt included. */
float
tp_sqrtf (float x)
{
  return __builtin_sqrtf (x);
}
