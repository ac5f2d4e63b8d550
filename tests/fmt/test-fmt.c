/* test-fmt.c: hand-picked cases for engine/tp-fmt.c.
 *
 * Every expected string and bit pattern here was produced by Rust 1.95
 * (`format!("{}")`, `format!("{:?}")`, `str::parse::<f32>`), through the
 * reference crate in tests/fmt/ref.  Runs without cargo.
 */
#include <glib.h>
#include <string.h>

#include "tp-fmt.h"

static float
bits_float (guint32 b)
{
  float f;

  memcpy (&f, &b, sizeof f);
  return f;
}

static guint32
float_bits (float f)
{
  guint32 b;

  memcpy (&b, &f, sizeof b);
  return b;
}

typedef struct
{
  guint32 bits;
  const char *display;
  const char *debug;
} FormatCase;

static const FormatCase format_cases[] = {
  { 0x3f800000, "1", "1.0" },
  { 0xc0800000, "-4", "-4.0" },
  { 0x3f000000, "0.5", "0.5" },
  { 0x00000000, "0", "0.0" },
  { 0x80000000, "-0", "-0.0" },
  { 0x33d6bf95, "0.0000001", "1e-7" },
  { 0x60ad78ec, "100000000000000000000", "1e20" },
  { 0x7fc00000, "NaN", "NaN" },
  { 0xffc00000, "NaN", "NaN" },
  { 0x7f800001, "NaN", "NaN" },
  { 0x7f800000, "inf", "inf" },
  { 0xff800000, "-inf", "-inf" },
  { 0x3727c5ac, "0.00001", "1e-5" },
  { 0x5a5529af, "15000000000000000", "1.5e16" },
  { 0x38cf9e38, "0.000099", "9.9e-5" },
  /* The Debug thresholds are the f32 values 1e-4 and 1e16. */
  { 0x38d1b717, "0.0001", "0.0001" },
  { 0x38d1b716, "0.00009999999", "9.999999e-5" },
  { 0x5a0e1bca, "10000000000000000", "1e16" },
  { 0x5a0e1bc9, "9999999000000000", "9999999000000000.0" },
  { 0x3dcccccd, "0.1", "0.1" },
  /* Smallest and largest subnormal and normal. */
  { 0x00000001, "0.000000000000000000000000000000000000000000001", "1e-45" },
  { 0x007fffff, "0.000000000000000000000000000000000000011754942", "1.1754942e-38" },
  { 0x00800000, "0.000000000000000000000000000000000000011754944", "1.1754944e-38" },
  { 0x7f7fffff, "340282350000000000000000000000000000000", "3.4028235e38" },
  { 0xff7fffff, "-340282350000000000000000000000000000000", "-3.4028235e38" },
  /* An exact tie between two shortest candidates rounds up (Rust's
   * Dragon4), where Ryu would give 1234567.2 and 2097152.2. */
  { 0x4996b43a, "1234567.3", "1234567.3" },
  { 0x4a000001, "2097152.3", "2097152.3" },
  { 0x4b800000, "16777216", "16777216.0" },
  { 0x4b800001, "16777218", "16777218.0" },
  { 0x3f800001, "1.0000001", "1.0000001" },
  { 0x3f7fffff, "0.99999994", "0.99999994" },
  { 0x42f6e979, "123.456", "123.456" },
};

static void
test_format_cases (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (format_cases); i++)
    {
      const FormatCase *c = &format_cases[i];
      char buf[TP_FMT_F32_MAX];
      size_t n;

      memset (buf, 'x', sizeof buf);
      n = tp_fmt_f32_display (bits_float (c->bits), buf);
      g_assert_cmpstr (buf, ==, c->display);
      g_assert_cmpuint (n, ==, strlen (c->display));

      memset (buf, 'x', sizeof buf);
      n = tp_fmt_f32_debug (bits_float (c->bits), buf);
      g_assert_cmpstr (buf, ==, c->debug);
      g_assert_cmpuint (n, ==, strlen (c->debug));
    }
}

