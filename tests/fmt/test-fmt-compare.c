/* test-fmt-compare.c: engine/tp-fmt.c against Rust itself.
 *
 * Builds the reference crate in tests/fmt/ref with cargo, feeds it over a
 * million f32 bit patterns and a few hundred thousand strings, and requires
 * every Display, Debug and parse result of ours to be byte-identical.
 * meson finds cargo when the build is configured (Debian's cargo and rustc
 * will do: the crate has no dependencies, so nothing is fetched) and names
 * it in TP_CARGO. Without one, both tests are skipped, or fail under CI.
 *
 * `test-fmt-compare hash START COUNT` and `test-fmt-compare fmt` behave like
 * the same modes of tp-fmt-ref, for tests/fmt/exhaustive.sh; not tests.
 */
#include <gio/gio.h>
#include <stdio.h>
#include <string.h>

#include "tp-fmt.h"
#include "../tp-test-ci.h"

#define N_FORMAT_PATTERNS 1000000
#define N_PARSE_STRINGS 200000

static char *ref_binary;
static char *ref_build_error;
static gboolean ref_missing_cargo;

/* splitmix64: a fixed seed makes every run compare the same inputs. */
static guint64 rng_state = 0x5eed0f0f1234abcdu;

static guint64
rng_next (void)
{
  guint64 z = (rng_state += 0x9E3779B97F4A7C15u);

  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
  return z ^ (z >> 31);
}

static guint32
rng_below (guint32 n)
{
  return (guint32) (rng_next () % n);
}

static guint32
float_bits (float f)
{
  guint32 b;

  memcpy (&b, &f, sizeof b);
  return b;
}

static float
bits_float (guint32 b)
{
  float f;

  memcpy (&f, &b, sizeof f);
  return f;
}

/* Builds the reference once; later calls reuse the outcome. */
static const char *
ensure_reference (void)
{
  static gboolean done;
  g_autofree char *cargo = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr (GError) error = NULL;
  int status = 0;
  const char *argv[] = {
    NULL, "build", "--release", "--quiet", "--locked", "--offline",
    "--manifest-path", TP_FMT_REF_MANIFEST,
    "--target-dir", TP_FMT_REF_TARGET_DIR, NULL
  };

  if (done)
    return ref_binary;
  done = TRUE;

  cargo = g_strdup (TP_CARGO);
  if (*cargo == '\0')
    {
      ref_missing_cargo = TRUE;
      return NULL;
    }
  argv[0] = cargo;
  /* Output captured: nothing may reach the TAP stream. */
  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                     &out, &err, &status, &error)
      || !g_spawn_check_wait_status (status, NULL))
    {
      ref_build_error = g_strdup_printf ("cargo build failed: %s\n%s",
                                         error ? error->message : "", err ? err : "");
      return NULL;
    }
  ref_binary = g_build_filename (TP_FMT_REF_TARGET_DIR, "release", "tp-fmt-ref", NULL);
  return ref_binary;
}

/* Skips or fails the current test when the reference is unavailable. */
static const char *
require_reference (void)
{
  const char *ref = ensure_reference ();

  if (ref == NULL && ref_missing_cargo)
    tp_test_cannot_run ("cargo was not found when the build was configured: "
                        "cannot build the Rust reference");
  else if (ref == NULL)
    g_test_fail_printf ("%s", ref_build_error);
  return ref;
}

/* Runs `ref mode` with input on stdin and returns its stdout. */
static GBytes *
run_reference (const char *ref, const char *mode, GString *input)
{
  g_autoptr (GSubprocess) proc = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) in = g_bytes_new_static (input->str, input->len);
  GBytes *out = NULL;

  proc = g_subprocess_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE,
                           &error, ref, mode, NULL);
  g_assert_no_error (error);
  g_subprocess_communicate (proc, in, NULL, &out, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_successful (proc));
  return out;
}

/* Splits a newline-terminated buffer into lines: *storage receives a
 * NUL-separated copy (free it), the array points into it. */
static GPtrArray *
split_lines (GBytes *bytes, char **storage)
{
  gsize len;
  const char *data = g_bytes_get_data (bytes, &len);
  GPtrArray *lines = g_ptr_array_new ();
  char *p = g_malloc (len + 1);
  char *end = p + len;

  memcpy (p, data, len);
  *storage = p;
  while (p < end)
    {
      char *nl = memchr (p, '\n', (size_t) (end - p));

      g_assert_nonnull (nl);
      *nl = '\0';
      g_ptr_array_add (lines, p);
      p = nl + 1;
    }
  return lines;
}

