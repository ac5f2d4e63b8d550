/* tp-fmt.c: locale-free f32 <-> text, exactly as Rust writes and reads it.
 *
 * Formatting finds the shortest decimal inside the rounding interval of x
 * with exact integer arithmetic (the idea of Ryu: scale the interval bounds
 * by a power of ten, then drop digits while the interval still holds a
 * shorter decimal), and breaks ties the way Rust's Dragon4 does (an exact
 * tie rounds up, where Ryu would round to even).  Parsing estimates the
 * value in double precision and, only when the estimate is too close to a
 * rounding boundary, decides with an exact big-integer comparison.
 *
 * The tables below are printed by tests/fmt/gen-fmt-tables.py; the test
 * suite checks that they still match its output.
 */
#include "tp-fmt.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

static const uint64_t tp_pow5[48][2] = {
  { UINT64_C (0x0000000000000000), UINT64_C (0x0000000000000001) },
  { UINT64_C (0x0000000000000000), UINT64_C (0x0000000000000005) },
  { UINT64_C (0x0000000000000000), UINT64_C (0x0000000000000019) },
  { UINT64_C (0x0000000000000000), UINT64_C (0x000000000000007d) },
  { UINT64_C (0x0000000000000000), UINT64_C (0x0000000000000271) },
  { UINT64_C (0x0000000000000000), UINT64_C (0x0000000000000c35) },
  { UINT64_C (0x0000000000000000), UINT64_C (0x0000000000003d09) },
  { UINT64_C (0x0000000000000000), UINT64_C (0x000000000001312d) },
  { UINT64_C (0x0000000000000000), UINT64_C (0x000000000005f5e1) },
  { UINT64_C (0x0000000000000000), UINT64_C (0x00000000001dcd65) },
  { UINT64_C (0x0000000000000000), UINT64_C (0x00000000009502f9) },
  { UINT64_C (0x0000000000000000), UINT64_C (0x0000000002e90edd) },
  { UINT64_C (0x0000000000000000), UINT64_C (0x000000000e8d4a51) },
  { UINT64_C (0x0000000000000000), UINT64_C (0x0000000048c27395) },
  { UINT64_C (0x0000000000000000), UINT64_C (0x000000016bcc41e9) },
  { UINT64_C (0x0000000000000000), UINT64_C (0x000000071afd498d) },
  { UINT64_C (0x0000000000000000), UINT64_C (0x0000002386f26fc1) },
  { UINT64_C (0x0000000000000000), UINT64_C (0x000000b1a2bc2ec5) },
  { UINT64_C (0x0000000000000000), UINT64_C (0x000003782dace9d9) },
  { UINT64_C (0x0000000000000000), UINT64_C (0x00001158e460913d) },
  { UINT64_C (0x0000000000000000), UINT64_C (0x000056bc75e2d631) },
  { UINT64_C (0x0000000000000000), UINT64_C (0x0001b1ae4d6e2ef5) },
  { UINT64_C (0x0000000000000000), UINT64_C (0x000878678326eac9) },
  { UINT64_C (0x0000000000000000), UINT64_C (0x002a5a058fc295ed) },
  { UINT64_C (0x0000000000000000), UINT64_C (0x00d3c21bcecceda1) },
  { UINT64_C (0x0000000000000000), UINT64_C (0x0422ca8b0a00a425) },
  { UINT64_C (0x0000000000000000), UINT64_C (0x14adf4b7320334b9) },
  { UINT64_C (0x0000000000000000), UINT64_C (0x6765c793fa10079d) },
  { UINT64_C (0x0000000000000002), UINT64_C (0x04fce5e3e2502611) },
  { UINT64_C (0x000000000000000a), UINT64_C (0x18f07d736b90be55) },
  { UINT64_C (0x0000000000000032), UINT64_C (0x7cb2734119d3b7a9) },
  { UINT64_C (0x00000000000000fc), UINT64_C (0x6f7c40458122964d) },
  { UINT64_C (0x00000000000004ee), UINT64_C (0x2d6d415b85acef81) },
  { UINT64_C (0x00000000000018a6), UINT64_C (0xe32246c99c60ad85) },
  { UINT64_C (0x0000000000007b42), UINT64_C (0x6fab61f00de36399) },
  { UINT64_C (0x000000000002684c), UINT64_C (0x2e58e9b04570f1fd) },
  { UINT64_C (0x00000000000c097c), UINT64_C (0xe7bc90715b34b9f1) },
  { UINT64_C (0x00000000003c2f70), UINT64_C (0x86aed236c807a1b5) },
  { UINT64_C (0x00000000012ced32), UINT64_C (0xa16a1b11e8262889) },
  { UINT64_C (0x0000000005e0a1fd), UINT64_C (0x2712875988becaad) },
  { UINT64_C (0x000000001d6329f1), UINT64_C (0xc35ca4bfabb9f561) },
  { UINT64_C (0x0000000092efd1b8), UINT64_C (0xd0cf37be5aa1cae5) },
  { UINT64_C (0x00000002deaf189c), UINT64_C (0x140c16b7c528f679) },
  { UINT64_C (0x0000000e596b7b0c), UINT64_C (0x643c7196d9ccd05d) },
  { UINT64_C (0x00000047bf19673d), UINT64_C (0xf52e37f2410011d1) },
  { UINT64_C (0x00000166bb7f0435), UINT64_C (0xc9e717bb45005915) },
  { UINT64_C (0x00000701a97b150c), UINT64_C (0xf18376a85901bd69) },
  { UINT64_C (0x000023084f676940), UINT64_C (0xb7915149bd08b30d) },
};

