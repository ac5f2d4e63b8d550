/* bench-train: the time of a training (tp_session_train), built twice from
 * this one file: natively (tests/bench) and with emcc (web/, run by node),
 * so the two can be put side by side (tests/web/bench-web.mjs does).  Not a
 * test: it prints figures and asserts nothing.
 *
 * Usage: bench-train STEPS RATE FILE...
 * Prints one line per file: NAME<TAB>ms per training<TAB>us per step, the
 * median of 15 trainings (wall clock) after WARMUP others, the last loss,
 * and the first training's time (cold: under node, before V8 has
 * optimized the engine's hot functions in the background). */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench-util.h"
#include "tp-engine.h"

#define RUNS 15
#define WARMUP 10

static int
by_value (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

int
main (int argc, char **argv)
{
  TpSession *session = tp_session_new ();
  unsigned long steps;
  const char *rate;

  if (argc < 4 || session == NULL)
    {
      fprintf (stderr, "usage: bench-train STEPS RATE FILE...\n");
      return 2;
    }
  steps = strtoul (argv[1], NULL, 10);
  rate = argv[2];
  printf ("file\tms per training\tus per step\tlast loss\tcold ms\n");
  for (int a = 3; a < argc; a++)
    {
      double times[RUNS], cold = 0.0;
      size_t len = 0, n = 0;
      char *src = bench_read_file (argv[a], &len);
      const char *name = strrchr (argv[a], '/');
      float last = 0.0f;

      if (src == NULL
          || tp_session_compile (session, src, len, NULL) != TP_STATUS_OK)
        {
          fprintf (stderr, "bench-train: cannot read %s\n", argv[a]);
          return 1;
        }
      for (int r = -WARMUP; r < RUNS; r++)
        {
          double t0 = bench_seconds (CLOCK_MONOTONIC);
          TpTrain *t = tp_session_train (session, (uint32_t) steps, rate,
                                         strlen (rate));
          double took = bench_seconds (CLOCK_MONOTONIC) - t0;

          if (r == -WARMUP)
            cold = took;
          if (r >= 0)
            times[r] = took;
          if (t == NULL)
            {
              fprintf (stderr, "bench-train: out of memory\n");
              return 1;
            }
          if (!tp_train_ok (t))
            {
              printf ("%s\trefused: %s\n", name != NULL ? name + 1 : argv[a],
                      tp_train_error (t));
              tp_train_free (t);
              break;
            }
          last = tp_train_losses (t, &n)[n - 1];
          tp_train_free (t);
        }
      if (n == 0)
        {
          free (src);
          continue;
        }
      qsort (times, RUNS, sizeof *times, by_value);
      printf ("%s\t%.2f\t%.2f\t%.9g\t%.2f\n",
              name != NULL ? name + 1 : argv[a], times[RUNS / 2] * 1e3,
              times[RUNS / 2] * 1e6 / (double) (steps + 1), (double) last,
              cold * 1e3);
      free (src);
    }
  tp_session_free (session);
  return 0;
}
