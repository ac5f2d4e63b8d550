/* bench-util.h: what the benchmark programs share: clocks and reading a
 * whole file.  Header-only so each benchmark stays one program. */
#ifndef TP_BENCH_UTIL_H
#define TP_BENCH_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* Seconds on the wall clock (CLOCK_MONOTONIC) or of this thread's CPU
 * time (CLOCK_THREAD_CPUTIME_ID, steadier on a loaded machine). */
static inline double
bench_seconds (clockid_t clock)
{
  struct timespec ts;

  clock_gettime (clock, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec * 1e-9;
}

/* The whole file, NUL-terminated, or NULL; *len (if given) its size. */
static inline char *
bench_read_file (const char *path, size_t *len)
{
  FILE *f = fopen (path, "rb");
  char *buf;
  long n;

  if (f == NULL)
    return NULL;
  fseek (f, 0, SEEK_END);
  n = ftell (f);
  fseek (f, 0, SEEK_SET);
  buf = n < 0 ? NULL : malloc ((size_t) n + 1);
  if (buf == NULL || fread (buf, 1, (size_t) n, f) != (size_t) n)
    {
      fclose (f);
      free (buf);
      return NULL;
    }
  fclose (f);
  buf[n] = '\0';
  if (len != NULL)
    *len = (size_t) n;
  return buf;
}

/* The generated 1,000-line program the benchmarks share: a tanh layer
 * with a bias and a skip connection repeated, then a loss.  Caller frees. */
static inline char *
bench_generate_program (size_t *len)
{
  size_t cap = 1 << 16, n = 0;
  char *p = malloc (cap);
  int lines = 0;

#define BENCH_EMIT(...) \
  do { \
    if (cap - n < 256) { cap *= 2; p = realloc (p, cap); } \
    n += (size_t) snprintf (p + n, cap - n, __VA_ARGS__); \
    lines++; \
  } while (0)

  BENCH_EMIT ("x = input [8, 16]\n");
  BENCH_EMIT ("h0 = x\n");
  for (int k = 1; lines < 997; k++)
    {
      BENCH_EMIT ("w%d = parameter [16, 16]\n", k);
      BENCH_EMIT ("b%d = parameter 0.1\n", k);
      BENCH_EMIT ("h%d = tanh(h%d @ w%d) * b%d + h%d\n", k, k - 1, k, k, k - 1);
    }
  BENCH_EMIT ("s = log_softmax(h1, 1)\n");
  BENCH_EMIT ("loss = -sum(s) / 8.0\n");
#undef BENCH_EMIT
  *len = n;
  return p;
}

#endif /* TP_BENCH_UTIL_H */