static const uint64_t tp_inv5[30][2] = {
  { UINT64_C (0x0000000000000000), UINT64_C (0x0000000000000000) },
  { UINT64_C (0xcccccccccccccccc), UINT64_C (0xcccccccccccccccd) },
  { UINT64_C (0xa3d70a3d70a3d70a), UINT64_C (0x3d70a3d70a3d70a4) },
  { UINT64_C (0x83126e978d4fdf3b), UINT64_C (0x645a1cac083126ea) },
  { UINT64_C (0xd1b71758e219652b), UINT64_C (0xd3c36113404ea4a9) },
  { UINT64_C (0xa7c5ac471b478423), UINT64_C (0x0fcf80dc33721d54) },
  { UINT64_C (0x8637bd05af6c69b5), UINT64_C (0xa63f9a49c2c1b110) },
  { UINT64_C (0xd6bf94d5e57a42bc), UINT64_C (0x3d32907604691b4d) },
  { UINT64_C (0xabcc77118461cefc), UINT64_C (0xfdc20d2b36ba7c3e) },
  { UINT64_C (0x89705f4136b4a597), UINT64_C (0x31680a88f8953031) },
  { UINT64_C (0xdbe6fecebdedd5be), UINT64_C (0xb573440e5a884d1c) },
  { UINT64_C (0xafebff0bcb24aafe), UINT64_C (0xf78f69a51539d749) },
  { UINT64_C (0x8cbccc096f5088cb), UINT64_C (0xf93f87b7442e45d4) },
  { UINT64_C (0xe12e13424bb40e13), UINT64_C (0x2865a5f206b06fba) },
  { UINT64_C (0xb424dc35095cd80f), UINT64_C (0x538484c19ef38c95) },
  { UINT64_C (0x901d7cf73ab0acd9), UINT64_C (0x0f9d37014bf60a11) },
  { UINT64_C (0xe69594bec44de15b), UINT64_C (0x4c2ebe687989a9b4) },
  { UINT64_C (0xb877aa3236a4b449), UINT64_C (0x09befeb9fad487c3) },
  { UINT64_C (0x9392ee8e921d5d07), UINT64_C (0x3aff322e62439fd0) },
  { UINT64_C (0xec1e4a7db69561a5), UINT64_C (0x2b31e9e3d06c32e6) },
  { UINT64_C (0xbce5086492111aea), UINT64_C (0x88f4bb1ca6bcf585) },
  { UINT64_C (0x971da05074da7bee), UINT64_C (0xd3f6fc16ebca5e04) },
  { UINT64_C (0xf1c90080baf72cb1), UINT64_C (0x5324c68b12dd6339) },
  { UINT64_C (0xc16d9a0095928a27), UINT64_C (0x75b7053c0f178294) },
  { UINT64_C (0x9abe14cd44753b52), UINT64_C (0xc4926a9672793543) },
  { UINT64_C (0xf79687aed3eec551), UINT64_C (0x3a83ddbd83f52205) },
  { UINT64_C (0xc612062576589dda), UINT64_C (0x95364afe032a819e) },
  { UINT64_C (0x9e74d1b791e07e48), UINT64_C (0x775ea264cf55347e) },
  { UINT64_C (0xfd87b5f28300ca0d), UINT64_C (0x8bca9d6e188853fd) },
  { UINT64_C (0xcad2f7f5359a3b3e), UINT64_C (0x096ee45813a04331) },
};

static const uint8_t tp_inv5_shift[30] = {
  0, 130, 132, 134, 137, 139, 141, 144, 146, 148,
  151, 153, 155, 158, 160, 162, 165, 167, 169, 172,
  174, 176, 179, 181, 183, 186, 188, 190, 193, 195,
};

/* ------------------------------------------------------------------ */
/* Formatting                                                          */
/* ------------------------------------------------------------------ */

/* floor (e * log10 (2)) for -400 <= e <= 400 (checked against exact
 * integers), without relying on how a negative number shifts right. */