/* Values from docs/language.md: seed draws and a tensor. */
static void
test_format_seed_draws (void)
{
  static const struct { float value; const char *text; } draws[] = {
    { 0.18237947f, "0.18237947" },
    { -0.016451472f, "-0.016451472" },
    { 0.033337623f, "0.033337623" },
    { 0.5308383f, "0.5308383" },
    { -0.7730993f, "-0.7730993" },
    { 0.6397f, "0.6397" },
    { 1.5005187f, "1.5005187" },
  };
  const float tensor[2] = { 0.09898802f, 0.25651985f };
  char buf[TP_FMT_F32_MAX];
  GString *s = g_string_new ("[");

  for (guint i = 0; i < G_N_ELEMENTS (draws); i++)
    {
      tp_fmt_f32_display (draws[i].value, buf);
      g_assert_cmpstr (buf, ==, draws[i].text);
    }
  for (guint i = 0; i < G_N_ELEMENTS (tensor); i++)
    {
      tp_fmt_f32_display (tensor[i], buf);
      g_string_append_printf (s, "%s%s", i ? ", " : "", buf);
    }
  g_string_append_c (s, ']');
  g_assert_cmpstr (s->str, ==, "[0.09898802, 0.25651985]");
  g_string_free (s, TRUE);
}

/* The longest outputs fit TP_FMT_F32_MAX with room to spare. */
static void
test_format_lengths (void)
{
  char buf[TP_FMT_F32_MAX];
  size_t longest = 0;

  for (guint32 e = 0; e < 255; e++)
    for (guint32 f = 0; f < 64; f++)
      {
        guint32 bits = 0x80000000u | (e << 23) | (f * 0x1ffffu) | (f & 1);

        longest = MAX (longest, tp_fmt_f32_display (bits_float (bits), buf));
        longest = MAX (longest, tp_fmt_f32_debug (bits_float (bits), buf));
      }
  g_assert_cmpuint (longest, <, TP_FMT_F32_MAX);
  g_assert_cmpuint (longest, >=, 48);
}

typedef struct
{
  const char *text;
  gboolean ok;
  guint32 bits;
} ParseCase;

static const ParseCase parse_cases[] = {
  { "1.", TRUE, 0x3f800000 },
  { ".5", TRUE, 0x3f000000 },
  { "+.5", TRUE, 0x3f000000 },
  { "+1", TRUE, 0x3f800000 },
  { "-0", TRUE, 0x80000000 },
  { "0", TRUE, 0x00000000 },
  { "-.5e-1", TRUE, 0xbd4ccccd },
  { "00001.5000", TRUE, 0x3fc00000 },
  { "1e0005", TRUE, 0x47c35000 },
  { "1e+5", TRUE, 0x47c35000 },
  { "1E5", TRUE, 0x47c35000 },
  { "1.e5", TRUE, 0x47c35000 },
  { "0.1", TRUE, 0x3dcccccd },
  { "0.18237947", TRUE, 0x3e3ac1af },
  { "inf", TRUE, 0x7f800000 },
  { "-inf", TRUE, 0xff800000 },
  { "Infinity", TRUE, 0x7f800000 },
  { "+infinity", TRUE, 0x7f800000 },
  { "-INFINITY", TRUE, 0xff800000 },
  { "nan", TRUE, 0x7fc00000 },
  { "NaN", TRUE, 0x7fc00000 },
  { "-nan", TRUE, 0xffc00000 },
  { "+nan", TRUE, 0x7fc00000 },
  { "1e99999999999999999999", TRUE, 0x7f800000 },
  { "-1e99999999999999999999", TRUE, 0xff800000 },
  { "0e99999999999", TRUE, 0x00000000 },
  { "1e-99999999999", TRUE, 0x00000000 },
  /* FLT_MAX, the exact midpoint to 2^128 (ties to even: infinity), and
   * just below it. */
  { "3.4028235e38", TRUE, 0x7f7fffff },
  { "340282356779733661637539395458142568448", TRUE, 0x7f800000 },
  { "340282356779733661637539395458142568447.9999999999999999999999999", TRUE, 0x7f7fffff },
  { "1e39", TRUE, 0x7f800000 },
  /* 2^-150 exactly is half the smallest subnormal: ties to even (zero). */
  { "7.00649232162408535461864791644958065640130970938257885878534141944895541342930300743319094181060791015625e-46", TRUE, 0x00000000 },
  { "7.006492321624085354618647916449580656401309709382578858785341419448955413429303007433190941810607910156251e-46", TRUE, 0x00000001 },
  { "1e-45", TRUE, 0x00000001 },
  { "1e-46", TRUE, 0x00000000 },
  /* 2^24 + 1 is a midpoint: ties to even (2^24); anything above rounds up. */
  { "16777217", TRUE, 0x4b800000 },
  { "16777217.000000000000000000000000000000000000001", TRUE, 0x4b800001 },
  { "16777219", TRUE, 0x4b800002 },
  /* Above the midpoint only in the 140th significant digit. */
  { "16777217.00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000001", TRUE, 0x4b800001 },
  { "", FALSE, 0 },
  { "+", FALSE, 0 },
  { "-", FALSE, 0 },
  { ".", FALSE, 0 },
  { "1e", FALSE, 0 },
  { "1e+", FALSE, 0 },
  { "e5", FALSE, 0 },
  { ".e5", FALSE, 0 },
  { "1..2", FALSE, 0 },
  { "++1", FALSE, 0 },
  { " 1", FALSE, 0 },
  { "1 ", FALSE, 0 },
  { "0x10", FALSE, 0 },
  { "1_0", FALSE, 0 },
  { "infinit", FALSE, 0 },
  { "infinityy", FALSE, 0 },
  { "nana", FALSE, 0 },
  { "inf1", FALSE, 0 },
};

