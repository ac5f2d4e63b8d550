/* bench-map: what the reading map costs.  For every sample and the
 * generated 1,000-line program it prints the time of one compile (every
 * reading) with the map and without it (tp_session_set_map), and their
 * ratio; the target is at most 1.15.  The JSON, which writes the
 * map out, is timed the same way for information.  Times are this
 * thread's CPU time, the best of REPS runs; runs with and without the map
 * alternate and a ratio is the median of the paired runs' ratios, so
 * another process on the machine moves both sides alike.  Not a test: it asserts nothing
 * about time.  Usage: bench-map [SAMPLES_DIR] */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench-util.h"
#include "tp-engine.h"
#include "tp-engine-testing.h"

#define REPS 21

static int
compare_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

static double
median (double *v, int n)
{
  qsort (v, (size_t) n, sizeof *v, compare_double);
  return v[n / 2];
}

/* Seconds per call of one compile (and, when json is set, of the JSON
 * after it), repeated for about 20 ms. */
static double
time_once (TpSession *s, const char *src, size_t len, bool json)
{
  int inner = 0;
  double t0 = bench_seconds (CLOCK_THREAD_CPUTIME_ID), t1, spent = 0;

  do
    {
      double a, b;
      if (tp_session_compile (s, src, len, NULL) != TP_STATUS_OK)
        {
          fprintf (stderr, "bench-map: program refused\n");
          exit (1);
        }
      a = bench_seconds (CLOCK_THREAD_CPUTIME_ID);
      if (json)
        {
          char *text = tp_session_to_json (s);
          if (text == NULL)
            {
              fprintf (stderr, "bench-map: out of memory\n");
              exit (1);
            }
          tp_string_free (text);
        }
      b = bench_seconds (CLOCK_THREAD_CPUTIME_ID);
      spent += json ? b - a : 0;
      inner++;
      t1 = b;
    }
  while (t1 - t0 < 0.02);
  return json ? spent / inner : (t1 - t0) / inner;
}

typedef struct
{
  double off, on, json_off, json_on;    /* best times */
  double ratio, json_ratio;             /* medians of paired ratios */
} Figures;

static double
best (const double *v, int n)
{
  double b = v[0];

  for (int k = 1; k < n; k++)
    if (v[k] < b)
      b = v[k];
  return b;
}

static Figures
measure (const char *src, size_t len)
{
  TpSession *on = tp_session_new (), *off = tp_session_new ();
  double t_on[REPS], t_off[REPS], j_on[REPS], j_off[REPS];
  double ratio[REPS], json_ratio[REPS];
  Figures f;

  tp_session_set_map (off, false);
  /* Compiles first, then the JSON; which side runs first alternates. */
  for (int r = 0; r < REPS; r++)
    {
      if (r % 2 == 0)
        t_off[r] = time_once (off, src, len, false);
      t_on[r] = time_once (on, src, len, false);
      if (r % 2 == 1)
        t_off[r] = time_once (off, src, len, false);
      ratio[r] = t_on[r] / t_off[r];
    }
  for (int r = 0; r < REPS; r++)
    {
      if (r % 2 == 0)
        j_off[r] = time_once (off, src, len, true);
      j_on[r] = time_once (on, src, len, true);
      if (r % 2 == 1)
        j_off[r] = time_once (off, src, len, true);
      json_ratio[r] = j_on[r] / j_off[r];
    }
  f.off = best (t_off, REPS);
  f.on = best (t_on, REPS);
  f.json_off = best (j_off, REPS);
  f.json_on = best (j_on, REPS);
  f.ratio = median (ratio, REPS);
  f.json_ratio = median (json_ratio, REPS);
  tp_session_free (on);
  tp_session_free (off);
  return f;
}

static void
print_row (const char *name, const Figures *f, size_t refs)
{
  printf ("  %-24s %9.1f %9.1f  %5.3f   %8zu   %9.1f %9.1f  %5.2f\n", name,
          f->off * 1e6, f->on * 1e6, f->ratio, refs, f->json_off * 1e6,
          f->json_on * 1e6, f->json_ratio);
}

/* Every reading's refs, for the table. */
static size_t
count_refs (const char *src, size_t len)
{
  TpSession *s = tp_session_new ();
  size_t n = 0;

  tp_session_compile (s, src, len, NULL);
  for (int r = 0; r < TP_N_READINGS; r++)
    n += tp_session_map_n_refs (s, (TpReading) r);
  tp_session_free (s);
  return n;
}

int
main (int argc, char **argv)
{
  static const char *const samples[] = {
    "readme.tape", "dense-layer.tape", "classifier.tape", "two-layers.tape",
    "not-yet-a-scalar.tape", "linear-regression.tape", "mlp.tape",
    "attention.tape",
  };
  const char *dir = argc > 1 ? argv[1] : "resources/samples";
  double sum_off = 0, sum_on = 0;
  char path[4096], *src;
  size_t len;

  printf ("compile + all readings, CPU time in us (best of %d; ratio: median"
          " of paired runs):\n", REPS);
  printf ("  %-24s %9s %9s  %5s   %8s   %9s %9s  %5s\n", "program", "no map",
          "map", "ratio", "refs", "json", "json+map", "ratio");
  for (size_t k = 0; k < sizeof samples / sizeof samples[0]; k++)
    {
      Figures f;
      snprintf (path, sizeof path, "%s/%s", dir, samples[k]);
      src = bench_read_file (path, &len);
      if (src == NULL)
        {
          fprintf (stderr, "bench-map: cannot read %s\n", path);
          return 1;
        }
      f = measure (src, len);
      sum_off += f.off;
      sum_on += f.on;
      print_row (samples[k], &f, count_refs (src, len));
      free (src);
    }
  printf ("  %-24s %9.1f %9.1f  %5.3f\n", "all samples", sum_off * 1e6,
          sum_on * 1e6, sum_on / sum_off);
  src = bench_generate_program (&len);
  {
    Figures f = measure (src, len);
    print_row ("generated 1,000 lines", &f, count_refs (src, len));
  }
  free (src);
  return 0;
}