/* ---- format inputs ---- */

static void
add_pattern (GArray *patterns, guint32 bits)
{
  g_array_append_val (patterns, bits);
}

static void
add_with_neighbours (GArray *patterns, guint32 bits, guint32 radius)
{
  for (guint32 d = 0; d <= 2 * radius; d++)
    {
      guint32 b = bits - radius + d;

      add_pattern (patterns, b);
      add_pattern (patterns, b ^ 0x80000000u);
    }
}

static void
add_range (GArray *patterns, guint32 first, guint32 count)
{
  for (guint32 i = 0; i < count; i++)
    add_pattern (patterns, first + i);
}

/* Every edge the brief names, dense ranges where ties and thresholds
 * live, then deterministic random patterns up to the total. */
static GArray *
make_format_patterns (void)
{
  GArray *patterns = g_array_new (FALSE, FALSE, sizeof (guint32));
  static const guint32 edges[] = {
    0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007fffff, 0x807fffff,
    0x00800000, 0x80800000, 0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000,
    0x7fc00000, 0xffc00000, 0x7f800001, 0xff800001, 0x7fffffff, 0xffffffff,
    0x7fa00000, 0x3f800000, 0xbf800000,
  };

  for (guint i = 0; i < G_N_ELEMENTS (edges); i++)
    add_pattern (patterns, edges[i]);

  /* Powers of two (subnormal and normal) and their neighbours. */
  for (guint32 k = 0; k < 23; k++)
    add_with_neighbours (patterns, 1u << k, 2);
  for (guint32 e = 1; e < 255; e++)
    add_with_neighbours (patterns, e << 23, 3);

  /* The f32 nearest to each power of ten, and neighbours. */
  for (int k = -46; k <= 39; k++)
    {
      char text[16];
      float f;

      g_snprintf (text, sizeof text, "1e%d", k);
      g_assert_true (tp_parse_f32 (text, strlen (text), &f));
      add_with_neighbours (patterns, float_bits (f), 8);
    }

  /* Around the Debug thresholds 1e-4 and 1e16. */
  add_with_neighbours (patterns, 0x38d1b717u, 2000);
  add_with_neighbours (patterns, 0x5a0e1bcau, 2000);

  /* Dense runs: smallest subnormals, the subnormal/normal seam, around
   * 1, the top of the range, and [2^21, 2^23) where exact ties between
   * two shortest candidates occur (1234567.25 -> "1234567.3"). */
  add_range (patterns, 0x00000000u, 20000);
  add_range (patterns, 0x007f0000u, 0x20000);
  add_range (patterns, 0x3f7fc000u, 0x8000);
  add_range (patterns, 0x7f7f0000u, 0x10000);
  add_range (patterns, 0x4a000000u, 60000);
  add_range (patterns, 0x4a7f0000u, 20000);
  add_range (patterns, 0x4a800000u, 30000);

  /* Whole numbers, and values with short decimals. */
  for (guint32 i = 0; i < 70000; i++)
    add_pattern (patterns, float_bits ((float) i));
  for (guint32 i = 0; i < 50000; i++)
    {
      char text[32];
      float f;

      g_snprintf (text, sizeof text, "%u.%ue%d", rng_below (1000), rng_below (1000),
                  (int) rng_below (84) - 45);
      g_assert_true (tp_parse_f32 (text, strlen (text), &f));
      add_pattern (patterns, float_bits (f));
    }

  /* Typical tensor values: uniform in [-1, 1) as the seed draws make them. */
  for (guint32 i = 0; i < 100000; i++)
    {
      double u = (double) (rng_next () >> 11) / 9007199254740992.0;

      add_pattern (patterns, float_bits ((float) (u * 2.0 - 1.0)));
    }

  while (patterns->len < N_FORMAT_PATTERNS + 1000)
    add_pattern (patterns, (guint32) rng_next ());
  return patterns;
}