static int
floor_log10_pow2 (int e)
{
  return ((e * 78913 + (64 << 18)) >> 18) - 64;
}

/* r = m * t, where t is a 128-bit table entry { high, low } and m < 2^32;
 * r is 192 bits, least significant word first. */
static void
mul_32x128 (uint32_t m, const uint64_t t[2], uint64_t r[3])
{
#if defined (__SIZEOF_INT128__)
  /* Two 64 x 32 products in the compiler's 128-bit integers: the same
   * words, in fewer instructions. */
  unsigned __int128 lo = (unsigned __int128) t[1] * m;
  unsigned __int128 hi = (unsigned __int128) t[0] * m + (uint64_t) (lo >> 64);

  r[0] = (uint64_t) lo;
  r[1] = (uint64_t) hi;
  r[2] = (uint64_t) (hi >> 64);
#else
  uint64_t lo_lo = (t[1] & 0xffffffffu) * m;
  uint64_t lo_hi = (t[1] >> 32) * m;
  uint64_t hi_lo = (t[0] & 0xffffffffu) * m;
  uint64_t hi_hi = (t[0] >> 32) * m;
  uint64_t w0 = lo_lo + (lo_hi << 32);
  uint64_t w1 = (lo_hi >> 32) + (w0 < lo_lo) + hi_lo;
  uint64_t w1b = w1 + (hi_hi << 32);

  r[0] = w0;
  r[1] = w1b;
  r[2] = (hi_hi >> 32) + (w1b < w1);
#endif
}

/* floor (p / 2^s) for 0 < s < 192, known to fit in 64 bits. */
static uint64_t
shift_right_192 (const uint64_t p[3], int s)
{
  int w = s / 64;
  int b = s % 64;
  uint64_t lo = p[w];
  uint64_t hi = w < 2 ? p[w + 1] : 0;

  return b == 0 ? lo : (lo >> b) | (hi << (64 - b));
}

/* Whether p is a multiple of 2^s, 0 < s < 192. */
static bool
low_bits_zero_192 (const uint64_t p[3], int s)
{
  int w = s / 64;
  int b = s % 64;

  for (int i = 0; i < w; i++)
    if (p[i] != 0)
      return false;
  return b == 0 || (p[w] & ((UINT64_C (1) << b) - 1)) == 0;
}

/* floor (n * 2^e2 / 10^q) for one of the three scaled interval points,
 * where q = floor_log10_pow2 (e2) - 1 as chosen by shortest_digits();
 * *exact tells whether the division left no remainder.  The result is
 * below 100 * 2^27 by the choice of q.
 *
 * q <= 0: n * 5^-q * 2^(e2 - q) is computed exactly (5^47 needs 110 bits).
 * q > 0:  n * 2^k / 5^q with k = e2 - q uses a 128-bit upper approximation
 *         of 2^(127+L) / 5^q (L = bit length of 5^q).  The overestimate is
 *         below 2^(27 + k - 127 - L) <= 2^-L < 5^-q as k <= 73, while a
 *         nonzero fractional part of n * 2^k / 5^q is at most 1 - 5^-q, so
 *         the floor is exact; the division is exact iff 5^q divides n. */
static inline uint64_t
scaled_floor (uint32_t n, int e2, int q, bool *exact)
{
  uint64_t p[3];

  if (q <= 0)
    {
      int t = e2 - q;

      if (t >= 0)
        {
          /* Only for -2 <= e2 <= 6, where q >= -2: tiny numbers. */
          *exact = true;
          return ((uint64_t) n * tp_pow5[-q][1]) << t;
        }
      mul_32x128 (n, tp_pow5[-q], p);
      *exact = low_bits_zero_192 (p, -t);
      return shift_right_192 (p, -t);
    }
  else
    {
      /* n < 2^27 and 5^11 < 2^32: a 32-bit remainder */
      *exact = q <= 11 && (uint32_t) n % (uint32_t) tp_pow5[q][1] == 0;
      mul_32x128 (n, tp_inv5[q], p);
      return shift_right_192 (p, tp_inv5_shift[q] - (e2 - q));
    }
}

/* A product n * f for n < 2^27 and f < 2^64 as top * 2^32 + low, in
 * 64-bit words only (top < 2^60). */
typedef struct
{
  uint64_t top;
  uint32_t low;
} Wide;

static inline Wide
wide_mul (uint32_t n, uint64_t f)
{
  uint64_t lo = (uint64_t) n * (f & 0xffffffffu);
  Wide r = { (uint64_t) n * (f >> 32) + (lo >> 32), (uint32_t) lo };

  return r;
}

static inline Wide
wide_add (Wide x, Wide y)
{
  uint64_t low = (uint64_t) x.low + y.low;
  Wide r = { x.top + y.top + (low >> 32), (uint32_t) low };

  return r;
}

