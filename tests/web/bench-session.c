/* bench-session: the time of one read as the page does it (compile, then
 * the JSON), built twice from this one file: natively (tests/web) and with
 * emcc (web/, run by node), so bench-web.mjs can put the two side by side.
 * Not a test: it prints figures and asserts nothing.
 *
 * Usage: bench-session FILE...
 * Prints one line per file: NAME<TAB>compile us<TAB>json us<TAB>total us,
 * each the median over 9 batches of wall-clock time per read.  A read is a
 * compile and then the JSON of that compile, so the JSON pays for every
 * reading and teaching result the engine computes lazily on it; the JSON
 * column is a batch of reads less a batch of compiles alone. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tp-engine.h"

#define BATCHES 9

static double
now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec * 1e-9;
}

static int
compare_doubles (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

static char *
read_file (const char *path, size_t *len)
{
  FILE *f = fopen (path, "rb");
  char *buf;
  long size;

  if (f == NULL || fseek (f, 0, SEEK_END) != 0 || (size = ftell (f)) < 0
      || fseek (f, 0, SEEK_SET) != 0)
    {
      if (f != NULL)
        fclose (f);
      return NULL;
    }
  buf = malloc ((size_t) size + 1);
  if (buf != NULL)
    *len = fread (buf, 1, (size_t) size, f);
  fclose (f);
  return buf;
}

int
main (int argc, char **argv)
{
  TpSession *session = tp_session_new ();

  if (session == NULL)
    return 1;
  for (int a = 1; a < argc; a++)
    {
      double compile[BATCHES], json[BATCHES], total[BATCHES];
      const TpChoices choices = { .target = NULL };
      size_t len = 0;
      char *src = read_file (argv[a], &len);
      int reps = 1;

      if (src == NULL)
        {
          fprintf (stderr, "bench-session: cannot read %s\n", argv[a]);
          return 1;
        }
      /* Warm up for a quarter second (under node this lets V8 replace its
       * baseline wasm code with optimised code), counting how many
       * repetitions make a batch of about 20 ms. */
      for (double t0 = now (); now () - t0 < 0.25; reps++)
        {
          tp_session_compile (session, src, len, &choices);
          tp_string_free (tp_session_to_json (session));
        }
      reps = reps / 12 + 1;
      for (int b = 0; b < BATCHES; b++)
        {
          double t0 = now (), t1, t2;
          for (int r = 0; r < reps; r++)
            tp_session_compile (session, src, len, &choices);
          t1 = now ();
          for (int r = 0; r < reps; r++)
            {
              tp_session_compile (session, src, len, &choices);
              tp_string_free (tp_session_to_json (session));
            }
          t2 = now ();
          compile[b] = (t1 - t0) / reps * 1e6;
          total[b] = (t2 - t1) / reps * 1e6;
          json[b] = total[b] - compile[b];
        }
      qsort (compile, BATCHES, sizeof (double), compare_doubles);
      qsort (json, BATCHES, sizeof (double), compare_doubles);
      qsort (total, BATCHES, sizeof (double), compare_doubles);
      printf ("%s\t%.1f\t%.1f\t%.1f\n",
              strrchr (argv[a], '/') ? strrchr (argv[a], '/') + 1 : argv[a],
              compile[BATCHES / 2], json[BATCHES / 2], total[BATCHES / 2]);
      free (src);
    }
  tp_session_free (session);
  return 0;
}
