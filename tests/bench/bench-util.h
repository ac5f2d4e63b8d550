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

#endif /* TP_BENCH_UTIL_H */