static inline Wide
wide_sub (Wide x, Wide y)
{
  Wide r = { x.top - y.top - (x.low < y.low), x.low - y.low };

  return r;
}

/* floor (x / 2^s) for 0 < s <= 60, known to fit in 64 bits; *exact tells
 * whether nothing was cut off. */
static inline uint64_t
wide_shift (Wide x, int s, bool *exact)
{
  if (s < 32)
    {
      *exact = (x.low & ((UINT32_C (1) << s) - 1)) == 0;
      return (x.top << (32 - s)) | (x.low >> s);
    }
  *exact = x.low == 0 && (x.top & ((UINT64_C (1) << (s - 32)) - 1)) == 0;
  return x.top >> (s - 32);
}

/* The shortest decimal digits * 10^*exp10 that reads back as the finite,
 * nonzero f32 with biased exponent be and fraction frac.
 *
 * The f32 is v = m * 2^e; with e2 = e - 2 the values that round to it lie
 * between mm * 2^e2 and mp * 2^e2 around mv * 2^e2 (mv = 4m, mp = 4m + 2,
 * mm = 4m - 2, or 4m - 1 at a power of two whose lower neighbour is
 * closer), bounds included when m is even (round-half-even).  Scaled down
 * by 10^q those are a <= b <= c; digits are then dropped while the
 * interval still contains a multiple of the next power of ten.  Among the
 * (at most two) shortest candidates b and b + 1 the one closer to v wins,
 * and an exact tie rounds up, as Rust's Dragon4 does. */
static uint32_t
shortest_digits (uint32_t be, uint32_t frac, int *exp10)
{
  uint32_t m = be == 0 ? frac : frac | 0x800000u;
  int e2 = (be == 0 ? 1 : (int) be) - 150 - 2;
  uint32_t mv = 4 * m;
  uint32_t mp = mv + 2;
  uint32_t mm = mv - (frac == 0 && be > 1 ? 1 : 2);
  bool inclusive = (m & 1) == 0;
  int q = floor_log10_pow2 (e2) - 1;
  bool a_exact, c_exact, ignored;
  uint64_t a, b, c;
  uint32_t last = 0;
  uint64_t digits;

  if (q <= 0 && q >= -27 && e2 < q)
    {
      /* The common case, numbers from about 1e-26 to 1: the three points
       * times 5^-q, divided by 2^(q - e2), from one product (5^27 <
       * 2^63, so (mv + 2) * 5^-q < 2^90). */
      uint64_t f = tp_pow5[-q][1];
      Wide v = wide_mul (mv, f);

      a = wide_shift (wide_sub (v, wide_mul (mv - mm, f)), q - e2, &a_exact);
      b = wide_shift (v, q - e2, &ignored);
      c = wide_shift (wide_add (v, wide_mul (2, f)), q - e2, &c_exact);
    }
  else
    {
      a = scaled_floor (mm, e2, q, &a_exact);
      b = scaled_floor (mv, e2, q, &ignored);
      c = scaled_floor (mp, e2, q, &c_exact);
    }
  /* The scaled interval is at least 30 units wide (10^(q+1) <= 2^e2 and
   * mp - mm >= 3), so the loop below runs at least once and `last`, the
   * first dropped digit of b, is always set. */
  if (!inclusive && c_exact)
    c--;
  a_exact = a_exact && inclusive;

  /* Two digits at a time while two can go: the same steps as the loop
   * below, taken in pairs (c / 100 > a / 100 implies c / 10 > a / 10
   * both before and after one digit is dropped). */
  while (c / 100 > a / 100)
    {
      a_exact = a_exact && a % 100 == 0;
      last = (uint32_t) (b % 100) / 10;
      a /= 100;
      b /= 100;
      c /= 100;
      q += 2;
    }
  while (c / 10 > a / 10)
    {
      a_exact = a_exact && a % 10 == 0;
      last = (uint32_t) (b % 10);
      a /= 10;
      b /= 10;
      c /= 10;
      q++;
    }
  /* The lower bound itself is a candidate when it is included and exact:
   * keep dropping its trailing zeros.  c / 10 == a / 10 now, so b shares
   * a's leading digits and becomes equal to a. */
  if (a_exact)
    while (a % 10 == 0)
      {
        last = (uint32_t) (b % 10);
        a /= 10;
        b /= 10;
        q++;
      }

  digits = b + (last >= 5 || (b == a && !a_exact));
  while (digits % 10 == 0)
    {
      digits /= 10;
      q++;
    }
  *exp10 = q;
  return (uint32_t) digits;
}

/* "00" to "99", for writing digits two at a time. */
static const char pairs[201] =
  "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
  "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
  "8081828384858687888990919293949596979899";

