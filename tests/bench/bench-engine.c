/* bench-engine: prints how long the engine takes to read programs, and
 * the exact matmul's throughput beside a naive triple loop in the same
 * run (after checking both give the same bits).  Not a test: it asserts
 * nothing about time.  Usage: bench-engine [SAMPLES_DIR] */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench-util.h"
#include "tp-engine.h"
#include "tp-run.h"

/* Median time of one compile (all readings) over enough repetitions. */
static double
time_compile (TpSession *s, const char *src, size_t len, const char *target)
{
  TpChoices c = { .target = target };
  double best[15];
  int reps = 15;

  for (int r = 0; r < reps; r++)
    {
      int inner = 0;
      double t0 = bench_seconds (CLOCK_MONOTONIC), t1;
      do
        {
          if (tp_session_compile (s, src, len, &c) != TP_STATUS_OK)
            {
              fprintf (stderr, "bench: program refused\n");
              exit (1);
            }
          inner++;
          t1 = bench_seconds (CLOCK_MONOTONIC);
        }
      while (t1 - t0 < 0.01);
      best[r] = (t1 - t0) / inner;
    }
  for (int i = 0; i < reps; i++)
    for (int j = i + 1; j < reps; j++)
      if (best[j] < best[i])
        {
          double t = best[i];
          best[i] = best[j];
          best[j] = t;
        }
  return best[reps / 2];
}

/* The textbook triple loop, in the same order.  GCC at -O2 vectorises it
 * across j by itself; the scalar twin below has vectorisation turned off,
 * which is what the loop as written does on a compiler that does not. */
static void
naive_matmul (const float *a, const float *b, float *out, uint32_t m,
              uint32_t k, uint32_t n)
{
  for (uint32_t i = 0; i < m; i++)
    for (uint32_t j = 0; j < n; j++)
      {
        float acc = a[i * k] * b[j];
        for (uint32_t p = 1; p < k; p++)
          acc = acc + a[i * k + p] * b[p * n + j];
        out[i * n + j] = acc;
      }
}

#if defined(__GNUC__) && !defined(__clang__)
__attribute__ ((optimize ("no-tree-vectorize"), noinline))
#endif
static void
naive_matmul_scalar (const float *a, const float *b, float *out, uint32_t m,
                     uint32_t k, uint32_t n)
{
  for (uint32_t i = 0; i < m; i++)
#if defined(__clang__)
#pragma clang loop vectorize(disable)
#endif
    for (uint32_t j = 0; j < n; j++)
      {
        float acc = a[i * k] * b[j];
        for (uint32_t p = 1; p < k; p++)
          acc = acc + a[i * k + p] * b[p * n + j];
        out[i * n + j] = acc;
      }
}

static void
bench_matmul (void)
{
  const uint32_t n = 256;
  float *a = malloc (n * n * sizeof *a), *b = malloc (n * n * sizeof *b);
  float *fast = malloc (n * n * sizeof *a), *slow = malloc (n * n * sizeof *a);
  double flops = 2.0 * n * n * n, t_fast = 1e9, t_slow = 1e9;
  uint64_t state = 7;

  for (uint32_t i = 0; i < n * n; i++)
    {
      state = state * 6364136223846793005u + 1442695040888963407u;
      a[i] = (float) (state >> 40) / 16777216.0f - 0.5f;
      state = state * 6364136223846793005u + 1442695040888963407u;
      b[i] = (float) (state >> 40) / 16777216.0f - 0.5f;
    }
  double t_scalar = 1e9;
  float *scalar = malloc (n * n * sizeof *a);
  for (int r = 0; r < 5; r++)
    {
      double t0 = bench_seconds (CLOCK_MONOTONIC);
      tp_matmul (a, b, fast, n, n, n);
      double t1 = bench_seconds (CLOCK_MONOTONIC);
      naive_matmul (a, b, slow, n, n, n);
      double t2 = bench_seconds (CLOCK_MONOTONIC);
      naive_matmul_scalar (a, b, scalar, n, n, n);
      double t3 = bench_seconds (CLOCK_MONOTONIC);
      if (t1 - t0 < t_fast)
        t_fast = t1 - t0;
      if (t2 - t1 < t_slow)
        t_slow = t2 - t1;
      if (t3 - t2 < t_scalar)
        t_scalar = t3 - t2;
    }
  printf ("matmul [256, 256] @ [256, 256], exact order, best of 5:\n");
  printf ("  same bits as both naive loops: %s\n",
          memcmp (fast, slow, n * n * sizeof *a) == 0
          && memcmp (fast, scalar, n * n * sizeof *a) == 0 ? "yes" : "NO");
  printf ("  engine                 %8.3f ms  %6.2f GFLOP/s\n", t_fast * 1e3,
          flops / t_fast * 1e-9);
  printf ("  naive, scalar          %8.3f ms  %6.2f GFLOP/s  engine is %.1fx\n",
          t_scalar * 1e3, flops / t_scalar * 1e-9, t_scalar / t_fast);
  printf ("  naive, gcc-vectorised  %8.3f ms  %6.2f GFLOP/s  engine is %.1fx\n",
          t_slow * 1e3, flops / t_slow * 1e-9, t_slow / t_fast);
  free (scalar);
  free (a);
  free (b);
  free (fast);
  free (slow);
}

int
main (int argc, char **argv)
{
  static const char *const samples[][2] = {
    { "readme.tape", "loss" }, { "dense-layer.tape", "loss" },
    { "classifier.tape", "loss" }, { "two-layers.tape", "loss" },
    { "not-yet-a-scalar.tape", "y" },
  };
  const char *dir = argc > 1 ? argv[1] : "resources/samples";
  TpSession *s = tp_session_new ();
  char path[4096], *src;
  size_t len;

  printf ("compile + all readings (median):\n");
  for (size_t k = 0; k < sizeof samples / sizeof samples[0]; k++)
    {
      snprintf (path, sizeof path, "%s/%s", dir, samples[k][0]);
      src = bench_read_file (path, &len);
      if (src == NULL)
        {
          fprintf (stderr, "bench: cannot read %s\n", path);
          return 1;
        }
      printf ("  %-24s %8.1f us\n", samples[k][0],
              time_compile (s, src, len, samples[k][1]) * 1e6);
      free (src);
    }
  src = bench_generate_program (&len);
  {
    double t = time_compile (s, src, len, NULL);
    printf ("  %-24s %8.1f us   %s", "generated 1,000 lines", t * 1e6,
            tp_session_reading (s, TP_READING_SUMMARY));
  }
  free (src);
  tp_session_free (s);
  bench_matmul ();
  return 0;
}