static void
test_parse_cases (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (parse_cases); i++)
    {
      const ParseCase *c = &parse_cases[i];
      float f = 42.0f;
      gboolean ok = tp_parse_f32 (c->text, strlen (c->text), &f);

      if (ok != c->ok)
        g_error ("\"%s\": expected %s", c->text, c->ok ? "Ok" : "Err");
      if (ok && float_bits (f) != c->bits)
        g_error ("\"%s\": expected %08x, got %08x", c->text, c->bits, float_bits (f));
      if (!ok)
        g_assert_cmpfloat (f, ==, 42.0f);
    }
}

/* Exactly len bytes are read: no NUL needed, trailing bytes ignored. */
static void
test_parse_length (void)
{
  float f;

  g_assert_true (tp_parse_f32 ("2.5junk", 3, &f));
  g_assert_cmpfloat (f, ==, 2.5f);
  g_assert_true (tp_parse_f32 ("12", 1, &f));
  g_assert_cmpfloat (f, ==, 1.0f);
  g_assert_false (tp_parse_f32 ("1\0", 2, &f));
}

/* Rust stops accumulating an explicit exponent once it reaches 65536, so
 * with tens of thousands of digits the result is not the exact value. */
static void
test_parse_exponent_saturation (void)
{
  GString *s = g_string_new ("1");
  float f;

  for (int i = 0; i < 70000; i++)
    g_string_append_c (s, '0');
  g_string_append (s, "e-700001");   /* read as e-70000 */
  g_assert_true (tp_parse_f32 (s->str, s->len, &f));
  g_assert_cmpuint (float_bits (f), ==, 0x3f800000);

  g_string_assign (s, "0.");
  for (int i = 0; i < 100000; i++)
    g_string_append_c (s, '0');
  g_string_append (s, "1e100005");   /* under the cap: exact, 1e4 */
  g_assert_true (tp_parse_f32 (s->str, s->len, &f));
  g_assert_cmpuint (float_bits (f), ==, 0x461c4000);
  g_string_free (s, TRUE);
}

/* Linear time and bounded memory: a 10 MB digit string and an exponent
 * with a million digits (a quadratic parser would not finish). */