/* Writes the decimal digits of d (0 < d < 10^9, as an f32's shortest
 * digits are) right-aligned before end; returns the start.  All nine
 * places are written, leading zeros too, from four quotients that do
 * not wait for one another, and the digits are counted by comparisons:
 * no loop whose length varies from one number to the next (its exit was
 * mispredicted), no chain of divisions.  32-bit, as wasm divides 64-bit
 * words by a constant with a real division. */
static char *
write_digits (uint32_t d, char *end)
{
  uint32_t low = d % 100000000u, a = low / 10000u, b = low % 10000u;
  unsigned n = 1u + (d >= 10u) + (d >= 100u) + (d >= 1000u) + (d >= 10000u)
               + (d >= 100000u) + (d >= 1000000u) + (d >= 10000000u)
               + (d >= 100000000u);

  end[-9] = (char) ('0' + d / 100000000u);
  memcpy (end - 8, pairs + 2 * (a / 100u), 2);
  memcpy (end - 6, pairs + 2 * (a % 100u), 2);
  memcpy (end - 4, pairs + 2 * (b / 100u), 2);
  memcpy (end - 2, pairs + 2 * (b % 100u), 2);
  return end - n;
}

static size_t
write_special (const char *text, char *buf)
{
  size_t n = strlen (text);

  memcpy (buf, text, n + 1);
  return n;
}

/* n zeros at o, written eight at a time (up to seven more after them,
 * which the caller's next bytes overwrite or leave past the end). */
static inline void
put_zeros (char *o, int n)
{
  for (int z = 0; z < n; z += 8)
    memcpy (o + z, "00000000", 8);
}

/* Shared tail of Display and Debug: x as positional decimal or, for Debug
 * outside [1e-4, 1e16), as d.ddde-N.  Mirrors Rust's digits_to_dec_str and
 * digits_to_exp_str: with `debug` a whole number gets ".0".
 *
 * The digits (at most 9) are copied 16 bytes at a time and zeros 8 at a
 * time, whatever their count: fixed-size copies the compiler writes as a
 * few moves, never a call.  The longest text is 48 bytes ("-0.", 44
 * zeros and a digit), so no copy reaches past the TP_FMT_F32_MAX bytes
 * the caller gives; what lands past the text's end is overwritten by its
 * NUL or left unread. */
static size_t
format_f32 (float x, char *buf, bool debug)
{
  uint32_t bits;
  uint32_t be, frac;
  char *o = buf;
  char tmp[32];                 /* the digits end at tmp + 16 */
  char *d;
  size_t n;
  int exp10, k;

  memcpy (&bits, &x, sizeof bits);
  be = (bits >> 23) & 0xffu;
  frac = bits & 0x7fffffu;
  if (be == 0xffu)
    {
      if (frac != 0)
        return write_special ("NaN", buf);
      return write_special (bits >> 31 ? "-inf" : "inf", buf);
    }
  if (bits >> 31)
    *o++ = '-';
  if (be == 0 && frac == 0)
    {
      /* one fixed-size copy (a copy of either length was a call in
       * wasm), cut after the 0 for Display */
      memcpy (o, "0.0", 4);
      if (!debug)
        o[1] = '\0';
      return (size_t) (o - buf) + (debug ? 3 : 1);
    }

  memset (tmp + 16, '0', 16);
  d = write_digits (shortest_digits (be, frac, &exp10), tmp + 16);
  n = (size_t) (tmp + 16 - d);
  k = exp10 + (int) n;     /* x = 0.d1d2d3... * 10^k */

  /* 0x38d1b717 is 1e-4f and 0x5a0e1bca is 1e16f, compared as magnitudes. */
  if (debug && ((bits & 0x7fffffffu) < 0x38d1b717u
                || (bits & 0x7fffffffu) >= 0x5a0e1bcau))
    {
      int e = k - 1;

      *o++ = d[0];
      if (n > 1)
        {
          *o++ = '.';
          memcpy (o, d + 1, 16);
          o += n - 1;
        }
      *o++ = 'e';
      if (e < 0)
        {
          *o++ = '-';
          e = -e;
        }
      if (e >= 10)
        *o++ = (char) ('0' + e / 10);
      *o++ = (char) ('0' + e % 10);
    }
  else if (k <= 0)
    {
      *o++ = '0';
      *o++ = '.';
      put_zeros (o, -k);
      o += -k;
      memcpy (o, d, 16);
      o += n;
    }
  else if ((size_t) k < n)
    {
      memcpy (o, d, 16);
      o += k;
      *o++ = '.';
      memcpy (o, d + k, 16);
      o += n - (size_t) k;
    }
  else
    {
      memcpy (o, d, 16);
      o += n;
      put_zeros (o, k - (int) n);
      o += (size_t) k - n;
      if (debug)
        {
          *o++ = '.';
          *o++ = '0';
        }
    }
  *o = '\0';
  return (size_t) (o - buf);
}

