/* test-math.c: the engine's transcendentals against the Rust libm crate
 *
 * /math/hand-picked compares a few dozen arguments per function with values
 * recorded from libm 0.2.16; it needs nothing but this program.
 *
 * /math/crate compares the block digests of our results on the argument
 * set of math-cases.c (about 1.6 million arguments, see math-cases.h) with
 * the crate's, recorded in ref/libm.digests by ref/regenerate.sh from the
 * crate pinned in ref/Cargo.toml.in. It needs no Rust toolchain.
 *
 * /math/wasm runs math-digest natively (TP_MATH_DIGEST) and compiled to
 * WebAssembly under node (TP_NODE, TP_MATH_WASM_JS) and wants the same
 * digest of all results on that argument set from both. meson registers it
 * only when emcc and node are installed.
 *
 * Results must agree in every bit, with one allowance: when the crate
 * returns a NaN it made up (not the argument's own NaN, propagated), ours
 * need only be a NaN too, because hardware differs in the sign and payload
 * of the NaNs it generates.
 */

#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "math-cases.h"

#define N_SHOWN 8

static gboolean
is_nan_bits (uint32_t u)
{
  return (u & 0x7fffffffu) > 0x7f800000u;
}

/* Whether ours matches the crate's result theirs for the argument x; sets
 * *loose when it does only as a NaN (see the top of this file). */
static gboolean
same_result (uint32_t x,
             uint32_t ours,
             uint32_t theirs,
             gboolean *loose)
{
  *loose = FALSE;
  if (ours == theirs)
    return TRUE;
  if (is_nan_bits (ours) && is_nan_bits (theirs)
      && theirs != x && theirs != (x | 0x00400000u))
    {
      *loose = TRUE;
      return TRUE;
    }
  return FALSE;
}

static void
report_mismatch (const char *name,
                 uint32_t x,
                 uint32_t ours,
                 uint32_t theirs)
{
  g_test_message ("%s(%08x = %.9g) = %08x (%.9g), libm gives %08x (%.9g)",
                  name, x, (double) math_float (x),
                  ours, (double) math_float (ours),
                  theirs, (double) math_float (theirs));
}

typedef struct
{
  int function;
  uint32_t x;
  uint32_t expected;
} HandPicked;

/* Recorded from libm 0.2.16 (libm-ref) on x86-64; the default NaNs made up
 * by logf, sinf, cosf and sqrtf are compared as NaNs only. */