static void
test_parse_huge (void)
{
  size_t n = 10 * 1000 * 1000;
  char *text = g_malloc (n + 16);
  float f;

  text[0] = '0';
  text[1] = '.';
  memset (text + 2, '0', n - 3);
  text[n - 1] = '5';
  memcpy (text + n, "e9999990", 8);   /* 0.000...05e9999990 = 5e-10 */
  g_assert_true (tp_parse_f32 (text, n + 8, &f));
  g_assert_cmpfloat (f, ==, 0.0f);   /* the exponent saturates: far below */

  memset (text, '3', n);               /* 333...3 (10^7 digits) */
  g_assert_true (tp_parse_f32 (text, n, &f));
  g_assert_cmpuint (float_bits (f), ==, 0x7f800000);
  memcpy (text + n, "e-9999962", 9);   /* 10^7 threes * 10^-9999962 */
  g_assert_true (tp_parse_f32 (text, n + 9, &f));
  g_assert_cmpuint (float_bits (f), ==, 0x7f800000);   /* saturated at 65536 */

  text[0] = '.';
  text[1] = '3';
  memset (text + 2, '0', n - 2);        /* .3000...0 */
  g_assert_true (tp_parse_f32 (text, n, &f));
  g_assert_cmpfloat (f, ==, 0.3f);

  text[0] = '1';
  text[1] = 'e';
  memset (text + 2, '9', n - 2);        /* 1e999...9 */
  g_assert_true (tp_parse_f32 (text, n, &f));
  g_assert_cmpuint (float_bits (f), ==, 0x7f800000);
  text[2] = '-';
  g_assert_true (tp_parse_f32 (text, n, &f));
  g_assert_cmpuint (float_bits (f), ==, 0);
  text[n - 1] = 'x';
  g_assert_false (tp_parse_f32 (text, n, &f));
  g_free (text);
}

/* Display and Debug read back as the same bits for a sweep of patterns. */
static void
test_round_trip (void)
{
  for (guint64 b = 0; b < 0x7f800000u; b += 0x1357u)
    {
      char buf[TP_FMT_F32_MAX];
      float f;
      size_t n = tp_fmt_f32_display (bits_float ((guint32) b), buf);

      g_assert_true (tp_parse_f32 (buf, n, &f));
      g_assert_cmpuint (float_bits (f), ==, b);
      n = tp_fmt_f32_debug (bits_float ((guint32) b | 0x80000000u), buf);
      g_assert_true (tp_parse_f32 (buf, n, &f));
      g_assert_cmpuint (float_bits (f), ==, b | 0x80000000u);
    }
}

/* tp_fmt_u64 against g_snprintf at every power of ten and of two, one
 * either side, and a spread between: the digit count comes from the bit
 * length and, below 10^8, the digits from one shifted word, and each
 * edge of those is here.  The bytes past the digits are the caller's
 * room, free to be written. */
static void
check_u64 (guint64 v)
{
  char ours[32], want[32];
  size_t n;

  memset (ours, '#', sizeof ours);
  n = tp_fmt_u64 (v, ours);
  ours[n] = '\0';
  g_snprintf (want, sizeof want, "%" G_GUINT64_FORMAT, v);
  g_assert_cmpstr (ours, ==, want);
}

static void
test_format_u64 (void)
{
  guint64 p = 1, x = 0x9E3779B97F4A7C15u;

  check_u64 (0);
  check_u64 (G_MAXUINT64);
  for (int k = 0; k < 20; k++)
    {
      check_u64 (p);
      check_u64 (p - 1);
      check_u64 (p + 1);
      if (k < 19)
        p *= 10;
    }
  for (int k = 0; k < 64; k++)
    {
      check_u64 ((guint64) 1 << k);
      check_u64 (((guint64) 1 << k) - 1);
      check_u64 (((guint64) 1 << k) + 1);
    }
  for (int k = 0; k < 100000; k++)
    {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      check_u64 (x >> (x & 63));
      check_u64 ((guint64) k);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/fmt/format/cases", test_format_cases);
  g_test_add_func ("/fmt/format/seed-draws", test_format_seed_draws);
  g_test_add_func ("/fmt/format/lengths", test_format_lengths);
  g_test_add_func ("/fmt/format/u64", test_format_u64);
  g_test_add_func ("/fmt/parse/cases", test_parse_cases);
  g_test_add_func ("/fmt/parse/length", test_parse_length);
  g_test_add_func ("/fmt/parse/exponent-saturation", test_parse_exponent_saturation);
  g_test_add_func ("/fmt/parse/huge", test_parse_huge);
  g_test_add_func ("/fmt/round-trip", test_round_trip);
  return g_test_run ();
}