/* 10^k for k up to 19, the most a 64-bit word holds. */
static const uint64_t powers_of_ten[20] = {
  UINT64_C (1), UINT64_C (10), UINT64_C (100), UINT64_C (1000),
  UINT64_C (10000), UINT64_C (100000), UINT64_C (1000000),
  UINT64_C (10000000), UINT64_C (100000000), UINT64_C (1000000000),
  UINT64_C (10000000000), UINT64_C (100000000000),
  UINT64_C (1000000000000), UINT64_C (10000000000000),
  UINT64_C (100000000000000), UINT64_C (1000000000000000),
  UINT64_C (10000000000000000), UINT64_C (100000000000000000),
  UINT64_C (1000000000000000000), UINT64_C (10000000000000000000),
};

size_t
tp_fmt_u64 (uint64_t value, char *p)
{
  /* The count from the bit length: (bits * 1233) >> 12 is
   * floor(bits * log10(2)), 10^t or one more digit (one comparison),
   * where a loop divided by ten once per digit. */
  unsigned bits = 64u - (unsigned) __builtin_clzll (value | 1u);
  unsigned t = (bits * 1233u) >> 12;
  size_t n = t + (value >= powers_of_ten[t]) + (value == 0);
  char *end;

#if defined (__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  if (value < UINT64_C (100000000))
    {
      /* Below 10^8 (the maps' offsets and every node number): eight
       * digits from four quotients that do not wait for one another, in
       * one word, first digit lowest, shifted past the leading zeros and
       * stored whole (the room is 20 bytes; what lands past the digits
       * is the caller's to overwrite). */
      uint32_t v = (uint32_t) value, a = v / 10000u, b = v % 10000u;
      uint16_t q0, q1, q2, q3;
      uint64_t word;
      memcpy (&q0, pairs + 2 * (a / 100u), 2);
      memcpy (&q1, pairs + 2 * (a % 100u), 2);
      memcpy (&q2, pairs + 2 * (b / 100u), 2);
      memcpy (&q3, pairs + 2 * (b % 100u), 2);
      /* (in registers: an array here would live in wasm's memory) */
      word = (uint64_t) q0 | (uint64_t) q1 << 16 | (uint64_t) q2 << 32
             | (uint64_t) q3 << 48;
      word >>= 8 * (8 - n);
      memcpy (p, &word, 8);
      return n;
    }
#endif
  end = p + n;
  while (value >= 100)
    {
      end -= 2;
      memcpy (end, pairs + 2 * (value % 100), 2);
      value /= 100;
    }
  if (value >= 10)
    memcpy (end - 2, pairs + 2 * value, 2);
  else
    end[-1] = (char) ('0' + value);
  return n;
}

size_t
tp_fmt_f32_display (float x, char *buf)
{
  return format_f32 (x, buf, false);
}

size_t
tp_fmt_f32_debug (float x, char *buf)
{
  return format_f32 (x, buf, true);
}

/* ------------------------------------------------------------------ */
/* Parsing                                                             */
/* ------------------------------------------------------------------ */

/* Significant digits kept for the exact comparison.  A rounding boundary
 * of f32 (a midpoint between neighbours) has at most 113 significant
 * digits, so with 128 digits any further nonzero digit can only act as a
 * sticky bit that breaks an exact tie. */
#define TP_PARSE_SIG_DIGITS 128
/* 1536 bits.  The largest operand of compare_with_midpoint() is below 720
 * bits: 128 digits (426 bits) shifted by at most 188, or the midpoint
 * (26 bits) times at most 5^173 (402 bits) shifted by at most 276. */
#define TP_BIG_LIMBS 48

/* The digits of a Number: the integer digits text[int_begin, int_end) and
 * the fraction digits text[frac_begin, frac_end) form one digit string;
 * first and last index its outermost nonzero digits. */
typedef struct
{
  const unsigned char *text;
  size_t int_begin, int_end, frac_begin, frac_end;
  int64_t first, last;
} TpDigits;

/* Nonnegative integer in 32-bit limbs, least significant first. */
typedef struct
{
  uint32_t limb[TP_BIG_LIMBS];
  int n;
} TpBig;

static int
digit_at (const TpDigits *ds, int64_t k)
{
  size_t n_int = ds->int_end - ds->int_begin;
  size_t i = (size_t) k < n_int ? ds->int_begin + (size_t) k
                                : ds->frac_begin + ((size_t) k - n_int);

  return ds->text[i] - '0';
}