static void
test_compare_format (void)
{
  const char *ref = require_reference ();
  g_autoptr (GArray) patterns = NULL;
  g_autoptr (GString) input = NULL;
  g_autoptr (GBytes) output = NULL;
  g_autoptr (GPtrArray) lines = NULL;
  g_autofree char *storage = NULL;
  guint mismatches = 0;

  if (ref == NULL)
    return;
  patterns = make_format_patterns ();
  input = g_string_sized_new (patterns->len * 9);
  for (guint i = 0; i < patterns->len; i++)
    g_string_append_printf (input, "%08x\n", g_array_index (patterns, guint32, i));

  output = run_reference (ref, "fmt", input);
  lines = split_lines (output, &storage);
  g_assert_cmpuint (lines->len, ==, patterns->len);

  for (guint i = 0; i < patterns->len; i++)
    {
      guint32 bits = g_array_index (patterns, guint32, i);
      char display[TP_FMT_F32_MAX];
      char debug[TP_FMT_F32_MAX];
      char ours[2 * TP_FMT_F32_MAX + 1];
      size_t n = tp_fmt_f32_display (bits_float (bits), display);
      size_t m = tp_fmt_f32_debug (bits_float (bits), debug);

      g_assert_cmpuint (n, ==, strlen (display));
      g_assert_cmpuint (m, ==, strlen (debug));
      g_snprintf (ours, sizeof ours, "%s\t%s", display, debug);
      if (strcmp (ours, g_ptr_array_index (lines, i)) != 0 && mismatches++ < 20)
        g_test_message ("%08x: rust [%s] ours [%s]", bits,
                        (char *) g_ptr_array_index (lines, i), ours);
    }
  g_test_message ("compared Display and Debug of %u f32 bit patterns: %u mismatches",
                  patterns->len, mismatches);
  g_assert_cmpuint (mismatches, ==, 0);
}

/* ---- parse inputs ---- */

/* Exact decimal expansion of the midpoint between the positive finite f32
 * patterns b and b + 1, (2 mant + 1) * 2^t, in plain positional form.
 * Built digit by digit in base 10 (little-endian) by doubling or by
 * multiplying by 5. */
static char *
midpoint_decimal (guint32 b)
{
  guint32 be = b >> 23;
  guint32 mant = be == 0 ? b & 0x7fffffu : (b & 0x7fffffu) | 0x800000u;
  int t = (be == 0 ? 1 : (int) be) - 150 - 1;
  guint8 digits[200];
  int n = 0;
  guint32 h = 2 * mant + 1;
  GString *s;

  while (h != 0)
    {
      digits[n++] = (guint8) (h % 10);
      h /= 10;
    }
  for (int k = 0; k < (t < 0 ? -t : t); k++)
    {
      guint carry = 0;

      for (int i = 0; i < n; i++)
        {
          guint v = digits[i] * (t < 0 ? 5u : 2u) + carry;

          digits[i] = (guint8) (v % 10);
          carry = v / 10;
        }
      while (carry != 0)
        {
          digits[n++] = (guint8) (carry % 10);
          carry /= 10;
        }
    }
  /* value = digits * 10^t when t < 0, else digits. */
  s = g_string_new (NULL);
  if (t >= 0)
    for (int i = n - 1; i >= 0; i--)
      g_string_append_c (s, (char) ('0' + digits[i]));
  else
    {
      int point = -t;   /* digits after the decimal point */

      if (n <= point)
        {
          g_string_append (s, "0.");
          for (int i = 0; i < point - n; i++)
            g_string_append_c (s, '0');
          for (int i = n - 1; i >= 0; i--)
            g_string_append_c (s, (char) ('0' + digits[i]));
        }
      else
        for (int i = n - 1; i >= 0; i--)
          {
            g_string_append_c (s, (char) ('0' + digits[i]));
            if (i == point && i != 0)
              g_string_append_c (s, '.');
          }
    }
  return g_string_free (s, FALSE);
}

/* A positive finite pattern below FLT_MAX, biased to every binade. */
static guint32
random_positive_pattern (void)
{
  guint32 b = (guint32) rng_next () & 0x7fffffffu;

  if ((b >> 23) >= 0xfe)
    b &= 0x3fffffffu;
  return b;
}

static void
append_random_digits (GString *s, guint n)
{
  for (guint i = 0; i < n; i++)
    g_string_append_c (s, (char) ('0' + rng_below (10)));
}

