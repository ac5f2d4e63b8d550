/* bench-versions.c: this build's command line beside another build's, in
 * one run.
 *
 *   bench-versions NEW_TOPOS OLD_TOPOS [RUNS]
 *
 * Writes two generated programs (a chain of small layers, 300 and 1,000
 * lines: `x = input [4, 8]`, then pairs `wK = parameter [8, 8]`,
 * `hK = tanh(hPREV @ wK) + hPREV`, then `loss = sum(hN * hN)`), then runs
 * each job (`--reading spec`, `--all`, `--json`) with NEW and OLD in turn,
 * RUNS times each (15 by default), standard output to /dev/null, and
 * prints the median whole-process wall time of each and their ratio.
 * OLD is another commit built beside this one (docs: HACKING.md,
 * Benchmarks).  A figure, not a test: nothing is asserted. */
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

/* Writes the generated program of `lines` lines to path. */
static int
write_program (const char *path, int lines)
{
  FILE *f = fopen (path, "w");
  int written = 2, k = 0;

  if (f == NULL)
    return -1;
  fprintf (f, "# a %d-line program: a deep chain of small layers\n"
              "x = input [4, 8]\n", lines);
  for (; written < lines - 1; written += 2, k++)
    {
      if (k == 0)
        fprintf (f, "w0 = parameter [8, 8]\nh0 = tanh(x @ w0) + x\n");
      else
        fprintf (f, "w%d = parameter [8, 8]\nh%d = tanh(h%d @ w%d) + h%d\n",
                 k, k, k - 1, k, k - 1);
    }
  fprintf (f, "loss = sum(h%d * h%d)\n", k - 1, k - 1);
  return fclose (f);
}

int
main (int argc, char **argv)
{
  static const char *const jobs[][2] = {
    { "--reading", "spec" }, { "--all", NULL }, { "--json", NULL },
  };
  static const int sizes[] = { 300, 1000 };
  char dir[] = "/tmp/bench-versions-XXXXXX";
  int runs = argc > 3 ? atoi (argv[3]) : 15;

  if (argc < 3 || runs <= 0 || runs > 1000)
    {
      fprintf (stderr, "usage: bench-versions NEW_TOPOS OLD_TOPOS [RUNS]\n");
      return 2;
    }
  if (mkdtemp (dir) == NULL)
    return 1;
  printf ("whole-process wall time, median of %d runs, new and old in turn\n",
          runs);
  printf ("%-24s %-16s %10s %10s %9s\n", "program", "job", "new ms",
          "old ms", "new/old");
  for (size_t p = 0; p < sizeof sizes / sizeof sizes[0]; p++)
    {
      char path[64];

      snprintf (path, sizeof path, "%s/%d-lines.tape", dir, sizes[p]);
      if (write_program (path, sizes[p]) != 0)
        return 1;
      for (size_t j = 0; j < sizeof jobs / sizeof jobs[0]; j++)
        {
          char *new_argv[] = { argv[1], (char *) jobs[j][0],
                               (char *) jobs[j][1], path, NULL };
          char *old_argv[] = { argv[2], (char *) jobs[j][0],
                               (char *) jobs[j][1], path, NULL };
          double *t = malloc (sizeof *t * (size_t) runs * 2);
          double a, b;
          char job[32];

          if (jobs[j][1] == NULL)
            {
              new_argv[2] = path;
              new_argv[3] = NULL;
              old_argv[2] = path;
              old_argv[3] = NULL;
            }
          if (t == NULL)
            return 1;
          for (int r = 0; r < runs; r++)
            {
              t[r] = run_once (new_argv);
              t[runs + r] = run_once (old_argv);
              if (t[r] < 0 || t[runs + r] < 0)
                {
                  fprintf (stderr, "bench-versions: a run of %s failed\n",
                           path);
                  free (t);
                  return 1;
                }
            }
          a = median (t, runs);
          b = median (t + runs, runs);
          snprintf (job, sizeof job, "%s%s%s", jobs[j][0],
                    jobs[j][1] != NULL ? " " : "",
                    jobs[j][1] != NULL ? jobs[j][1] : "");
          printf ("%-24s %-16s %10.2f %10.2f %9.2f\n", strrchr (path, '/') + 1,
                  job, a * 1e3, b * 1e3, a / b);
          free (t);
        }
      remove (path);
    }
  rmdir (dir);
  return 0;
}
