/* bench-cli.c: the command line's whole-process time for small jobs.
 *
 *   bench-cli TOPOS CAT-FILE [RUNS] FILE...
 *
 * For each FILE, runs `TOPOS --json FILE`, `TOPOS --all FILE` and the
 * baseline `CAT-FILE FILE` (a minimal C program that reads the file and
 * prints it) RUNS times each (20 by default), interleaved, with standard
 * output to /dev/null, and prints the median wall time of each and the
 * ratio to the baseline. A figure, not a test: nothing is asserted. */
#define _POSIX_C_SOURCE 200809L

#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench-util.h"

extern char **environ;

/* One run's wall time in seconds, or a negative number when it failed. */
static double
run_once (char *const argv[])
{
  posix_spawn_file_actions_t actions;
  double start, end;
  int status;
  pid_t pid;

  posix_spawn_file_actions_init (&actions);
  posix_spawn_file_actions_addopen (&actions, 1, "/dev/null", O_WRONLY, 0);
  start = bench_seconds (CLOCK_MONOTONIC);
  if (posix_spawn (&pid, argv[0], &actions, NULL, argv, environ) != 0)
    {
      posix_spawn_file_actions_destroy (&actions);
      return -1;
    }
  waitpid (pid, &status, 0);
  end = bench_seconds (CLOCK_MONOTONIC);
  posix_spawn_file_actions_destroy (&actions);
  return WIFEXITED (status) && WEXITSTATUS (status) == 0 ? end - start : -1;
}

static int
by_value (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

static double
median (double *xs, int n)
{
  qsort (xs, (size_t) n, sizeof *xs, by_value);
  return n % 2 ? xs[n / 2] : (xs[n / 2 - 1] + xs[n / 2]) / 2;
}

int
main (int argc, char **argv)
{
  int runs = 20, first = 3;

  if (argc > 3 && atoi (argv[3]) > 0 && strspn (argv[3], "0123456789") == strlen (argv[3]))
    {
      runs = atoi (argv[3]);
      first = 4;
    }
  if (argc <= first || runs > 1000)
    {
      fprintf (stderr, "usage: bench-cli TOPOS CAT-FILE [RUNS] FILE...\n");
      return 2;
    }
  printf ("whole-process wall time, median of %d runs (interleaved)\n", runs);
  printf ("%-28s %12s %12s %12s %9s %9s\n", "program", "baseline ms",
          "--json ms", "--all ms", "json/base", "all/base");
  for (int f = first; f < argc; f++)
    {
      char *base_argv[] = { argv[2], argv[f], NULL };
      char *json_argv[] = { argv[1], (char *) "--json", argv[f], NULL };
      char *all_argv[] = { argv[1], (char *) "--all", argv[f], NULL };
      double *t = malloc (sizeof *t * (size_t) runs * 3);
      const char *name = strrchr (argv[f], '/');
      double b, j, a;

      if (t == NULL)
        return 1;
      for (int r = 0; r < runs; r++)
        {
          t[r] = run_once (base_argv);
          t[runs + r] = run_once (json_argv);
          t[2 * runs + r] = run_once (all_argv);
          if (t[r] < 0 || t[runs + r] < 0 || t[2 * runs + r] < 0)
            {
              fprintf (stderr, "bench-cli: a run of %s failed\n", argv[f]);
              free (t);
              return 1;
            }
        }
      b = median (t, runs);
      j = median (t + runs, runs);
      a = median (t + 2 * runs, runs);
      printf ("%-28s %12.3f %12.3f %12.3f %9.2f %9.2f\n",
              name != NULL ? name + 1 : argv[f], b * 1e3, j * 1e3, a * 1e3,
              j / b, a / b);
      free (t);
    }
  return 0;
}
