/* bench-fmt.c: calls per second of tp_fmt_f32_display/debug and
 * tp_parse_f32, in process CPU time (steady on a busy machine).  Prints
 * figures; asserts nothing about speed. */
#include <glib.h>
#include <string.h>
#include <time.h>

#include "tp-fmt.h"

#define N_VALUES (1 << 20)

static guint64 rng_state = 42;

static guint64
rng_next (void)
{
  guint64 z = (rng_state += 0x9E3779B97F4A7C15u);

  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
  return z ^ (z >> 31);
}

/* CPU time in microseconds. */
static gint64
cpu_usec (void)
{
  return (gint64) ((double) clock () * 1e6 / CLOCKS_PER_SEC);
}

static void
report (const char *what, guint64 calls, gint64 usec, guint64 checksum)
{
  g_print ("%-44s %7.2f M calls/s  (%.0f ns/call, checksum %" G_GUINT64_FORMAT ")\n",
           what, (double) calls / (double) usec, 1000.0 * (double) usec / (double) calls,
           checksum);
}

static void
bench_format (const char *what, const float *values, gboolean debug)
{
  char buf[TP_FMT_F32_MAX];
  guint64 checksum = 0;
  gint64 start = cpu_usec ();
  int rounds = 5;

  for (int r = 0; r < rounds; r++)
    for (int i = 0; i < N_VALUES; i++)
      checksum += debug ? tp_fmt_f32_debug (values[i], buf)
                        : tp_fmt_f32_display (values[i], buf);
  report (what, (guint64) rounds * N_VALUES, cpu_usec () - start, checksum);
}

static void
bench_parse (const char *what, const float *values, gboolean debug)
{
  char *texts = g_malloc ((size_t) N_VALUES * TP_FMT_F32_MAX);
  size_t *lens = g_new (size_t, N_VALUES);
  guint64 checksum = 0;
  gint64 start;
  int rounds = 3;

  for (int i = 0; i < N_VALUES; i++)
    lens[i] = debug ? tp_fmt_f32_debug (values[i], texts + (size_t) i * TP_FMT_F32_MAX)
                    : tp_fmt_f32_display (values[i], texts + (size_t) i * TP_FMT_F32_MAX);
  start = cpu_usec ();
  for (int r = 0; r < rounds; r++)
    for (int i = 0; i < N_VALUES; i++)
      {
        float f;
        guint32 b;

        tp_parse_f32 (texts + (size_t) i * TP_FMT_F32_MAX, lens[i], &f);
        memcpy (&b, &f, sizeof b);
        checksum += b;
      }
  report (what, (guint64) rounds * N_VALUES, cpu_usec () - start, checksum);
  g_free (texts);
  g_free (lens);
}

int
main (void)
{
  float *tensor = g_new (float, N_VALUES);
  float *anything = g_new (float, N_VALUES);

  for (int i = 0; i < N_VALUES; i++)
    {
      double u = (double) (rng_next () >> 11) / 9007199254740992.0;
      guint32 bits = (guint32) rng_next ();

      tensor[i] = (float) (u * 2.0 - 1.0);
      if ((bits & 0x7f800000u) == 0x7f800000u)
        bits ^= 0x40000000u;   /* keep it finite */
      memcpy (&anything[i], &bits, sizeof bits);
    }

  bench_format ("display, uniform [-1, 1)", tensor, FALSE);
  bench_format ("debug, uniform [-1, 1)", tensor, TRUE);
  bench_format ("display, random finite bit patterns", anything, FALSE);
  bench_format ("debug, random finite bit patterns", anything, TRUE);
  bench_parse ("parse display text, uniform [-1, 1)", tensor, FALSE);
  bench_parse ("parse debug text, random finite patterns", anything, TRUE);

  g_free (tensor);
  g_free (anything);
  return 0;
}