static void
big_mul_add (TpBig *x, uint32_t mul, uint32_t add)
{
  uint64_t carry = add;

  for (int i = 0; i < x->n; i++)
    {
      uint64_t v = (uint64_t) x->limb[i] * mul + carry;

      x->limb[i] = (uint32_t) v;
      carry = v >> 32;
    }
  if (carry != 0)
    x->limb[x->n++] = (uint32_t) carry;
}

static void
big_mul_pow5 (TpBig *x, int e)
{
  for (; e >= 13; e -= 13)
    big_mul_add (x, 1220703125u, 0);
  if (e > 0)
    big_mul_add (x, (uint32_t) tp_pow5[e][1], 0);
}

static void
big_shift_left (TpBig *x, int s)
{
  int w = s / 32;
  int b = s % 32;

  if (x->n == 0)
    return;
  if (b != 0)
    {
      uint32_t carry = 0;

      for (int i = 0; i < x->n; i++)
        {
          uint32_t v = x->limb[i];

          x->limb[i] = (v << b) | carry;
          carry = v >> (32 - b);
        }
      if (carry != 0)
        x->limb[x->n++] = carry;
    }
  if (w != 0)
    {
      memmove (x->limb + w, x->limb, (size_t) x->n * sizeof x->limb[0]);
      memset (x->limb, 0, (size_t) w * sizeof x->limb[0]);
      x->n += w;
    }
}

static int
big_compare (const TpBig *x, const TpBig *y)
{
  if (x->n != y->n)
    return x->n < y->n ? -1 : 1;
  for (int i = x->n - 1; i >= 0; i--)
    if (x->limb[i] != y->limb[i])
      return x->limb[i] < y->limb[i] ? -1 : 1;
  return 0;
}

/* Compares the decimal value exactly with the midpoint between the f32
 * bit patterns lo and lo + 1 (positive; lo + 1 may be the infinity
 * pattern, standing for 2^128): returns <0, 0 or >0.  p is the place of
 * the leading significant digit.  With mant, exp the integer significand
 * and exponent of lo, the midpoint is (2 mant + 1) * 2^(exp - 1). */
static int
compare_with_midpoint (const TpDigits *ds, int64_t p, uint32_t lo)
{
  uint32_t be = lo >> 23;
  uint32_t mant = be == 0 ? lo & 0x7fffffu : (lo & 0x7fffffu) | 0x800000u;
  int t = (be == 0 ? 1 : (int) be) - 150 - 1;
  TpBig dec = { { 0 }, 0 };
  TpBig mid = { { 0 }, 0 };
  int64_t k, taken = 0;
  int e10, two_dec = 0, two_mid = t;
  int order;

  for (k = ds->first; k <= ds->last && taken < TP_PARSE_SIG_DIGITS; k++, taken++)
    big_mul_add (&dec, 10, (uint32_t) digit_at (ds, k));
  e10 = (int) (p - taken + 1);   /* decimal value ~ dec * 10^e10 */

  mid.limb[0] = 2 * mant + 1;
  mid.n = 1;
  /* dec * 2^e10 * 5^e10 against mid * 2^t: move the power of five to the
   * side where it is a multiplication, then align the powers of two. */
  if (e10 >= 0)
    big_mul_pow5 (&dec, e10);
  else
    big_mul_pow5 (&mid, -e10);
  two_dec = e10;
  if (two_dec > two_mid)
    big_shift_left (&dec, two_dec - two_mid);
  else
    big_shift_left (&mid, two_mid - two_dec);

  order = big_compare (&dec, &mid);
  if (order == 0 && k <= ds->last)
    order = 1;   /* nonzero digits beyond the ones taken */
  return order;
}

/* Value of a positive f32 bit pattern as a double, with the infinity
 * pattern standing for 2^128, the next step above FLT_MAX. */
static double
pattern_value (uint32_t bits)
{
  float f;

  if (bits >= 0x7f800000u)
    return 0x1p128;
  memcpy (&f, &bits, sizeof f);
  return (double) f;
}

/* x * 10^e in double precision, for -70 <= e <= 40: at most four
 * roundings, so the relative error stays below 2^-50. */
static double
scale_pow10 (double x, int e)
{
  static const double pow10[23] = {
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
  };

  for (; e > 22; e -= 22)
    x *= 1e22;
  for (; e < -22; e += 22)
    x /= 1e22;
  return e >= 0 ? x * pow10[e] : x / pow10[-e];
}

/* The positive f32 bit pattern nearest to the digits (round-half-even).
 * p is the place of the leading significant digit, -46 <= p <= 38.
 *
 * A double estimate from the first 19 significant digits is within
 * 2^-50 (relative) of the true value, so rounding it to f32 can only be
 * wrong when it lies within that distance of a midpoint between two
 * f32 neighbours; only then is the midpoint compared exactly. */