/* A random decimal of varied length and exponent. */
static char *
random_decimal (void)
{
  GString *s = g_string_new (NULL);
  guint n_int = rng_below (4) == 0 ? 0 : rng_below (12);
  guint n_frac = rng_below (3) == 0 ? 0 : rng_below (14);
  guint form = rng_below (10);

  if (rng_below (4) == 0)
    g_string_append_c (s, rng_below (2) ? '-' : '+');
  if (n_int == 0 && n_frac == 0)
    n_int = 1;
  append_random_digits (s, n_int);
  if (n_frac > 0 || (n_int > 0 && rng_below (8) == 0))
    g_string_append_c (s, '.');
  append_random_digits (s, n_frac);
  if (form < 6)
    {
      g_string_append_c (s, rng_below (2) ? 'e' : 'E');
      if (rng_below (2))
        g_string_append_c (s, rng_below (2) ? '-' : '+');
      g_string_append_printf (s, "%u", form < 5 ? rng_below (50) : rng_below (1000));
    }
  return g_string_free (s, FALSE);
}

/* A long digit string: up to a few thousand digits, leading and trailing
 * zeros, a point anywhere, sometimes an exponent. */
static char *
long_decimal (void)
{
  GString *s = g_string_new (NULL);
  guint lead = rng_below (3) == 0 ? rng_below (3000) : 0;
  guint body = 20 + rng_below (rng_below (4) == 0 ? 5000 : 200);
  guint trail = rng_below (3) == 0 ? rng_below (3000) : 0;
  guint point = rng_below (lead + body + trail + 1);
  guint total = lead + body + trail;

  for (guint i = 0; i < total; i++)
    {
      if (i == point)
        g_string_append_c (s, '.');
      if (i < lead || i >= lead + body)
        g_string_append_c (s, '0');
      else
        g_string_append_c (s, (char) ('0' + rng_below (10)));
    }
  if (rng_below (2))
    g_string_append_printf (s, "e%d", (int) rng_below (8000) - 4000);
  return g_string_free (s, FALSE);
}

/* Insert, delete or replace one character of a valid string. */
static char *
mutate (const char *valid)
{
  static const char pool[] = "0123456789..eE+-+-iInNfFaAtTyY _x,\t";
  GString *s = g_string_new (valid);
  guint pos = rng_below ((guint32) s->len + 1);
  char c = pool[rng_below (sizeof pool - 1)];

  switch (rng_below (3))
    {
    case 0:
      g_string_insert_c (s, pos, c);
      break;
    case 1:
      if (pos < s->len)
        g_string_erase (s, pos, 1);
      break;
    default:
      if (pos < s->len)
        s->str[pos] = c;
      else
        g_string_append_c (s, c);
      break;
    }
  return g_string_free (s, FALSE);
}

