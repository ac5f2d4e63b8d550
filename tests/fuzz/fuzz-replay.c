/* fuzz-replay.c: runs inputs through the fuzz target without libFuzzer,
 * so regressions and seeds are plain tests in every build.
 *
 *   tp-fuzz-replay PATH...            each file (directories: each file
 *                                     in them, sorted) as one input; a
 *                                     .tape file is a program, run once
 *                                     under every seed header (built for
 *                                     the lesson target, fuzz-lesson.c,
 *                                     with TP_FUZZ_SEED_SUFFIX ".lesson":
 *                                     a .lesson file)
 *   tp-fuzz-replay --corpus DIR PATH...
 *                                     writes the seed corpus: every .tape
 *                                     program under every seed header
 *
 * Prints TAP; a violated property aborts (the test fails). */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "tp-fuzz.h"

/* The files that are seeds, run under every seed header. */
#ifndef TP_FUZZ_SEED_SUFFIX
#define TP_FUZZ_SEED_SUFFIX ".tape"
#endif

typedef struct
{
  char **paths;
  size_t n;
  size_t cap;
} PathList;

static bool
is_seed (const char *path)
{
  size_t n = strlen (path), m = strlen (TP_FUZZ_SEED_SUFFIX);

  return n > m && strcmp (path + n - m, TP_FUZZ_SEED_SUFFIX) == 0;
}

static void
die (const char *what, const char *path)
{
  fprintf (stderr, "tp-fuzz-replay: %s %s: %s\n", what, path,
           strerror (errno));
  exit (2);
}

static void
add_path (PathList *list, const char *path)
{
  if (list->n == list->cap)
    {
      list->cap = list->cap ? list->cap * 2 : 64;
      list->paths = realloc (list->paths, list->cap * sizeof *list->paths);
      if (list->paths == NULL)
        die ("out of memory for", path);
    }
  list->paths[list->n] = malloc (strlen (path) + 1);
  if (list->paths[list->n] == NULL)
    die ("out of memory for", path);
  strcpy (list->paths[list->n++], path);
}

static int
compare_paths (const void *a, const void *b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

/* A file, or the inputs directly inside a directory: its seeds (.tape
 * programs) and its files without a dot in their name (raw fuzzer
 * inputs), so a README or a golden reading beside them is skipped. */
static void
expand (PathList *list, const char *path)
{
  struct stat st;
  DIR *dir;
  struct dirent *e;
  size_t first = list->n;

  if (stat (path, &st) != 0)
    die ("cannot stat", path);
  if (!S_ISDIR (st.st_mode))
    {
      add_path (list, path);
      return;
    }
  dir = opendir (path);
  if (dir == NULL)
    die ("cannot open", path);
  while ((e = readdir (dir)) != NULL)
    {
      size_t n = strlen (e->d_name);
      char *full;
      if (strchr (e->d_name, '.') != NULL && !is_seed (e->d_name))
        continue;
      full = malloc (strlen (path) + n + 2);
      if (full == NULL)
        die ("out of memory for", path);
      sprintf (full, "%s/%s", path, e->d_name);
      if (stat (full, &st) == 0 && S_ISREG (st.st_mode))
        add_path (list, full);
      free (full);
    }
  closedir (dir);
  qsort (list->paths + first, list->n - first, sizeof *list->paths,
         compare_paths);
}

static unsigned char *
slurp (const char *path, size_t *len)
{
  FILE *f = fopen (path, "rb");
  unsigned char *buf = NULL;
  size_t cap = 0, n = 0;

  if (f == NULL)
    die ("cannot open", path);
  for (;;)
    {
      size_t got;
      if (cap - n < 65536)
        {
          cap = cap ? cap * 2 : 65536;
          buf = realloc (buf, cap);
          if (buf == NULL)
            die ("out of memory for", path);
        }
      got = fread (buf + TP_FUZZ_HEADER + n, 1, cap - n - TP_FUZZ_HEADER, f);
      n += got;
      if (got == 0)
        break;
    }
  if (ferror (f))
    die ("cannot read", path);
  fclose (f);
  *len = n;
  return buf;     /* the text starts after TP_FUZZ_HEADER free bytes */
}


static const char *
base_name (const char *path)
{
  const char *slash = strrchr (path, '/');

  return slash ? slash + 1 : path;
}

static double
now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec * 1e-9;
}

static void
free_list (PathList *list)
{
  for (size_t i = 0; i < list->n; i++)
    free (list->paths[i]);
  free (list->paths);
}

static int
write_corpus (const char *dir, const PathList *list)
{
  size_t written = 0;

  for (size_t i = 0; i < list->n; i++)
    {
      size_t len;
      unsigned char *buf;

      if (!is_seed (list->paths[i]))
        continue;
      buf = slurp (list->paths[i], &len);
      for (size_t h = 0; h < tp_fuzz_n_seed_headers; h++)
        {
          char *out = malloc (strlen (dir) + strlen (list->paths[i]) + 32);
          FILE *f;
          if (out == NULL)
            die ("out of memory for", dir);
          sprintf (out, "%s/%s-%zu", dir, base_name (list->paths[i]), h);
          memcpy (buf, tp_fuzz_seed_headers[h], TP_FUZZ_HEADER);
          f = fopen (out, "wb");
          if (f == NULL || fwrite (buf, 1, len + TP_FUZZ_HEADER, f)
                           != len + TP_FUZZ_HEADER || fclose (f) != 0)
            die ("cannot write", out);
          free (out);
          written++;
        }
      free (buf);
    }
  printf ("wrote %zu seed inputs to %s\n", written, dir);
  return 0;
}

int
main (int argc, char **argv)
{
  PathList list = { NULL, 0, 0 };
  const char *corpus = NULL;
  int first = 1;

  if (argc > 2 && strcmp (argv[1], "--corpus") == 0)
    {
      corpus = argv[2];
      first = 3;
    }
  if (first >= argc)
    {
      fputs ("usage: tp-fuzz-replay [--corpus DIR] PATH...\n", stderr);
      return 2;
    }
  for (int a = first; a < argc; a++)
    expand (&list, argv[a]);
  if (corpus != NULL)
    {
      int status = write_corpus (corpus, &list);
      free_list (&list);
      return status;
    }

  printf ("1..%zu\n", list.n);
  for (size_t i = 0; i < list.n; i++)
    {
      size_t len;
      unsigned char *buf = slurp (list.paths[i], &len);
      double t0 = now (), slowest = 0;

      fflush (stdout);
      if (is_seed (list.paths[i]))
        for (size_t h = 0; h < tp_fuzz_n_seed_headers; h++)
          {
            double t = now ();
            memcpy (buf, tp_fuzz_seed_headers[h], TP_FUZZ_HEADER);
            tp_fuzz_one (buf, len + TP_FUZZ_HEADER);
            if (now () - t > slowest)
              slowest = now () - t;
          }
      else
        {
          tp_fuzz_one (buf + TP_FUZZ_HEADER, len);
          slowest = now () - t0;
        }
      printf ("ok %zu - %s (%.3f s, slowest run %.3f s)\n", i + 1,
              list.paths[i], now () - t0, slowest);
      free (buf);
    }
  free_list (&list);
  return 0;
}