static const HandPicked hand_picked[] = {
  { MATH_EXP, 0x00000000u, 0x3f800000u }, /* 0 -> 1 */
  { MATH_EXP, 0x80000000u, 0x3f800000u }, /* -0 -> 1 */
  { MATH_EXP, 0x3f800000u, 0x402df854u }, /* 1 -> 2.7182817 */
  { MATH_EXP, 0xbf800000u, 0x3ebc5ab2u }, /* -1 -> 0.36787945 */
  { MATH_EXP, 0x3f000000u, 0x3fd3094cu }, /* 0.5 -> 1.6487212 */
  { MATH_EXP, 0x41200000u, 0x46ac14eeu }, /* 10 -> 22026.465 */
  { MATH_EXP, 0xc1200000u, 0x383e6bceu }, /* -10 -> 4.539993e-5 */
  { MATH_EXP, 0x2edbe6ffu, 0x3f800000u }, /* 1e-10 -> 1 */
  { MATH_EXP, 0x42b17217u, 0x7f7fff84u }, /* 88.72283 -> 3.4027985e38 */
  { MATH_EXP, 0x42b17218u, 0x7f800000u }, /* 88.72284 -> inf */
  { MATH_EXP, 0x42aeac50u, 0x7e80001au }, /* 87.33655 -> 8.507086e37 */
  { MATH_EXP, 0xc2c80000u, 0x0000001bu }, /* -100 -> 3.8e-44, subnormal */
  { MATH_EXP, 0xc2cff1b4u, 0x00000001u }, /* -103.97207 -> 1e-45 */
  { MATH_EXP, 0xc2cff1b5u, 0x00000000u }, /* -103.97208 -> 0 */
  { MATH_EXP, 0x7f800000u, 0x7f800000u }, /* inf -> inf */
  { MATH_EXP, 0xff800000u, 0x00000000u }, /* -inf -> 0 */
  { MATH_EXP, 0x7fc00000u, 0x7fc00000u }, /* NaN -> NaN */
  { MATH_LOG, 0x3f800000u, 0x00000000u }, /* 1 -> 0 */
  { MATH_LOG, 0x40000000u, 0x3f317218u }, /* 2 -> 0.6931472 */
  { MATH_LOG, 0x3f000000u, 0xbf317218u }, /* 0.5 -> -0.6931472 */
  { MATH_LOG, 0x41200000u, 0x40135d8eu }, /* 10 -> 2.3025851 */
  { MATH_LOG, 0x00000001u, 0xc2ce8ed0u }, /* 1e-45 -> -103.27893 */
  { MATH_LOG, 0x007fffffu, 0xc2aeac50u }, /* largest subnormal -> -87.33655 */
  { MATH_LOG, 0x7f7fffffu, 0x42b17218u }, /* largest float -> 88.72284 */
  { MATH_LOG, 0x00000000u, 0xff800000u }, /* 0 -> -inf */
  { MATH_LOG, 0x80000000u, 0xff800000u }, /* -0 -> -inf */
  { MATH_LOG, 0xbf800000u, 0xffc00000u }, /* -1 -> NaN */
  { MATH_LOG, 0x7f800000u, 0x7f800000u }, /* inf -> inf */
  { MATH_LOG, 0x3f3504f3u, 0xbeb17219u }, /* sqrt(2)/2 -> -0.34657362 */
  { MATH_LOG, 0x3f800001u, 0x33ffffffu }, /* 1 + 2^-23 -> 1.1920928e-7 */
  { MATH_LOG, 0x3f7fffffu, 0xb3800000u }, /* 1 - 2^-24 -> -5.9604645e-8 */
  { MATH_LOG, 0x7fc00000u, 0x7fc00000u }, /* NaN -> NaN */
  { MATH_TANH, 0x3dcccccdu, 0x3dcc1ebcu }, /* 0.1 -> 0.099667996 */
  { MATH_TANH, 0x3e99999au, 0x3e9526eeu }, /* 0.3 -> 0.29131263 */
  { MATH_TANH, 0x3e82c578u, 0x3e800000u }, /* ln(5/3)/2 -> 0.25 */
  { MATH_TANH, 0x3e82c579u, 0x3e800001u }, /* one ulp above */
  { MATH_TANH, 0x3f0c9f54u, 0x3f000000u }, /* ln(3)/2 -> 0.5 */
  { MATH_TANH, 0x3f0c9f55u, 0x3f000001u }, /* one ulp above */
  { MATH_TANH, 0x3f800000u, 0x3f42f7d6u }, /* 1 -> 0.7615942 */
  { MATH_TANH, 0xbf800000u, 0xbf42f7d6u }, /* -1 -> -0.7615942 */
  { MATH_TANH, 0x40a00000u, 0x3f7ffa0du }, /* 5 -> 0.9999092 */
  { MATH_TANH, 0x41200000u, 0x3f800000u }, /* 10 -> 1 */
  { MATH_TANH, 0x41200001u, 0x3f800000u }, /* just above 10 -> 1 */
  { MATH_TANH, 0x41a00000u, 0x3f800000u }, /* 20 -> 1 */
  { MATH_TANH, 0x00000001u, 0x00000001u }, /* 1e-45 -> itself */
  { MATH_TANH, 0x0da24260u, 0x0da24260u }, /* 1e-30 -> itself */
  { MATH_TANH, 0x7f800000u, 0x3f800000u }, /* inf -> 1 */
  { MATH_TANH, 0xff800000u, 0xbf800000u }, /* -inf -> -1 */
  { MATH_TANH, 0xffc00000u, 0xffc00000u }, /* -NaN -> -NaN */
  { MATH_SIN, 0x00000000u, 0x00000000u }, /* 0 -> 0 */
  { MATH_SIN, 0x80000000u, 0x80000000u }, /* -0 -> -0 */
  { MATH_SIN, 0x3727c5acu, 0x3727c5acu }, /* 1e-5 -> itself */
  { MATH_SIN, 0x3f000000u, 0x3ef57744u }, /* 0.5 -> 0.47942555 */
  { MATH_SIN, 0x3f800000u, 0x3f576aa4u }, /* 1 -> 0.84147096 */
  { MATH_SIN, 0x3f490fdbu, 0x3f3504f3u }, /* pi/4 -> 0.70710677 */
  { MATH_SIN, 0x3fc90fdbu, 0x3f800000u }, /* pi/2 -> 1 */
  { MATH_SIN, 0x40400000u, 0x3e1081c3u }, /* 3 -> 0.14112 */
  { MATH_SIN, 0x40490fdbu, 0xb3bbbd2eu }, /* pi -> -8.742278e-8 */
  { MATH_SIN, 0x40a00000u, 0xbf757c10u }, /* 5 -> -0.9589243 */
  { MATH_SIN, 0x41200000u, 0xbf0b44f8u }, /* 10 -> -0.5440211 */
  { MATH_SIN, 0xc2c80000u, 0x3f01a12eu }, /* -100 -> 0.50636566 */
  { MATH_SIN, 0x49742400u, 0xbeb33259u }, /* 1e6 -> -0.3499935 */
  { MATH_SIN, 0x501502f9u, 0xbef99a64u }, /* 1e10 -> -0.48750603 */
  { MATH_SIN, 0x60ad78ecu, 0x3f281569u }, /* 1e20 -> 0.6565767 */
  { MATH_SIN, 0x7e967699u, 0x3f7d39e2u }, /* 1e38 -> 0.98916447 */
  { MATH_SIN, 0x7f7fffffu, 0xbf0599b3u }, /* largest float -> -0.5218765 */
  { MATH_SIN, 0x4dc90fdbu, 0xbf3d5f98u }, /* 2^28 pi/2 -> -0.7397399 */
  { MATH_SIN, 0x7f800000u, 0xffc00000u }, /* inf -> NaN */
  { MATH_SIN, 0x7fc00000u, 0x7fc00000u }, /* NaN -> NaN */
  { MATH_COS, 0x00000000u, 0x3f800000u }, /* 0 -> 1 */
  { MATH_COS, 0x80000000u, 0x3f800000u }, /* -0 -> 1 */
  { MATH_COS, 0x3727c5acu, 0x3f800000u }, /* 1e-5 -> 1 */
  { MATH_COS, 0x3f000000u, 0x3f60a940u }, /* 0.5 -> 0.87758255 */
  { MATH_COS, 0x3f800000u, 0x3f0a5140u }, /* 1 -> 0.5403023 */
  { MATH_COS, 0x3f490fdbu, 0x3f3504f3u }, /* pi/4 -> 0.70710677 */
  { MATH_COS, 0x3fc90fdbu, 0xb33bbd2eu }, /* pi/2 -> -4.371139e-8 */
  { MATH_COS, 0x40400000u, 0xbf7d7026u }, /* 3 -> -0.9899925 */
  { MATH_COS, 0x40490fdbu, 0xbf800000u }, /* pi -> -1 */
  { MATH_COS, 0x40a00000u, 0x3e913c2cu }, /* 5 -> 0.2836622 */
  { MATH_COS, 0x41200000u, 0xbf56cd64u }, /* 10 -> -0.8390715 */
  { MATH_COS, 0xc2c80000u, 0x3f5cc0eeu }, /* -100 -> 0.8623189 */
  { MATH_COS, 0x49742400u, 0x3f6fcefdu }, /* 1e6 -> 0.93675214 */
  { MATH_COS, 0x501502f9u, 0x3f5f84c5u }, /* 1e10 -> 0.87311965 */
  { MATH_COS, 0x60ad78ecu, 0x3f411723u }, /* 1e20 -> 0.7542593 */
  { MATH_COS, 0x7e967699u, 0x3e1655cdu }, /* 1e38 -> 0.14681168 */
  { MATH_COS, 0x7f7fffffu, 0x3f5a5f96u }, /* largest float -> 0.853021 */
  { MATH_COS, 0x4dc90fdbu, 0x3f2c42b6u }, /* 2^28 pi/2 -> 0.6728929 */
  { MATH_COS, 0xff800000u, 0xffc00000u }, /* -inf -> NaN */
  { MATH_COS, 0x7fc00000u, 0x7fc00000u }, /* NaN -> NaN */
  { MATH_SQRT, 0x00000000u, 0x00000000u }, /* 0 -> 0 */
  { MATH_SQRT, 0x80000000u, 0x80000000u }, /* -0 -> -0 */
  { MATH_SQRT, 0x40000000u, 0x3fb504f3u }, /* 2 -> 1.4142135 */
  { MATH_SQRT, 0x3e800000u, 0x3f000000u }, /* 0.25 -> 0.5 */
  { MATH_SQRT, 0x00000001u, 0x1a3504f3u }, /* 1e-45 -> 3.743392e-23 */
  { MATH_SQRT, 0x7f7fffffu, 0x5f7fffffu }, /* largest float -> 1.8446743e19 */
  { MATH_SQRT, 0xbf800000u, 0xffc00000u }, /* -1 -> NaN */
  { MATH_SQRT, 0x7f800000u, 0x7f800000u }, /* inf -> inf */
  { MATH_SQRT, 0x7fc00000u, 0x7fc00000u }, /* NaN -> NaN */
};