static GPtrArray *
make_parse_strings (void)
{
  GPtrArray *strings = g_ptr_array_new_with_free_func (g_free);
  char zeros[150];
  static const char *const fixed[] = {
    "", "+", "-", ".", "e", "E", "e5", ".e5", "1e", "1e+", "1e-", "1.", ".5",
    "+.5", "-.5", "+1", "-0", "+0", "0", "00", "0.", ".0", "0.0", "-0.0",
    "1", "-1", "1.5", "1e5", "1E5", "1e+5", "1e-5", "1.e5", "1.5e", "1..2",
    "1.2.3", "++1", "--1", "+-1", "-+1", "1e--5", "1e+-5", "1ee5", "1e5e5",
    " 1", "1 ", "\t1", "1_0", "0x10", "0X1p3", "1f", "1d", "1,5",
    "inf", "-inf", "+inf", "INF", "iNf", "infinity", "Infinity", "-INFINITY",
    "+infinity", "infinit", "infinityy", "infinity ", "in", "i", "nan",
    "-nan", "+nan", "NaN", "nAn", "NAN", "nana", "na", "snan", "inf1",
    "1inf", "-", "+-", "1e99999999999999999999", "-1e99999999999999999999",
    "0e99999999999", "1e-99999999999", "0.0e-99999999999999", "00001.5000",
    "1e0005", "-.5e-1", "3.4028235e38", "3.4028236e38", "-3.4028236e38",
    "340282356779733661637539395458142568448",
    "340282356779733661637539395458142568447",
    "340282356779733661637539395458142568449",
    "340282356779733661637539395458142568447.9999999999999999999999999",
    "1e39", "1e38", "9.9999999e38", "1e-45", "1.4e-45", "7e-46", "7.1e-46",
    "1e-46", "1e-47", "1.17549435e-38", "1.1754942e-38", "16777217",
    "16777216.5", "16777217.000000000000000000000000001", "33554435",
    "0.18237947", "-0.016451472", "0.033337623", "0.09898802", "0.25651985",
    "1234567.25", "1234567.3", "2097152.25", "\xc2\xb2", "\xd9\xa1",
    "1e65535", "1e65536", "1e-65536", "0.00000000000000000000000001e65536",
  };

  for (guint i = 0; i < G_N_ELEMENTS (fixed); i++)
    g_ptr_array_add (strings, g_strdup (fixed[i]));

  /* Long strings: the exponent saturation at 65536 and a long mantissa. */
  {
    GString *s = g_string_new ("1");

    for (int i = 0; i < 70000; i++)
      g_string_append_c (s, '0');
    g_ptr_array_add (strings, g_strconcat (s->str, "e-700001", NULL));
    g_ptr_array_add (strings, g_strconcat (s->str, "e-70001", NULL));
    g_ptr_array_add (strings, g_strconcat (s->str, "e-65537", NULL));
    g_string_assign (s, "0.");
    for (int i = 0; i < 100000; i++)
      g_string_append_c (s, '0');
    g_ptr_array_add (strings, g_strconcat (s->str, "1e100005", NULL));
    g_ptr_array_add (strings, g_strconcat (s->str, "1e1000050", NULL));
    g_ptr_array_add (strings, g_strconcat (s->str, "15e99999", NULL));
    g_string_free (s, TRUE);

    s = g_string_new ("0.");
    append_random_digits (s, 1000000);
    g_ptr_array_add (strings, g_string_free (s, FALSE));
    s = g_string_new ("1e");
    for (int i = 0; i < 100000; i++)
      g_string_append_c (s, (char) ('0' + (i % 10)));
    g_ptr_array_add (strings, g_string_free (s, FALSE));
  }

  /* Halfway cases: the exact midpoint, a hair above and a hair below, and
   * the exact midpoint of the neighbours of powers of two. */
  memset (zeros, '0', sizeof zeros - 1);
  zeros[sizeof zeros - 1] = '\0';
  for (guint i = 0; i < 25000; i++)
    {
      guint32 b = i < 500 ? ((i % 254) << 23) | (i < 254 ? 0 : 0x7fffffu)
                          : random_positive_pattern ();
      char *mid;
      size_t n;

      if (b >= 0x7f7fffffu)
        b = 0x7f7ffffeu;
      mid = midpoint_decimal (b);
      n = strlen (mid);
      g_ptr_array_add (strings, g_strconcat (mid, strchr (mid, '.') ? "" : ".", "000000000001", NULL));
      /* Above by a digit past the 128 significant digits we keep exactly. */
      if (i % 4 == 0)
        g_ptr_array_add (strings, g_strconcat (mid, strchr (mid, '.') ? "" : ".", zeros, "1", NULL));
      /* Just below: the digits minus one unit in a far place. */
      {
        char *below = g_strdup (mid);
        size_t k = n;

        while (k > 0)
          {
            k--;
            if (below[k] == '.')
              continue;
            if (below[k] > '0')
              {
                below[k]--;
                break;
              }
            below[k] = '9';
          }
        g_ptr_array_add (strings, g_strconcat (below, strchr (below, '.') ? "" : ".", "99999999999", NULL));
        g_free (below);
      }
      g_ptr_array_add (strings, mid);
    }

  /* Round trips: our own Display and Debug of random floats (the Rust
   * side checks they read back). */
  for (guint i = 0; i < 20000; i++)
    {
      char buf[TP_FMT_F32_MAX];
      float f = bits_float ((guint32) rng_next ());

      if (i % 2)
        tp_fmt_f32_display (f, buf);
      else
        tp_fmt_f32_debug (f, buf);
      g_ptr_array_add (strings, g_strdup (buf));
    }

  for (guint i = 0; i < 2000; i++)
    g_ptr_array_add (strings, long_decimal ());
  for (guint i = 0; i < 2000; i++)
    g_ptr_array_add (strings, g_strdup_printf ("%s%ue%s%u%u", rng_below (2) ? "0.000" : "",
                                               rng_below (100000), rng_below (2) ? "-" : "",
                                               rng_below (100000), rng_below (1000000)));

  while (strings->len < N_PARSE_STRINGS - 30000)
    g_ptr_array_add (strings, random_decimal ());
  while (strings->len < N_PARSE_STRINGS + 1000)
    {
      g_autofree char *valid = random_decimal ();

      g_ptr_array_add (strings, mutate (valid));
    }
  return strings;
}

