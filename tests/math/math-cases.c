/* math-cases.c: the argument set for the transcendental comparisons
 *
 * Random bit patterns cover every exponent evenly; the ranged random values,
 * sweeps and neighbourhoods below put many more arguments where the
 * algorithms branch: the thresholds of each function, the subnormals, the
 * multiples of pi/4 and the huge arguments of sin and cos.
 */

#include "math-cases.h"

#include <inttypes.h>
#include <stdio.h>

#include "tp-math.h"

const MathFunction math_functions[MATH_N_FUNCTIONS] = {
  { "expf", tp_expf },
  { "logf", tp_logf },
  { "tanhf", tp_tanhf },
  { "sinf", tp_sinf },
  { "cosf", tp_cosf },
  { "sqrtf", tp_sqrtf },
};

typedef struct
{
  uint32_t *out;                /* NULL while counting */
  size_t len;
  uint64_t state;               /* splitmix64 */
} Writer;

static void
put (Writer *w, uint32_t bits)
{
  if (w->out != NULL)
    w->out[w->len] = bits;
  w->len++;
}

static uint64_t
next_random (Writer *w)
{
  uint64_t z;

  w->state += UINT64_C (0x9e3779b97f4a7c15);
  z = w->state;
  z = (z ^ (z >> 30)) * UINT64_C (0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * UINT64_C (0x94d049bb133111eb);
  return z ^ (z >> 31);
}

/* The 2 * radius + 1 patterns centred on bits, and their negatives. */
static void
put_around (Writer *w, uint32_t bits, uint32_t radius)
{
  uint32_t mag = bits & 0x7fffffffu;
  uint32_t lo = mag > radius ? mag - radius : 0;
  uint32_t hi = mag + radius < 0x7f800000u ? mag + radius : 0x7f800000u;
  uint32_t b;

  for (b = lo; b <= hi; b++)
    {
      put (w, b);
      put (w, b | 0x80000000u);
    }
}

/* count floats drawn uniformly from [-limit, limit] */
static void
put_uniform (Writer *w, double limit, size_t count)
{
  size_t i;

  for (i = 0; i < count; i++)
    {
      double u = (double) (next_random (w) >> 11) * 0x1p-53;

      put (w, math_bits ((float) ((2.0 * u - 1.0) * limit)));
    }
}

/* Where the algorithms branch, as |x| bit patterns: expf's overflow,
 * subnormal and zero thresholds and reduction cut-offs; logf around 1 and
 * its reduction's pivot sqrt(2)/2; tanhf's switch points and those of
 * expm1f(2x) it calls; the region bounds of sinf and cosf (2^-12, pi/4,
 * 3pi/4, 5pi/4, 7pi/4, 9pi/4, 2^28 pi/2); the edges of the normal range. */
static const uint32_t thresholds[] = {
  0x42aeac50u, 0x42b17218u, 0x42b17217u, 0x42cff1b5u, 0x3eb17218u,
  0x3f851592u, 0x39000000u, 0x42fe0000u, 0x43000000u, 0x42c80000u,
  0x3f800000u, 0x3f3504f3u, 0x3fb504f3u, 0x3f7fffffu, 0x40000000u,
  0x3f0c9f54u, 0x41200000u, 0x3e82c578u, 0x3e317218u, 0x3f051592u,
  0x32800000u, 0x4115b844u, 0x40ff0000u, 0x41a00000u,
  0x39800000u, 0x3f490fdau, 0x4016cbe3u, 0x407b53d1u, 0x40afeddfu,
  0x40e231d5u, 0x4dc90fdbu, 0x4e000000u, 0x4f000000u, 0x5f000000u,
  0x00800000u, 0x00000000u, 0x7f7fffffu, 0x7f800000u, 0x3f000000u,
};

/* NaNs quiet and signalling, of both signs and various payloads. */
static const uint32_t nans[] = {
  0x7fc00000u, 0xffc00000u, 0x7f800001u, 0xff800001u, 0x7fa00000u,
  0xffa00000u, 0x7fffffffu, 0xffffffffu, 0x7fc12345u, 0xff812345u,
  0x7fbfffffu, 0xffbfffffu,
};

/* Large arguments whose sinf or cosf lies so close to a rounding boundary
 * that reducing with too few pieces of 2/pi (skipping k_rem_pio2's
 * recomputation when the fraction's leading digits vanish) changes the last
 * bit: all 181 positive ones, found by comparing such a variant with
 * tp-math.c on every float from 2^28 pi/2 up. */
static const uint32_t hard_reductions[] = {
  0x559d5d20u, 0x56685dbeu, 0x5692edd5u, 0x56a88c65u, 0x56e85dbeu,
  0x56f5700du, 0x570097dcu, 0x5708dd3du, 0x57288c65u, 0x573aaa39u,
  0x57593b2fu, 0x5767381fu, 0x57685dbeu, 0x57753c65u, 0x578097dcu,
  0x578fe057u, 0x57903500u, 0x579381cbu, 0x57a06f97u, 0x57a88c65u,
  0x57aae0d7u, 0x57b6236eu, 0x57b6ccc0u, 0x57b82989u, 0x57bab45eu,
  0x57bb70a6u, 0x57cc4052u, 0x57cd2240u, 0x57d64d15u, 0x57d93b2fu,
  0x57e01e12u, 0x57e85dbeu, 0x57fe6c01u, 0x57ff326eu, 0x57ff6527u,
  0x580097dcu, 0x580908dbu, 0x580b297bu, 0x58103500u, 0x58138e69u,
  0x58180dd4u, 0x5820b572u, 0x58254548u, 0x582843f1u, 0x58288c65u,
  0x582e8f12u, 0x58382989u, 0x58389aa3u, 0x58393786u, 0x583f4b48u,
  0x583ff81bu, 0x584229e2u, 0x5848239au, 0x5848bbd7u, 0x584a221bu,
  0x584cced5u, 0x584ea15fu, 0x58525646u, 0x5854c6b0u, 0x58584f80u,
  0x58593b2fu, 0x58601e12u, 0x58668fdbu, 0x58674b79u, 0x586a518du,
  0x586a6ef4u, 0x58796126u, 0x587aa228u, 0x587bf378u, 0x61435120u,
  0x61c35120u, 0x62435120u, 0x6257edd2u, 0x627ca3aau, 0x62c35120u,
  0x62cbdda7u, 0x62ec1b4au, 0x62f0f8cdu, 0x63435120u, 0x634f8724u,
  0x636c1b4au, 0x638053b1u, 0x63944688u, 0x6396b1a6u, 0x63b333a1u,
  0x63b93188u, 0x63bc09e4u, 0x63bdcad5u, 0x63bee02cu, 0x63c35120u,
  0x63c99d64u, 0x63d59086u, 0x63e600c1u, 0x63e604e4u, 0x63ec1b4au,
  0x640d0307u, 0x64247f2fu, 0x6425c9e9u, 0x6428692bu, 0x642e0733u,
  0x64393188u, 0x643a6d38u, 0x643decaeu, 0x6440602cu, 0x64435120u,
  0x6454acfdu, 0x645bae7fu, 0x646600c1u, 0x646c1b4au, 0x646eee3du,
  0x646f33a0u, 0x646faeaau, 0x646fe041u, 0x6471f6d4u, 0x64769e73u,
  0x647d3a43u, 0x6d3978ebu, 0x6ddb5152u, 0x6eae4630u, 0x6f0ed119u,
  0x6f521b0au, 0x6f5f02fau, 0x6f623e30u, 0x6f79be45u, 0x6f7b74d9u,
  0x6f8a3cc8u, 0x6f8ed119u, 0x6f90e60du, 0x6f91cb85u, 0x6fac92bfu,
  0x6fc44fe8u, 0x6fc6a02fu, 0x6fda6ea9u, 0x6fdf02fau, 0x6fee5d5fu,
  0x6ff9be45u, 0x6ffbdf42u, 0x6fff1131u, 0x7006e738u, 0x700a3cc8u,
  0x700ec7dfu, 0x700ed119u, 0x7019e496u, 0x7032259bu, 0x703376ddu,
  0x70349fe1u, 0x7043a5c3u, 0x7046a02fu, 0x70478c65u, 0x704ac6dbu,
  0x704c1796u, 0x704f7029u, 0x70588019u, 0x70599eaau, 0x705a6ea9u,
  0x705c67dau, 0x705d785au, 0x705f02fau, 0x7073934bu, 0x7077d36au,
  0x7079be45u, 0x707c30e4u, 0x707d7ddeu, 0x707e3285u, 0x707f1131u,
  0x7a3912bdu, 0x7b3f53b1u, 0x7b51a603u, 0x7b835452u, 0x7bd42dc8u,
  0x7c14cba3u, 0x7c23ba2cu, 0x7c283da3u, 0x7c30f089u, 0x7c3aeecau,
  0x7c4b4264u, 0x7c5117fau, 0x7c54bdf3u, 0x7c59be58u, 0x7c5aafdbu,
  0x7c7e7bc8u
};

static size_t
generate (uint32_t *out)
{
  Writer w = { out, 0, UINT64_C (0x746f706f73) };
  double pio2;
  size_t i;
  uint32_t b;
  int k;

  for (i = 0; i < sizeof nans / sizeof nans[0]; i++)
    put (&w, nans[i]);

  for (i = 0; i < sizeof thresholds / sizeof thresholds[0]; i++)
    put_around (&w, thresholds[i], 64);

  /* subnormals, every 128th, and the smallest ones in full */
  for (b = 0; b < 0x00800000u; b += 128)
    {
      put (&w, b);
      put (&w, b | 0x80000000u);
    }
  put_around (&w, 0, 1024);

  /* k pi/4 for |k| <= 4096, as the nearest float and 3 ulps either side */
  for (k = 1; k <= 4096; k++)
    put_around (&w, math_bits ((float) (k * 0x1.921fb54442d18p-1)), 3);

  /* k pi/2 near and beyond 2^28 pi/2, where the large reduction starts,
   * and pi/2 times every power of two up to 2^126 */
  for (k = 0; k < 256; k++)
    put_around (&w, math_bits ((float) ((double) ((1 << 28) + k * 4099)
                                      * 0x1.921fb54442d18p+0)), 2);
  pio2 = 0x1.921fb54442d18p+0;
  for (k = 0; k < 127; k++, pio2 *= 2.0)
    put_around (&w, math_bits ((float) pio2), 2);
  put_around (&w, 0x7f7fffffu, 4096);
  for (i = 0; i < sizeof hard_reductions / sizeof hard_reductions[0]; i++)
    put_around (&w, hard_reductions[i], 0);

  /* ranged random values: exp's domain, the trig and tanh primary
   * ranges, logf near 1 */
  put_uniform (&w, 110.0, 131072);
  put_uniform (&w, 12.0, 131072);
  put_uniform (&w, 2.0, 65536);

  /* random bit patterns */
  for (i = 0; i < 1048576; i++)
    put (&w, (uint32_t) (next_random (&w) >> 32));

  return w.len;
}

size_t
math_cases_count (void)
{
  return generate (NULL);
}

void
math_cases_fill (uint32_t *out)
{
  generate (out);
}

size_t
math_block_count (size_t n)
{
  return (n + MATH_BLOCK - 1) / MATH_BLOCK;
}

void
math_digest_line (char *buf,
                  int f,
                  size_t b,
                  const uint32_t *xs,
                  const uint32_t *results,
                  size_t n)
{
  size_t first = b * MATH_BLOCK, i;
  size_t end = first + MATH_BLOCK < n ? first + MATH_BLOCK : n;
  uint64_t h = UINT64_C (0xcbf29ce484222325);
  int k;

  for (i = first; i < end; i++)
    {
      uint32_t u = results[i];

      if ((u & 0x7fffffffu) > 0x7f800000u && u != xs[i]
          && u != (xs[i] | 0x00400000u))
        u = 0x7fc00000u;
      for (k = 0; k < 32; k += 8)
        {
          h ^= (u >> k) & 0xffu;
          h *= UINT64_C (0x100000001b3);
        }
    }
  snprintf (buf, MATH_DIGEST_LINE, "%s %zu %zu %zu %016" PRIx64 "\n",
            math_functions[f].name, b, first, end - first, h);
}