static uint32_t
round_digits (const TpDigits *ds, int64_t p)
{
  uint64_t m19 = 0;
  int64_t k = ds->first;
  int taken = 0;
  double estimate;
  float candidate;
  uint32_t cb;

  for (; k <= ds->last && taken < 19; k++, taken++)
    m19 = m19 * 10 + (uint64_t) digit_at (ds, k);
  estimate = scale_pow10 ((double) m19, (int) p - taken + 1);

  if (estimate >= 0x1p128)
    cb = 0x7f800000u;
  else
    {
      candidate = (float) estimate;
      memcpy (&cb, &candidate, sizeof cb);
    }

  /* Is the estimate near the midpoint below or above the candidate? */
  for (int side = 0; side < 2; side++)
    {
      uint32_t lo = side == 0 ? cb - 1 : cb;
      double mid;

      if ((side == 0 && cb == 0) || (side == 1 && cb >= 0x7f800000u))
        continue;
      mid = (pattern_value (lo) + pattern_value (lo + 1)) * 0.5;
      if (fabs (estimate - mid) <= mid * 0x1p-44)
        {
          int order = compare_with_midpoint (ds, p, lo);

          if (order < 0)
            return lo;
          if (order > 0)
            return lo + 1;
          return (lo & 1) == 0 ? lo : lo + 1;
        }
    }
  return cb;
}

/* Rust's parse_inf_nan: exactly "inf", "infinity" or "nan", any case. */
static bool
parse_special (const unsigned char *s, size_t len, bool negative, float *out)
{
  static const char *const words[3] = { "inf", "infinity", "nan" };
  static const uint32_t values[3] = { 0x7f800000u, 0x7f800000u, 0x7fc00000u };

  for (int w = 0; w < 3; w++)
    {
      size_t n = strlen (words[w]);
      size_t i = 0;

      if (n != len)
        continue;
      while (i < n && (s[i] | 0x20) == (unsigned char) words[w][i])
        i++;
      if (i == n)
        {
          uint32_t bits = values[w] | (negative ? 0x80000000u : 0);

          memcpy (out, &bits, sizeof *out);
          return true;
        }
    }
  return false;
}

static bool
is_digit (unsigned char c)
{
  return c >= '0' && c <= '9';
}

bool
tp_parse_f32 (const char *text, size_t len, float *out)
{
  const unsigned char *s = (const unsigned char *) text;
  TpDigits ds;
  size_t i = 0;
  size_t n_digits;
  bool negative = false;
  int64_t exponent = 0;
  int64_t p;
  uint32_t bits;

  if (len == 0)
    return false;
  if (s[0] == '+' || s[0] == '-')
    {
      negative = s[0] == '-';
      i = 1;
      if (len == 1)
        return false;
    }

  ds.text = s;
  ds.int_begin = i;
  while (i < len && is_digit (s[i]))
    i++;
  ds.int_end = ds.frac_begin = ds.frac_end = i;
  if (i < len && s[i] == '.')
    {
      ds.frac_begin = ++i;
      while (i < len && is_digit (s[i]))
        i++;
      ds.frac_end = i;
    }
  n_digits = (ds.int_end - ds.int_begin) + (ds.frac_end - ds.frac_begin);
  if (n_digits == 0)
    return parse_special (s + ds.int_begin, len - ds.int_begin, negative, out);

  if (i < len && (s[i] == 'e' || s[i] == 'E'))
    {
      bool exp_negative = false;

      i++;
      if (i < len && (s[i] == '+' || s[i] == '-'))
        exp_negative = s[i++] == '-';
      if (i == len || !is_digit (s[i]))
        return false;
      /* Rust stops accumulating at 65536 and ignores further digits. */
      for (; i < len && is_digit (s[i]); i++)
        if (exponent < 0x10000)
          exponent = exponent * 10 + (s[i] - '0');
      if (exp_negative)
        exponent = -exponent;
    }
  if (i != len)
    return false;

  ds.first = 0;
  ds.last = -1;
  while ((size_t) ds.first < n_digits && digit_at (&ds, ds.first) == 0)
    ds.first++;
  if ((size_t) ds.first == n_digits)
    bits = 0;
  else
    {
      ds.last = (int64_t) n_digits - 1;
      while (digit_at (&ds, ds.last) == 0)
        ds.last--;
      /* The digit string is the integer digits * 10^-(fraction digits). */
      p = (int64_t) n_digits - 1 - ds.first
          - (int64_t) (ds.frac_end - ds.frac_begin) + exponent;
      if (p >= 39)
        bits = 0x7f800000u;   /* >= 1e39: beyond the rounding edge of FLT_MAX */
      else if (p <= -47)
        bits = 0;             /* < 1e-46: below half the smallest subnormal */
      else
        bits = round_digits (&ds, p);
    }

  if (negative)
    bits |= 0x80000000u;
  memcpy (out, &bits, sizeof *out);
  return true;
}