static void
test_compare_parse (void)
{
  const char *ref = require_reference ();
  g_autoptr (GPtrArray) strings = NULL;
  g_autoptr (GString) input = NULL;
  g_autoptr (GBytes) output = NULL;
  g_autoptr (GPtrArray) lines = NULL;
  g_autofree char *storage = NULL;
  guint mismatches = 0, errors = 0;

  if (ref == NULL)
    return;
  strings = make_parse_strings ();
  input = g_string_new (NULL);
  for (guint i = 0; i < strings->len; i++)
    {
      g_string_append (input, g_ptr_array_index (strings, i));
      g_string_append_c (input, '\n');
    }

  output = run_reference (ref, "parse", input);
  lines = split_lines (output, &storage);
  g_assert_cmpuint (lines->len, ==, strings->len);

  for (guint i = 0; i < strings->len; i++)
    {
      const char *text = g_ptr_array_index (strings, i);
      char ours[16];
      float f;

      if (tp_parse_f32 (text, strlen (text), &f))
        g_snprintf (ours, sizeof ours, "%08x", float_bits (f));
      else
        {
          g_strlcpy (ours, "err", sizeof ours);
          errors++;
        }
      if (strcmp (ours, g_ptr_array_index (lines, i)) != 0 && mismatches++ < 20)
        g_test_message ("[%.80s%s] (%zu bytes): rust %s ours %s", text,
                        strlen (text) > 80 ? "..." : "", strlen (text),
                        (char *) g_ptr_array_index (lines, i), ours);
    }
  g_test_message ("compared parse of %u strings (%u rejected): %u mismatches",
                  strings->len, errors, mismatches);
  g_assert_cmpuint (mismatches, ==, 0);
}

/* `hash START COUNT`: the block hashes of tp-fmt-ref's hash mode. */
static int
print_hashes (const char *start_text, const char *count_text)
{
  guint64 bits = g_ascii_strtoull (start_text, NULL, 16);
  guint64 end = bits + g_ascii_strtoull (count_text, NULL, 10);

  while (bits < end)
    {
      guint64 block_end = MIN (bits + 65536, end);
      guint64 first = bits;
      guint64 h = 0xcbf29ce484222325u;

      for (; bits < block_end; bits++)
        {
          char buf[2 * TP_FMT_F32_MAX];
          float x = bits_float ((guint32) bits);
          size_t n = tp_fmt_f32_display (x, buf);

          n += 1 + tp_fmt_f32_debug (x, buf + n + 1);
          for (size_t i = 0; i <= n; i++)
            {
              h ^= (guchar) buf[i];
              h *= 0x100000001b3u;
            }
        }
      printf ("%08" G_GINT64_MODIFIER "x %016" G_GINT64_MODIFIER "x\n", first, h);
    }
  return 0;
}

/* `fmt`: tp-fmt-ref's fmt mode (hex patterns in, Display TAB Debug out),
 * for looking into a block that exhaustive.sh reports. */
static int
print_formats (void)
{
  char line[64];

  while (fgets (line, sizeof line, stdin) != NULL)
    {
      char display[TP_FMT_F32_MAX];
      char debug[TP_FMT_F32_MAX];
      float x = bits_float ((guint32) g_ascii_strtoull (line, NULL, 16));

      tp_fmt_f32_display (x, display);
      tp_fmt_f32_debug (x, debug);
      printf ("%s\t%s\n", display, debug);
    }
  return 0;
}

int
main (int argc, char **argv)
{
  if (argc == 4 && strcmp (argv[1], "hash") == 0)
    return print_hashes (argv[2], argv[3]);
  if (argc == 2 && strcmp (argv[1], "fmt") == 0)
    return print_formats ();

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/fmt/compare/format", test_compare_format);
  g_test_add_func ("/fmt/compare/parse", test_compare_parse);
  return g_test_run ();
}