static void
test_hand_picked (void)
{
  guint failures = 0;
  gsize i;

  for (i = 0; i < G_N_ELEMENTS (hand_picked); i++)
    {
      const HandPicked *h = &hand_picked[i];
      const MathFunction *fn = &math_functions[h->function];
      uint32_t ours = math_bits (fn->fn (math_float (h->x)));
      gboolean loose;

      if (!same_result (h->x, ours, h->expected, &loose))
        {
          report_mismatch (fn->name, h->x, ours, h->expected);
          failures++;
        }
    }
  if (failures > 0)
    g_test_fail_printf ("%u of %u hand-picked results differ from libm's",
                        failures, (guint) G_N_ELEMENTS (hand_picked));
}

/* Runs argv, failing the test with its output if it does not exit with 0.
 * Returns its standard output, or NULL on failure. */
static gchar *
run (const gchar * const *argv)
{
  g_autoptr (GError) error = NULL;
  g_autofree gchar *out = NULL;
  g_autofree gchar *err = NULL;
  gint status = 0;

  if (!g_spawn_sync (NULL, (gchar **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                     &out, &err, &status, &error)
      || !g_spawn_check_wait_status (status, &error))
    {
      g_test_fail_printf ("%s: %s\n%s", argv[0], error->message,
                          err != NULL ? err : "");
      return NULL;
    }
  return g_steal_pointer (&out);
}

/* The block digests of the crate's results, recorded by
 * tests/math/ref/regenerate.sh in ref/libm.digests, against ours. */
static void
test_crate (void)
{
  g_autofree gchar *path = NULL;
  g_autofree gchar *text = NULL;
  g_autofree uint32_t *xs = NULL;
  g_autofree uint32_t *results = NULL;
  g_auto (GStrv) lines = NULL;
  g_autoptr (GError) error = NULL;
  gsize n, i, f, b, blocks, line = 1, differing = 0;

  path = g_test_build_filename (G_TEST_DIST, "ref", "libm.digests", NULL);
  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  lines = g_strsplit (text, "\n", -1);
  g_assert_true (g_str_has_prefix (lines[0], "# libm 0.2."));
  g_test_message ("reference: %s", lines[0] + 2);

  n = math_cases_count ();
  g_assert_cmpuint (n, >=, 1000000);
  blocks = math_block_count (n);
  if (g_strv_length (lines) != 1 + MATH_N_FUNCTIONS * blocks + 1)
    {
      g_test_fail_printf ("%s has %u lines, but the argument set of "
                          "math-cases.c makes %" G_GSIZE_FORMAT " blocks per "
                          "function: when the set changes, record the "
                          "crate's digests again (tests/math/ref/regenerate.sh)",
                          path, g_strv_length (lines),
                          blocks);
      return;
    }
  xs = g_new (uint32_t, n);
  math_cases_fill (xs);
  results = g_new (uint32_t, n);

  for (f = 0; f < MATH_N_FUNCTIONS; f++)
    {
      const MathFunction *fn = &math_functions[f];
      gsize differing_here = 0;

      for (i = 0; i < n; i++)
        results[i] = math_bits (fn->fn (math_float (xs[i])));
      for (b = 0; b < blocks; b++, line++)
        {
          char ours[MATH_DIGEST_LINE];

          math_digest_line (ours, (int) f, b, xs, results, n);
          ours[strlen (ours) - 1] = '\0';
          if (strcmp (ours, lines[line]) == 0)
            continue;
          if (differing < N_SHOWN)
            g_test_message ("ours: %s\nlibm: %s", ours, lines[line]);
          differing++;
          differing_here++;
        }
      g_test_message ("%s: %" G_GSIZE_FORMAT " arguments in %" G_GSIZE_FORMAT
                      " blocks, %" G_GSIZE_FORMAT " blocks differ",
                      fn->name, n, blocks, differing_here);
    }
  if (differing > 0)
    g_test_fail_printf ("%" G_GSIZE_FORMAT " blocks of results differ from "
                        "the libm crate's (block lines: NAME BLOCK FIRST "
                        "COUNT DIGEST; tools/libm-exhaustive names each "
                        "argument)", differing);
}

static void
test_wasm (void)
{
  const gchar *node = g_getenv ("TP_NODE");
  const gchar *js = g_getenv ("TP_MATH_WASM_JS");
  const gchar *digest = g_getenv ("TP_MATH_DIGEST");
  g_autofree gchar *native = NULL;
  g_autofree gchar *wasm = NULL;

  if (node == NULL || js == NULL || digest == NULL)
    {
      g_test_fail_printf ("this test needs TP_NODE, TP_MATH_WASM_JS and "
                          "TP_MATH_DIGEST; run it through meson");
      return;
    }

  {
    const gchar *argv[] = { digest, NULL };

    native = run (argv);
  }
  {
    const gchar *argv[] = { node, js, NULL };

    wasm = run (argv);
  }
  if (native == NULL || wasm == NULL)
    return;
  g_test_message ("native:\n%s", native);
  g_test_message ("wasm:\n%s", wasm);
  g_assert_cmpstr (wasm, ==, native);
}

int
main (int argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/math/hand-picked", test_hand_picked);
  g_test_add_func ("/math/crate", test_crate);
  g_test_add_func ("/math/wasm", test_wasm);

  return g_test_run ();
}
